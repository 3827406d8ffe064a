// Work mappings `ppni4` / `ppni8` (kiran §4.3): the warp first computes the geometry of all 8 Gauss
// points at once (72 Jacobian entries, 8 determinants, 72 inverse entries, all in scratch), then
// each lane sums its 18 entries over the Gauss points in registers and scatters them.
#pragma once
#include "kfem/assembly/mapping/hex8_warp_common.hpp"

namespace kfem::mapping {
// Geometry of all Gauss points from the 24 coordinates X: J (72, scratch), det D[8] and
// J^{-1} written through jinv(q, 3r+c, value). Shared with Hex8TwoKernel's first kernel.
template <class S, class Member, class JinvOut>
KOKKOS_INLINE_FUNCTION void all_qp_geometry(const Member& t, const S* X, S* J, S* D, JinvOut&& jinv) {
  using Kokkos::ThreadVectorRange;
  Kokkos::parallel_for(ThreadVectorRange(t, 72), [&](int k) { J[k] = hex8::qp_jacobian_entry(X, k); });
  Kokkos::parallel_for(ThreadVectorRange(t, 8), [&](int q) { D[q] = hex8::qp_determinant(J, q); });
  Kokkos::parallel_for(ThreadVectorRange(t, 72),
                       [&](int k) { jinv(k / 9, k % 9, hex8::qp_inverse_entry(J, D, k)); });
}

template <int ThreadsPerRow>
struct Hex8Ppni {
  using layout = Kokkos::LayoutRight;
  static constexpr const char* name = ThreadsPerRow == 4 ? "ppni4" : "ppni8";
  static constexpr const char* help =
      ThreadsPerRow == 4 ? "a warp per element, all Gauss points' geometry first, 4 threads per row (kiran)"
                         : "ppni4 with 8 threads per row";
  using E = LaneEntries<ThreadsPerRow>;
  int elements_per_team = 4;

  template <class Exec, class Data, class Op, class Adder>
  void launch(const Exec& exec, const Data& d, const Op& op, ordinal_t begin, ordinal_t end,
              const Adder& add) const {
    using S = typename Data::scalar_type;
    const Isotropic<S> m = op.material;
    using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
    constexpr int scratch = padded(24 + 72 + 72 + 8);
    Kokkos::parallel_for(
        "kfem::assemble[ppni]", warp_policy(exec, end - begin, elements_per_team, scratch * sizeof(S)),
        KOKKOS_LAMBDA(const Member& t) {
          const ordinal_t e = warp_element(t, begin, end);
          if (e < 0) return;
          S* X = thread_scratch<S>(t, scratch);
          S* J = X + 24;
          S* Jinv = J + 72;
          S* D = Jinv + 72;
          load_coords(t, d, e, X);
          all_qp_geometry<S>(t, X, J, D, [&](int q, int r, S v) { Jinv[9 * q + r] = v; });
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, lanes::width), [&](int l) {
            S K[entries_per_lane] = {};
            for (int q = 0; q < hex8::num_qp; ++q)
              accumulate_lane<E>(l, q, reinterpret_cast<const S(*)[3]>(Jinv + 9 * q), D[q], m,
                                 [&](int k) -> S& { return K[k]; });
            scatter_lane<E>(l, e, d, add.access(), [&](int k) { return K[k]; });
          });
        });
  }
};
}  // namespace kfem::mapping
