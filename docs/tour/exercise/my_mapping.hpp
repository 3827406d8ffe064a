// The tour's exercise (docs/tour/10-your-mapping.md): your own work mapping. It builds and runs as
// it is, but assembles nothing: fill in the kernel's body. Then check it against the oracle on every
// backend (`ctest -R tour`), and register it (one line in src/kfem/assembly/strategies.hpp) to run
// it from the command line. A solution: docs/tour/solutions/pair_per_lane.hpp.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/assembly/lanes.hpp"
#include "kfem/assembly/target/block.hpp"
#include "kfem/core/types.hpp"
#include "kfem/fe/operator.hpp"

namespace kfem::tour {
// One team member per element (a warp on CUDA: 32 vector lanes; on OpenMP the lanes run in turn).
template <class Member, class Elements, class Op, class Target, class Adder>
struct MyKernel {
  using S = typename Elements::scalar_type;
  using F = typename Elements::family;
  static constexpr int D = F::dim, V = F::vertices, C = Op::components;
  Elements els;  // els.coords(e, i): vertex coordinates relative to vertex 0; els.ref: the family's tables
  Op op;         // op(A, c, d): entry (c, d) of the block of a node pair from its products A
  Target where;  // where(e, a, b)(c, d): the key of Ke's entry (C a + c, C b + d)
  Adder add;     // add.access()(key, value): adds value there, safely for the race handling chosen
  ordinal_t begin, end;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& t) const {
    const ordinal_t e = begin + ordinal_t(t.league_rank()) * t.team_size() + t.team_rank();
    if (e >= end) return;
    // Your code. For every node pair (a, b) of the element (n = els.ref.num_nodes() nodes, nq =
    // els.ref.num_qp() points), sum A.v[i][j] += w det J * g_a[i] * g_b[j] over the points
    // (fe::geometry<F> gives w det J and J^-1, fe::gradient<F> the g's), then hand each of the
    // block's C x C entries to the adder exactly once. Spread the pairs over the lanes with
    // Kokkos::ThreadVectorRange(t, ...).
    (void)t;
  }
};

struct MyMapping {
  using layout = Kokkos::LayoutRight;
  static constexpr const char* name = "my-mapping";
  static constexpr const char* help = "the tour's exercise";
  static constexpr int elements_per_team = 4;

  template <class Exec, class In, class Op, class Adder>
  void launch(const Exec& exec, const In& in, const Op& op, ordinal_t begin, ordinal_t end,
              const Adder& add) const {
    using Policy = Kokkos::TeamPolicy<Exec>;
    using Kernel = MyKernel<typename Policy::member_type, typename In::elements_type, Op,
                            typename In::target_type, Adder>;
    if (end <= begin) return;
    // A warp of 32 lanes per element on a GPU; one element per team and one lane on a host thread.
    const int members = lanes::in_turn<Exec> ? 1 : elements_per_team;
    const int teams = int((end - begin + members - 1) / members);
    Kokkos::parallel_for("kfem::assemble[my-mapping]",
                         Policy(exec, teams, members, lanes::vector_length<Exec>()),
                         Kernel{in.els, op, in.where, add, begin, end});
  }
};
}  // namespace kfem::tour
