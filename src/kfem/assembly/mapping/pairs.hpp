// Work mappings `pairs` / `sympairs` (kfem's own, beyond the papers): one element per warp, Ke
// computed as node-pair blocks so that its symmetry halves the work with no idle half-warps.
//  - Geometry is shared out first: 21 monomial coefficients of the map (one per lane), then 4 lanes
//    per Gauss point each invert J and write the gradients of 2 nodes to warp scratch.
//  - Lane p < 28 owns one off-diagonal block (a, b), a > b, and sums over the Gauss points only
//    the 9 products A(c,d) = sum_q w detJ g_a[c] g_b[d]; the block is from_products(A) at the end.
//  - The 8 diagonal blocks follow from the others, because rigid translations are in Ke's null
//    space at every Gauss point (sum_b g_b = 0): Ke_aa = -sum_{b != a} Ke_ab.
//  - The blocks stay in scratch and the warp scatters them in the global order of the element's
//    nodes (scatter_in_node_order): the measured bound of the fused kernels is the scatter.
// `pairs` writes the full CSR; `sympairs` the lower triangle into lower-triangular storage
// (sanfui's 300 entries computed by 32 threads instead of 300).
#pragma once
#include "kfem/assembly/mapping/warp_common.hpp"

namespace kfem::mapping {
template <bool Lower>
struct Pairs {
  using layout = Kokkos::LayoutRight;
  static constexpr bool lower = Lower;
  int elements_per_team = 4;

  // Scratch per warp: X (24), monomial coefficients C (24, c_0 unused), gradients G and w detJ * G
  // (8 points x 8 nodes x 3 each), off-diagonal blocks (28 x 9), diagonal blocks (8 x 9), node order.
  static constexpr int c_at = 24, g_at = 48, h_at = 240, k_at = 432, d_at = 684, o_at = 756;
  static constexpr int scratch = padded(o_at + 8);

  KOKKOS_INLINE_FUNCTION static int pair(int a, int b) { return a * (a - 1) / 2 + b; }  // a > b

  template <class Exec, class Data, class Adder>
  void launch(const Exec& exec, const Data& d, const Isotropic<typename Data::scalar_type>& m, ordinal_t begin,
              ordinal_t end, const Adder& add) const {
    using S = typename Data::scalar_type;
    using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
    using Kokkos::ThreadVectorRange;
    const int ept = lanes::on_host<Exec> ? 1 : elements_per_team;
    Kokkos::parallel_for("kfem::assemble[pairs]", warp_policy(exec, end - begin, ept, scratch * sizeof(S)),
                         KOKKOS_LAMBDA(const Member& t) {
      const ordinal_t e = warp_element(t, begin, end, ept);
      if (e < 0) return;
      S* const W = thread_scratch<S>(t, scratch);
      S* const C = W + c_at;
      S* const G = W + g_at;  // G[3 (8q + a) + j] = d N_a / d x_j at Gauss point q
      S* const H = W + h_at;  // the same times w detJ(q)
      S* const K = W + k_at;  // K[9 pair(a,b) + 3c + d] = Ke(3a+c, 3b+d), a > b
      S* const D = W + d_at;  // D[9a + 3c + d] = Ke(3a+c, 3a+d)
      int* const order = reinterpret_cast<int*>(W + o_at);
      load_coords(t, d, e, W);
      node_order(t, d, e, order);
      Kokkos::parallel_for(ThreadVectorRange(t, 24), [&](int k) { C[k] = hex8::monomial_coefficient<S>(W, k / 3, k % 3); });
      Kokkos::parallel_for(ThreadVectorRange(t, lanes::width), [&](int l) {
        const int q = l % 8;
        S J[3][3], Jinv[3][3];
        hex8::jacobian_from_monomials(C, q, J);
        const S det = hex8::invert3(J, Jinv);  // Gauss weights are 1
        for (int a = 2 * (l / 8); a < 2 * (l / 8) + 2; ++a) {
          S* g = G + 3 * (8 * q + a);
          hex8::gradient<S>(Jinv, q, a, g);
          for (int j = 0; j < 3; ++j) H[3 * (8 * q + a) + j] = det * g[j];
        }
      });
      Kokkos::parallel_for(ThreadVectorRange(t, 28), [&](int p) {
        int a, b;
        lower_entry(p, a, b);
        ++a;  // strictly lower: rows 1..7
        S A[3][3] = {};
        for (int q = 0; q < hex8::num_qp; ++q) {
          const S* h = H + 3 * (8 * q + a);
          const S* g = G + 3 * (8 * q + b);
          for (int c = 0; c < 3; ++c)
            for (int dd = 0; dd < 3; ++dd) A[c][dd] += h[c] * g[dd];
        }
        for (int k = 0; k < 9; ++k)
          K[9 * p + k] = elasticity::from_products(m, [&](int i, int j) { return A[i][j]; }, k / 3, k % 3);
      });
      Kokkos::parallel_for(ThreadVectorRange(t, 48), [&](int k) {  // 6 distinct entries per node, c >= d
        const int a = k / 6;
        int c, dd;
        lower_entry(k % 6, c, dd);
        S v = 0;
        for (int b = 0; b < 8; ++b) {
          if (b < a) v -= K[9 * pair(a, b) + 3 * c + dd];
          if (b > a) v -= K[9 * pair(b, a) + 3 * dd + c];  // Ke_ab = Ke_ba^T
        }
        D[9 * a + 3 * c + dd] = D[9 * a + 3 * dd + c] = v;
      });
      scatter_in_node_order(t, d, e, order, add.access(), [&](int i, int j) {
        const int a = i / 3, b = j / 3;
        if (a > b) return K[9 * pair(a, b) + 3 * (i % 3) + j % 3];
        if (a < b) return K[9 * pair(b, a) + 3 * (j % 3) + i % 3];
        return D[9 * a + 3 * (i % 3) + j % 3];
      });
    });
  }
};
}  // namespace kfem::mapping
