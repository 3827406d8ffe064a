// Work mapping `twokernel` (kiran §4.4). Kernel 1: one warp per element writes J^{-1} and det J of
// all Gauss points to global memory. Kernel 2: one team of 576 threads per element, thread k owns
// Ke(k / 24, k % 24) (row-wise, so neighbouring threads hit neighbouring CSR slots).
#pragma once
#include <any>

#include "kfem/assembly/mapping/hex8_ppni.hpp"

namespace kfem::mapping {
struct Hex8TwoKernel {
  using layout = Kokkos::LayoutRight;
  static constexpr const char* name = "twokernel";
  static constexpr const char* help =
      "kernel 1 writes J^-1 and det J, kernel 2 runs a team of 576 threads per element (kiran)";
  int elements_per_team = 4;  // kernel 1 only

  template <class Exec, class Data, class Op, class Adder>
  void launch(const Exec& exec, const Data& d, const Op& op, ordinal_t begin, ordinal_t end,
              const Adder& add) const {
    using S = typename Data::scalar_type;
    const Isotropic<S> m = op.material;
    using Mem = typename Exec::memory_space;
    using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
    // Geometry buffer: 72 J^{-1} entries + 8 determinants per element, reused across launches.
    using Geom = Kokkos::View<S* [80], Kokkos::LayoutRight, Mem>;
    const Geom* held = std::any_cast<Geom>(&geometry_);
    if (!held || held->extent(0) < std::size_t(d.num_elements))
      geometry_ =
          Geom(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::twokernel_geometry"), d.num_elements);
    const Geom geom = std::any_cast<Geom>(geometry_);

    constexpr int scratch1 = padded(24 + 72 + 8);
    Kokkos::parallel_for(
        "kfem::assemble[twokernel:geometry]",
        warp_policy(exec, end - begin, elements_per_team, scratch1 * sizeof(S)),
        KOKKOS_LAMBDA(const Member& t) {
          const ordinal_t e = warp_element(t, begin, end);
          if (e < 0) return;
          S* X = thread_scratch<S>(t, scratch1);
          S* J = X + 24;
          S* D = J + 72;
          load_coords(t, d, e, X);
          all_qp_geometry<S>(t, X, J, D, [&](int q, int r, S v) { geom(e, 9 * q + r) = v; });
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, 8), [&](int q) { geom(e, 72 + q) = D[q]; });
        });

    constexpr int scratch2 = 8 * 8 * 3 + 8;
    const auto entries = KOKKOS_LAMBDA(const Member& t) {
      const ordinal_t e = begin + t.league_rank();
      S* G = static_cast<S*>(t.team_scratch(0).get_shmem(sizeof(S) * scratch2));
      S* W = G + 192;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 64), [&](int k) {  // k = 8q + a
        const int q = k / 8, a = k % 8;
        S Jinv[3][3];
        for (int r = 0; r < 9; ++r) Jinv[r / 3][r % 3] = geom(e, 9 * q + r);
        hex8::gradient<S>(Jinv, q, a, G + 3 * k);
        if (a == 0) W[q] = geom(e, 72 + q);
      });
      t.team_barrier();
      const auto acc = add.access();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 576), [&](int k) {
        const int i = k / 24, j = k % 24;
        S v = 0;
        for (int q = 0; q < hex8::num_qp; ++q)
          v += elasticity::entry(m, W[q], G + 3 * (8 * q + i / 3), G + 3 * (8 * q + j / 3), i % 3, j % 3);
        acc(d.slot(e, i, j), v);
      });
    };
    Kokkos::TeamPolicy<Exec> policy(exec, end - begin, Kokkos::AUTO);
    policy.set_scratch_size(0, Kokkos::PerTeam(scratch2 * sizeof(S)));
    const int team =
        lanes::in_turn<Exec> ? 1 : std::min(576, policy.team_size_max(entries, Kokkos::ParallelForTag()));
    Kokkos::TeamPolicy<Exec> fixed(exec, end - begin, team);
    Kokkos::parallel_for("kfem::assemble[twokernel:entries]",
                         fixed.set_scratch_size(0, Kokkos::PerTeam(scratch2 * sizeof(S))), entries);
  }

 private:
  mutable std::any geometry_;  // the geometry buffer of the last (scalar, memory space) used
};
}  // namespace kfem::mapping
