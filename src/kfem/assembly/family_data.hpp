// Per-element inputs of the generic (any-family) kernels, gathered in launch order (colour by colour
// when coloured): vertex coordinates relative to vertex 0 (translation-invariant J, as for hex8, so
// float keeps its digits far from the origin), the element's global DOF nodes, and the family's
// reference tables.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/core/types.hpp"
#include "kfem/fe/family.hpp"

namespace kfem {
template <class Family, class S, class Layout, class MemorySpace>
struct FamilyElements {
  using family = Family;
  using scalar_type = S;
  using memory_space = MemorySpace;
  ordinal_t num_elements = 0;
  Kokkos::View<S**, Layout, MemorySpace> coords;         // ne x (vertices * dim)
  Kokkos::View<ordinal_t**, Layout, MemorySpace> nodes;  // ne x N_sh
  fe::Reference<Family, S, MemorySpace> ref;
};

// coords: mesh nodes (x, y, z); conn: mesh vertices of every element; dofs: DOF nodes of every
// element (N_sh columns); order(k) = the element launched k-th.
template <class Family, class S, class Layout, class Exec, class Coords, class Conn, class Dofs, class Order>
FamilyElements<Family, S, Layout, typename Exec::memory_space> make_family_elements(
    const Exec& exec, const Coords& coords, const Conn& conn, const Dofs& dofs, const Order& order,
    const fe::Reference<Family, S, typename Exec::memory_space>& ref) {
  using Mem = typename Exec::memory_space;
  constexpr int V = Family::vertices, D = Family::dim;
  const ordinal_t ne = static_cast<ordinal_t>(order.extent(0));
  const int nsh = static_cast<int>(dofs.extent(1));
  FamilyElements<Family, S, Layout, Mem> d;
  d.num_elements = ne;
  d.ref = ref;
  d.coords = decltype(d.coords)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::family_coords"), ne, V * D);
  d.nodes = decltype(d.nodes)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::family_nodes"), ne, nsh);
  const auto out = d;
  Kokkos::parallel_for("kfem::family_elements", Kokkos::RangePolicy<Exec>(exec, 0, ne), KOKKOS_LAMBDA(ordinal_t e) {
    const ordinal_t src = order(e);
    const ordinal_t n0 = conn(src, 0);
    for (int v = 0; v < V; ++v)
      for (int k = 0; k < D; ++k) out.coords(e, v * D + k) = S(coords(conn(src, v), k) - coords(n0, k));
    for (int a = 0; a < nsh; ++a) out.nodes(e, a) = dofs(src, a);
  });
  return d;
}
}  // namespace kfem
