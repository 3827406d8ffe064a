// Work mapping `team` (generic, every family): one team per element, lanes over node-pair blocks.
// The team first computes the geometry of every quadrature point once (w det J and J^-1, 1 + dim^2
// values per point, in team scratch: 26.9 KB in double for a p = 7 prism's 336 points); then each
// lane owns node pairs (a, b), sums A_ab over the points from the shared geometry and the tabulated
// reference gradients, and adds its components x components block through the target.
#pragma once
#include <Kokkos_Core.hpp>
#include <string>

#include "kfem/assembly/lanes.hpp"
#include "kfem/assembly/target/block.hpp"
#include "kfem/core/error.hpp"
#include "kfem/core/types.hpp"
#include "kfem/fe/operator.hpp"

namespace kfem::mapping {
namespace detail {
// A named functor, not a KOKKOS_LAMBDA, for the reason thread_per_element.hpp gives.
template <class Member, class Elements, class Op, class Target, class Adder>
struct TeamKernel {
  using S = typename Elements::scalar_type;
  using F = typename Elements::family;
  static constexpr int D = F::dim, V = F::vertices, C = Op::components, G = 1 + D * D;
  Elements els;
  Op op;
  Target where;
  Adder add;
  ordinal_t begin;
  std::size_t scratch;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& t) const {
    const int n = els.ref.nsh, nq = els.ref.nq, pairs = n * n;
    const ordinal_t e = begin + t.league_rank();
    S* const W = static_cast<S*>(t.team_scratch(0).get_shmem(scratch));  // nq x (w det J, J^-1)
    S* const X = W + G * nq;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, V * D), [&](int i) { X[i] = els.coords(e, i); });
    t.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, nq), [&](int q) {
      S Jinv[D][D];
      W[G * q] = fe::geometry<F>(els.ref, X, q, Jinv);
      for (int i = 0; i < D; ++i)
        for (int j = 0; j < D; ++j) W[G * q + 1 + D * i + j] = Jinv[i][j];
    });
    t.team_barrier();
    const auto acc = add.access();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, pairs), [&](int p) {
      const int a = p / n, b = p % n;
      fe::Products<S, D> A = {};
      for (int q = 0; q < nq; ++q) {
        const S* w = W + G * q;
        S ga[D], gb[D];
        fe::gradient<F>(els.ref, reinterpret_cast<const S(*)[D]>(w + 1), q, a, ga);
        fe::gradient<F>(els.ref, reinterpret_cast<const S(*)[D]>(w + 1), q, b, gb);
        for (int i = 0; i < D; ++i)
          for (int j = 0; j < D; ++j) A.v[i][j] += w[0] * ga[i] * gb[j];
      }
      const auto blk = where(e, a, b);
      for (int c = 0; c < C; ++c)
        for (int d = 0; d < C; ++d) acc(blk(c, d), op(A, c, d));
    });
  }
};
}  // namespace detail

struct TeamPerElement {
  using layout = Kokkos::LayoutRight;  // a team reads one element's data at once
  static constexpr const char* name = "team";
  static constexpr const char* help =
      "a team per element: the geometry of every point once in scratch, lanes over node pairs";

  template <class Exec, class In, class Op, class Adder>
  void launch(const Exec& exec, const In& in, const Op& op, ordinal_t begin, ordinal_t end,
              const Adder& add) const {
    using Elements = typename In::elements_type;
    const Elements& els = in.els;
    using S = typename Elements::scalar_type;
    using F = typename Elements::family;
    using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
    constexpr int D = F::dim, V = F::vertices, G = 1 + D * D;
    const int n = els.ref.nsh, nq = els.ref.nq;
    const std::size_t scratch = sizeof(S) * (std::size_t(G) * nq + V * D);
    if (scratch > std::size_t(Kokkos::TeamPolicy<Exec>::scratch_size_max(0)))
      throw InputError("mapping team: " + std::to_string(scratch) +
                       " bytes of geometry per element exceed the team scratch");
    // Lanes over pairs: up to 256 threads on a GPU (a whole block for a p >= 2 prism), as many as
    // pairs for small elements; one thread per team on host backends.
    const int pairs = n * n;
    const int team = lanes::in_turn<Exec> ? 1 : (pairs >= 256 ? 256 : (pairs + 31) / 32 * 32);
    Kokkos::TeamPolicy<Exec> policy(exec, end - begin, team);
    Kokkos::parallel_for("kfem::assemble[team]", policy.set_scratch_size(0, Kokkos::PerTeam(scratch)),
                         detail::TeamKernel<Member, Elements, Op, typename In::target_type, Adder>{
                             els, op, in.where, add, begin, scratch});
  }
};
}  // namespace kfem::mapping
