// The cantilever's tip deflection read off a solution on the device (problems/cantilever.hpp reads
// it off a host vector).
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>

#include "kfem/core/types.hpp"

namespace kfem {
namespace problems_detail {
// A named functor, not a KOKKOS_LAMBDA: several tests instantiate it (scripts/check-kernel-lambdas).
template <class U, class Nodes>
struct TipSum {
  U u;
  Nodes tip_nodes;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i, double& s) const {
    s += double(u(dofs_per_node * tip_nodes(i) + 2));
  }
};
}  // namespace problems_detail

// Mean u_z over the tip nodes, signed: negative for the cantilever, whose load points in -z.
// S may be const-qualified, so both View<double*> and View<const double*> are accepted.
template <class Exec, class S>
double tip_deflection(const Exec& exec, const Kokkos::View<S*, typename Exec::memory_space>& u,
                      const Kokkos::View<const ordinal_t*, typename Exec::memory_space>& tip_nodes) {
  const std::size_t count = tip_nodes.extent(0);
  if (count == 0) return 0.0;
  double sum = 0;
  using Mem = typename Exec::memory_space;
  Kokkos::parallel_reduce(
      "kfem::tip_deflection", Kokkos::RangePolicy<Exec>(exec, 0, count),
      problems_detail::TipSum<Kokkos::View<S*, Mem>, Kokkos::View<const ordinal_t*, Mem>>{u, tip_nodes}, sum);
  return sum / double(count);
}
}  // namespace kfem
