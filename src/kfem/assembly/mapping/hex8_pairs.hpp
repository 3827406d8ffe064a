// Work mappings `pairs` / `sympairs` (kfem's own, beyond the papers): one element per warp, Ke
// computed as node-pair blocks so that its symmetry halves the work with no idle half-warps.
//  - Geometry is shared out first: 21 monomial coefficients of the map (one per lane), then 4 lanes
//    per Gauss point each invert J and write the gradients of 2 nodes to warp scratch.
//  - Lane p < 28 owns one off-diagonal block (a, b), a > b, and sums over the Gauss points only
//    the 9 products A(c,d) = sum_q w detJ g_a[c] g_b[d]; the block is from_products(A) at the end.
//  - The 8 diagonal blocks follow from the others, because rigid translations are in Ke's null
//    space at every Gauss point (sum_b g_b = 0): Ke_aa = -sum_{b != a} Ke_ab.
//  - Ke is kept in scratch with rows and columns in global node order and scattered row by row
//    (scatter_sorted): the measured bound of these fused kernels is the scatter, not the FLOPs.
// `pairs` writes the full CSR; `sympairs` the lower triangle into lower-triangular storage
// (sanfui's 300 entries computed by 32 threads instead of 300).
#pragma once
#include <type_traits>

#include "kfem/assembly/mapping/hex8_warp_common.hpp"

namespace kfem::mapping {
// Pair p < 28 = (a, b), a > b, in row-major order of the strictly lower triangle of node pairs.
// a - 1 counts the row starts 1, 3, 6, 10, 15, 21 at or below p: six compares, fewer instructions
// than lower_entry's square root.
KOKKOS_INLINE_FUNCTION void pair_nodes(int p, int& a, int& b) {
  a = 1 + (p >= 1) + (p >= 3) + (p >= 6) + (p >= 10) + (p >= 15) + (p >= 21);
  b = p - a * (a - 1) / 2;
}
struct PairNodes {
  KOKKOS_INLINE_FUNCTION void operator()(int p, int& a, int& b) const { pair_nodes(p, a, b); }
};

// The coefficients C[Stride m + j] = hex8::monomial_coefficient(X, m, j) of one element's map,
// m = 0..7, j = 0..2, by the 32 lanes of a team member. On a GPU as the transform's butterfly: lane
// 8j + m loads coordinate j of the node at corner m, and three exchanges across lane bits turn corner
// bit i into monomial bit i (sum and difference of the pair). One load, 3 shuffles and 3 adds a lane,
// where 8 signed loads and adds with run-time signs cost many times the instructions.
template <int Stride = 3, class Member, class Coords, class S>
KOKKOS_INLINE_FUNCTION void monomial_coefficients(const Member& t, const Coords& X, S* C) {
  using Kokkos::ThreadVectorRange;
  if constexpr (lanes::native()) {
    Kokkos::parallel_for(ThreadVectorRange(t, lanes::width), [&](int l) {
      const int j = l / 8, m = l % 8;  // lanes 24..31 add zeros
      S v = j < 3 ? S(X[3 * hex8::node_at_corner(m) + j]) : S(0);
      KFEM_UNROLL
      for (int i = 0; i < 3; ++i) {
        const S u = lanes::exchange(v, 1 << i);
        v = (m >> i) & 1 ? v - u : v + u;
      }
      if (j < 3) C[Stride * m + j] = S(0.125) * v;
    });
  } else {
    Kokkos::parallel_for(ThreadVectorRange(t, 24), [&](int k) {
      C[Stride * (k / 3) + k % 3] = hex8::monomial_coefficient<S>(X, k / 3, k % 3);
    });
  }
}

// Warp scratch of pair_products, in records that one wide load moves (W 16-byte aligned, as
// thread_scratch gives it): monomial m's coefficients (x, y, z, -) at C + 4m, and per Gauss point q
// and node a, at i = at(q, a), the weighted gradient with one plain component P[i] = (w detJ g_a,
// g_a[0]) and the other two Q[i] = (g_a[1], g_a[2]). A pair lane then reads H_a and G_b of a Gauss
// point in three loads where it took six, and J's 21 coefficients in seven.
template <class S>
struct PairScratch {
  static constexpr int c_at = 0, p_at = 32, q_at = p_at + 4 * 64, words = q_at + 2 * 64;
  static KOKKOS_INLINE_FUNCTION constexpr int at(int q, int a) { return 8 * q + a; }
  S* w;
  KOKKOS_INLINE_FUNCTION S* C() const { return w + c_at; }
  KOKKOS_INLINE_FUNCTION lanes::Packed<S, 4>* P() const {
    return reinterpret_cast<lanes::Packed<S, 4>*>(w + p_at);
  }
  KOKKOS_INLINE_FUNCTION lanes::Packed<S, 2>* Q() const {
    return reinterpret_cast<lanes::Packed<S, 2>*>(w + q_at);
  }
};

// Pairs' geometry and node-pair products in S (W: PairScratch's words of warp scratch). Geometry
// is shared out first: the monomial coefficients of the map, then 4 lanes per Gauss point q each
// invert J and write the gradients g = dN_a/dx of 2 nodes and their weighted form h = w detJ g. On
// return lane p < 28 holds pair p's nine products A(p, 3c + d) = sum_q h_a[c] g_b[d], and has run
// then(p, a, b) on them in the same lane loop (Loop: its form, lanes::VectorLoop or lanes::OnePass).
// X[3a + j]: a pointer to the coordinates or an accessor; nodes(p, a, b): pair_nodes, or a caller's
// table of them.
template <class Loop = lanes::VectorLoop, class Member, class Coords, class S, class Then,
          class Nodes = PairNodes>
KOKKOS_INLINE_FUNCTION void pair_products(const Member& t, const Coords& X, S* W, lanes::Private<S, 9>& A,
                                          const Then& then, const Nodes& nodes = Nodes{}) {
  using Kokkos::ThreadVectorRange;
  using P4 = lanes::Packed<S, 4>;
  using P2 = lanes::Packed<S, 2>;
  const PairScratch<S> ws{W};
  P4* const P = ws.P();
  P2* const Q = ws.Q();
  monomial_coefficients<4>(t, X, ws.C());
  // Lane l: Gauss point q = l / 4 and nodes l % 4 and l % 4 + 4, in an order that gives the 8 lanes of
  // each 128-bit store phase 8 different nodes, so 8 bank groups. With q = l % 8 all 8 would meet one
  // bank group (8-way conflicts): wide stores save instructions, not bank wavefronts.
  Kokkos::parallel_for(ThreadVectorRange(t, lanes::width), [&](int l) {
    const int q = l / 4;
    S c[24], J[3][3], adj[3][3];
    KFEM_UNROLL
    for (int m = 1; m < 8; ++m) {
      const P4 r = reinterpret_cast<const P4*>(ws.C())[m];
      KFEM_UNROLL
      for (int j = 0; j < 3; ++j) c[3 * m + j] = r.v[j];
    }
    hex8::jacobian_from_monomials(c, q, J);
    // h = w detJ J^-1 dN/dxi is adj(J) dN/dxi (Gauss weights are 1), and g = h / detJ: 9 multiplies
    // fewer a lane than scaling J^-1 and then h.
    const S s = S(1) / hex8::adjugate3(J, adj);
    KFEM_UNROLL
    for (int k = 0; k < 2; ++k) {
      const int a = (l % 4) | (((q & 1) ^ k) << 2);
      S h[3];
      hex8::gradient<S>(adj, q, a, h);
      P[ws.at(q, a)] = P4{{h[0], h[1], h[2], s * h[0]}};
      Q[ws.at(q, a)] = P2{{s * h[1], s * h[2]}};
    }
  });
  // tour: node-pair-products
  Loop::run(t, 28, [&](int p) {
    int a, b;
    nodes(p, a, b);
    KFEM_UNROLL
    for (int k = 0; k < 9; ++k) A(p, k) = 0;
    // Unrolled, the loads' offsets are constants (nvcc unrolled it by 2, with the address arithmetic).
    KFEM_UNROLL
    for (int q = 0; q < hex8::num_qp; ++q) {
      const P4 h = P[ws.at(q, a)], gx = P[ws.at(q, b)];
      const P2 gyz = Q[ws.at(q, b)];
      const S g[3] = {gx.v[3], gyz.v[0], gyz.v[1]};
      KFEM_UNROLL
      for (int k = 0; k < 9; ++k) A(p, k) += h.v[k / 3] * g[k % 3];
    }
    then(p, a, b);
  });
  // tour: end node-pair-products
}

template <class Loop = lanes::VectorLoop, class Member, class S>
KOKKOS_INLINE_FUNCTION void pair_products(const Member& t, const S* X, S* W, lanes::Private<S, 9>& A) {
  pair_products<Loop>(t, X, W, A, [](int, int, int) {});  // the products only
}

template <bool Lower>
struct Hex8Pairs {
  using layout = Kokkos::LayoutRight;
  static constexpr const char* name = Lower ? "sympairs" : "pairs";
  static constexpr const char* help = Lower ? "lower triangle: pairs' math, lower-triangular storage"
                                            : "a warp per element, Ke as node-pair blocks";
  static constexpr bool lower = Lower;
  static constexpr bool lower_blocks = Lower;  // sympairs writes bsr-lower too
  int elements_per_team = 4;

  // Scratch per warp, in scalars. The sorted Ke (576) reuses the space of the earlier phases:
  // pair_products' (PairScratch) and X (24). Then 16 ints: node order and rank.
  static constexpr int x_at = PairScratch<float>::words, ints_at = 576;
  static_assert(x_at + 24 <= ints_at);
  static constexpr int scratch = padded(ints_at + 16);

  // The kernel: one warp (team member) per element. A named functor, not a KOKKOS_LAMBDA: the library
  // and the tests instantiate it (scripts/check-kernel-lambdas).
  template <class Exec, class Data, class Adder>
  struct Kernel {
    using S = typename Data::scalar_type;
    using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
    Data d;
    Isotropic<S> m;
    Adder add;
    ordinal_t begin, end;
    KOKKOS_INLINE_FUNCTION void operator()(const Member& t) const {
      using Kokkos::ThreadVectorRange;
      const ordinal_t e = warp_element(t, begin, end);
      if (e < 0) return;
      S* const W = thread_scratch<S>(t, scratch);
      S* const X = W + x_at;
      S* const Ks = W;  // Ks[24 ri + rj], rows and columns in global node order
      int* const order = reinterpret_cast<int*>(W + ints_at);
      int* const rank = order + 8;
      load_coords(t, d, e, X);
      node_order(t, d, e, order, rank);
      lanes::Private<S, 9> A;
      // pairs' product loop in one pass, where it costs no warps (fewer registers, a team per SM
      // more); sympairs keeps Kokkos' loop, where one pass would cost it a team per SM.
      pair_products<std::conditional_t<Lower, lanes::VectorLoop, lanes::OnePass>>(t, X, W, A);
      // tour: pairs-blocks
      Kokkos::parallel_for(ThreadVectorRange(t, 28), [&](int p) {  // the geometry is dead: Ks overwrites it
        int a, b;
        pair_nodes(p, a, b);
        const int ra = 3 * rank[a], rb = 3 * rank[b];
        for (int k = 0; k < 9; ++k) {
          const S v = elasticity::from_products(
              m, [&](int i, int j) { return A(p, 3 * i + j); }, k / 3, k % 3);
          Ks[24 * (ra + k / 3) + rb + k % 3] = Ks[24 * (rb + k % 3) + ra + k / 3] = v;
        }
      });
      Kokkos::parallel_for(ThreadVectorRange(t, 48), [&](int k) {  // 6 distinct entries per node, c >= d
        const int r = k / 6;  // sorted node: its diagonal block is the same in either order
        int c, dd;
        lower_entry(k % 6, c, dd);
        S v = 0;
        for (int rb = 0; rb < 8; ++rb)
          if (rb != r) v -= Ks[24 * (3 * r + c) + 3 * rb + dd];
        Ks[24 * (3 * r + c) + 3 * r + dd] = Ks[24 * (3 * r + dd) + 3 * r + c] = v;
      });
      // tour: end pairs-blocks
      scatter_sorted(t, d, e, order, add.access(), Ks);
    }
  };

  template <class Exec, class Data, class Op, class Adder>
  void launch(const Exec& exec, const Data& d, const Op& op, ordinal_t begin, ordinal_t end,
              const Adder& add) const {
    using S = typename Data::scalar_type;
    const Kernel<Exec, Data, Adder> body{d, op.material, add, begin, end};
    const char* name = "kfem::assemble[pairs]";
    const std::size_t bytes = scratch * sizeof(S);
    // Under colouring nvcc gives this kernel so many registers per thread that warps go idle; the
    // cap (6 teams of 128 threads per SM) pays with plain adds. The atomic scatter keeps more adds in
    // flight and loses under the cap, so only plain adds get it.
    constexpr int capped_team = 128;
    if constexpr (plain_adds<Adder>::value && !lanes::in_turn<Exec>) {
      if (elements_per_team * lanes::width == capped_team) {
        using Capped = Kokkos::LaunchBounds<capped_team, 6>;
        Kokkos::parallel_for(name, warp_policy<Exec, Capped>(exec, end - begin, elements_per_team, bytes),
                             body);
        return;
      }
    }
    Kokkos::parallel_for(name, warp_policy(exec, end - begin, elements_per_team, bytes), body);
  }
};
}  // namespace kfem::mapping
