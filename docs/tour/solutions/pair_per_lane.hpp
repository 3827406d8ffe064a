// The tour's exercise, solved (docs/tour/10-your-mapping.md): work mapping `pair-per-lane`, every
// family. One team member (a warp on CUDA) per element and one vector lane per node pair (a, b):
// the lane integrates its block A_ab over the quadrature points, recomputing the geometry itself,
// so lanes share nothing, need no scratch and no barrier. It repeats the Jacobian n^2 times per
// point, which the `team` mapping computes once in scratch: measure both.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/assembly/lanes.hpp"
#include "kfem/assembly/target/block.hpp"
#include "kfem/core/types.hpp"
#include "kfem/fe/operator.hpp"

namespace kfem::tour {
// tour: pair-per-lane-kernel
template <class Member, class Elements, class Op, class Target, class Adder>
struct PairPerLaneKernel {
  using S = typename Elements::scalar_type;
  using F = typename Elements::family;
  static constexpr int D = F::dim, V = F::vertices, C = Op::components;
  Elements els;
  Op op;
  Target where;
  Adder add;
  ordinal_t begin, end;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& t) const {
    const ordinal_t e = begin + ordinal_t(t.league_rank()) * t.team_size() + t.team_rank();
    if (e >= end) return;
    S X[V * D];
    for (int i = 0; i < V * D; ++i) X[i] = els.coords(e, i);
    const int n = els.ref.num_nodes(), nq = els.ref.num_qp();
    const auto acc = add.access();
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, n * n), [&](int p) {
      const int a = p / n, b = p % n;
      fe::Products<S, D> A = {};
      for (int q = 0; q < nq; ++q) {
        S Jinv[D][D], ga[D], gb[D];
        const S wd = fe::geometry<F>(els.ref, X, q, Jinv);
        fe::gradient<F>(els.ref, Jinv, q, a, ga);
        fe::gradient<F>(els.ref, Jinv, q, b, gb);
        for (int i = 0; i < D; ++i)
          for (int j = 0; j < D; ++j) A.v[i][j] += wd * ga[i] * gb[j];
      }
      const auto blk = where(e, a, b);
      for (int c = 0; c < C; ++c)
        for (int d = 0; d < C; ++d) acc(blk(c, d), op(A, c, d));
    });
  }
};
// tour: end pair-per-lane-kernel

// tour: pair-per-lane-tag
struct PairPerLane {
  using layout = Kokkos::LayoutRight;  // a warp reads one element's coordinates together
  static constexpr const char* name = "pair-per-lane";
  static constexpr const char* help =
      "a warp per element, a lane per node pair, geometry recomputed per lane";
  static constexpr int elements_per_team = 4;

  template <class Exec, class In, class Op, class Adder>
  void launch(const Exec& exec, const In& in, const Op& op, ordinal_t begin, ordinal_t end,
              const Adder& add) const {
    using Policy = Kokkos::TeamPolicy<Exec>;
    using Kernel = PairPerLaneKernel<typename Policy::member_type, typename In::elements_type, Op,
                                     typename In::target_type, Adder>;
    if (end <= begin) return;
    // A warp of 32 lanes per element on a GPU; one element per team and one lane on a host thread.
    const int members = lanes::in_turn<Exec> ? 1 : elements_per_team;
    const int teams = int((end - begin + members - 1) / members);
    Kokkos::parallel_for("kfem::assemble[pair-per-lane]",
                         Policy(exec, teams, members, lanes::vector_length<Exec>()),
                         Kernel{in.els, op, in.where, add, begin, end});
  }
};
// tour: end pair-per-lane-tag
}  // namespace kfem::tour
