// Work mappings `pairs-mma` / `sympairs-mma` (kfem's own, issue 18): pairs' node-pair products on
// the FP64 matrix units. Ordered component-major, the nine products of every node pair are one
// 24 x 24 x 8 matrix product per element, T = H^T G over the Gauss points q, with
// H(q, 8c + a) = w detJ dN_a/dx_c and G(q, 8d + b) = dN_b/dx_d. Block (a, b) of Ke is then
// from_products(T_cd(a, b)): lambda T_cd + mu T_dc, plus mu tr T on the diagonal, where T_cd is the
// 8 x 8 tile of components (c, d).
//  - One element per warp. Lane l = 4g + t computes node g's weighted and plain gradients at Gauss
//    points t and t + 4: exactly its A and B fragments of m16n8k4 (A[g][t], B[t][g]), so the
//    operands need no shuffle and no scratch.
//  - 12 products per element: row blocks (c = 0, 1) and (c = 2, zero rows) x d = 0..2 x 2 k-steps.
//  - Lane (g, t) then holds T_cd(g, 2t) and T_cd(g, 2t + 1) for every (c, d): it forms the nine
//    entries of Ke's blocks (g, 2t) and (g, 2t + 1) itself, diagonal blocks included, and writes them
//    to scratch in global node order, scattered as pairs does (scatter_sorted).
// Geometry and products run in double for either scalar (the unit has no FP32 mode of that
// accuracy); Ke is rounded to the scalar once. Other GPUs than CUDA sm_80+ are refused at launch.
#pragma once
#include <string>

#include "kfem/assembly/mapping/hex8_pairs.hpp"
#include "kfem/assembly/mapping/hex8_warp_common.hpp"
#include "kfem/assembly/warp_mma.hpp"

namespace kfem::mapping {
// Which of lane l's 24 products T(l, .) is T_cd(g, 2t + j), g = l / 4, t = l % 4.
KOKKOS_FORCEINLINE_FUNCTION constexpr int pair_product(int c, int d, int j) {
  return 12 * (c / 2) + 4 * d + 2 * (c % 2) + j;
}

// The node-pair products of one element (X: its 24 coordinates in warp scratch; C: 24 doubles of
// scratch for the monomial coefficients; Jq: 80 doubles of scratch for the Gauss points' J^-1 and
// det J). Called by all 32 lanes of a team member; on return lane l = 4g + t holds T_cd(g, 2t + j)
// in T(l, pair_product(c, d, j)), every c, d and j = 0, 1. Loop: the form of the geometry's two lane
// loops (lanes::VectorLoop or lanes::OnePass; hex8_pairs.hpp's pair_products says why it is a choice).
template <class Loop = lanes::VectorLoop, class Member>
KOKKOS_INLINE_FUNCTION void pair_products_mma(const Member& t, const double* X, double* C, double* Jq,
                                              lanes::Private<double, 24>& T) {
  monomial_coefficients(t, X, C);
  // J^-1 and det J once per Gauss point (lane q), not by each of the 8 lanes that need them.
  Loop::run(t, hex8::num_qp, [&](int q) {
    double J[3][3], Jinv[3][3];
    hex8::jacobian_from_monomials(C, q, J);
    Jq[10 * q + 9] = hex8::invert3(J, Jinv);  // Gauss weights are 1
    KFEM_UNROLL
    for (int k = 0; k < 9; ++k) Jq[10 * q + k] = Jinv[k / 3][k % 3];
  });
  // Fragments per k-step s: A {h_0, h_1, h_2, 0} (0: row block 1's second half), B {g_0, g_1, g_2}.
  lanes::Private<double, 8> A;
  lanes::Private<double, 6> B;
  Loop::run(t, lanes::width, [&](int l) {
    const int g = l / 4;
    KFEM_UNROLL
    for (int s = 0; s < 2; ++s) {
      const int q = l % 4 + 4 * s;
      double Jinv[3][3], gr[3];
      KFEM_UNROLL
      for (int k = 0; k < 9; ++k) Jinv[k / 3][k % 3] = Jq[10 * q + k];
      hex8::gradient<double>(Jinv, q, g, gr);
      const double det = Jq[10 * q + 9];
      KFEM_UNROLL
      for (int c = 0; c < 3; ++c) A(l, 4 * s + c) = det * gr[c], B(l, 3 * s + c) = gr[c];
      A(l, 4 * s + 3) = 0;
    }
    KFEM_UNROLL
    for (int k = 0; k < 24; ++k) T(l, k) = 0;
  });
  // T(l, 12 rb + 4 d + i): accumulator i of row block rb, column block d.
  KFEM_UNROLL
  for (int s = 0; s < 2; ++s) {
    KFEM_UNROLL
    for (int rb = 0; rb < 2; ++rb) {
      KFEM_UNROLL
      for (int dd = 0; dd < 3; ++dd) lanes::warp_mma(T, 12 * rb + 4 * dd, A, 4 * s + 2 * rb, B, 3 * s + dd);
    }
  }
}

template <bool Lower>
struct Hex8PairsMma {
  using layout = Kokkos::LayoutRight;
  static constexpr const char* name = Lower ? "sympairs-mma" : "pairs-mma";
  static constexpr const char* help =
      Lower ? "lower triangle: pairs-mma's math, lower-triangular storage"
            : "pairs' node-pair products on the FP64 matrix units (CUDA sm_80+; emulated on host backends)";
  static constexpr bool lower = Lower;
  int elements_per_team = 4;

  // Scratch per warp, in doubles: coordinates X (24), monomial coefficients C (24), the sorted Ke
  // (576 scalars; before it, the Gauss points' J^-1 and det J, 80), then 16 ints: node order and rank.
  static constexpr int x_at = 0, c_at = 24, k_at = 48, ints_at = k_at + 576;
  static constexpr int scratch = padded(ints_at + 8);

  template <class Exec, class Data, class Op, class Adder>
  void launch(const Exec& exec, const Data& d, const Op& op, ordinal_t begin, ordinal_t end,
              const Adder& add) const {
    using S = typename Data::scalar_type;
    const Isotropic<S> m = op.material;
    using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
    using Kokkos::ThreadVectorRange;
    if constexpr (!lanes::has_fp64_mma<Exec>())
      throw InputError(std::string("mapping ") + name + " on " + Exec::name() +
                       ": needs the FP64 matrix units of CUDA sm_80 or newer (use " + Hex8Pairs<Lower>::name +
                       ")");
    const Isotropic<double> md{double(m.lambda), double(m.mu)};
    const auto body = KOKKOS_LAMBDA(const Member& t) {
      const ordinal_t e = warp_element(t, begin, end);
      if (e < 0) return;
      double* const W = thread_scratch<double>(t, scratch);
      double* const X = W + x_at;
      double* const C = W + c_at;
      S* const Ks = reinterpret_cast<S*>(W + k_at);  // Ks[24 ri + rj], rows and columns in global node order
      int* const order = reinterpret_cast<int*>(W + ints_at);
      int* const rank = order + 8;
      Kokkos::parallel_for(ThreadVectorRange(t, 24), [&](int i) { X[i] = double(d.coords(e, i)); });
      node_order(t, d, e, order, rank);
      lanes::Private<double, 24> T;
      pair_products_mma(t, X, C, W + k_at, T);  // Jq in Ks' space, free until Ke is formed
      Kokkos::parallel_for(ThreadVectorRange(t, lanes::width), [&](int l) {
        const int ra = 3 * rank[l / 4];
        KFEM_UNROLL
        for (int j = 0; j < 2; ++j) {
          const int rb = 3 * rank[2 * (l % 4) + j];
          const auto p = [&](int c, int dd) -> double { return T(l, pair_product(c, dd, j)); };
          KFEM_UNROLL
          for (int k = 0; k < 9; ++k)
            Ks[24 * (ra + k / 3) + rb + k % 3] = S(elasticity::from_products(md, p, k / 3, k % 3));
        }
      });
      scatter_sorted(t, d, e, order, add.access(), Ks);
    };
    const std::size_t bytes = scratch * sizeof(double);
    Kokkos::parallel_for(Lower ? "kfem::assemble[sympairs-mma]" : "kfem::assemble[pairs-mma]",
                         warp_policy(exec, end - begin, elements_per_team, bytes), body);
  }
};
}  // namespace kfem::mapping
