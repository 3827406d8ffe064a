// Per-element inputs of the generic (any-family) kernels, gathered in launch order (colour by colour
// when coloured): vertex coordinates relative to vertex 0 (translation-invariant J, as for hex8, so
// float keeps its digits far from the origin), the element's global DOF nodes, and the family's
// reference tables.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/core/error.hpp"
#include "kfem/core/types.hpp"
#include "kfem/fe/family.hpp"
#include "kfem/fe/operator.hpp"

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
  // NOJAC mappings only: w det J and J^-1 (row-major) at every point, ne x nq x (1 + dim^2),
  // prepared on the host (prepare_host_jacobian) and sent to the device.
  Kokkos::View<S***, Kokkos::LayoutRight, MemorySpace> jacobian;
};

// What a generic element-centric mapping reads (its launch's `in`): the family's elements and the
// target that says where each Ke(i, j) goes.
template <class Elements, class Target>
struct FamilyInputs {
  using elements_type = Elements;
  using target_type = Target;
  using scalar_type = typename Elements::scalar_type;
  Elements els;
  Target where;
};
template <class Elements, class Target>
FamilyInputs<Elements, Target> family_inputs(const Elements& els, const Target& where) {
  return {els, where};
}

// coords: mesh nodes (x, y, z); conn: mesh vertices of every element; dofs: DOF nodes of every
// element (N_sh columns); order(k) = the element launched k-th.
namespace family_detail {
// Gathers coordinates (relative to vertex 0) and DOF nodes in launch order. A named functor, not a
// KOKKOS_LAMBDA: the pipelines instantiate it in several translation units (see core/fill.hpp).
template <class Family, class S, class Out, class Coords, class Conn, class Dofs, class Order>
struct Gather {
  Out out;
  Coords coords;
  Conn conn;
  Dofs dofs;
  Order order;
  int nsh;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t e) const {
    constexpr int V = Family::vertices, D = Family::dim;
    const ordinal_t src = order(e);
    const ordinal_t n0 = conn(src, 0);
    // tour: gather-vertices
    // A cell with fewer vertices than the family's V (a tetrahedron of fe::Lagrange: unused slots
    // are -1) repeats vertex 0 there: relative coordinates 0, against zero vertex functions.
    for (int v = 0; v < V; ++v) {
      const ordinal_t n = conn(src, v) < 0 ? n0 : conn(src, v);
      for (int k = 0; k < D; ++k) out.coords(e, v * D + k) = S(coords(n, k) - coords(n0, k));
    }
    // tour: end gather-vertices
    for (int a = 0; a < nsh; ++a) out.nodes(e, a) = dofs(src, a);
  }
};
}  // namespace family_detail

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
  d.coords =
      decltype(d.coords)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::family_coords"), ne, V * D);
  d.nodes = decltype(d.nodes)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::family_nodes"), ne, nsh);
  Kokkos::parallel_for("kfem::family_elements", Kokkos::RangePolicy<Exec>(exec, 0, ne),
                       family_detail::Gather<Family, S, decltype(d), Coords, Conn, Dofs, Order>{
                           d, coords, conn, dofs, order, nsh});
  return d;
}

// w det J and J^-1 (row-major) of one element at each of its points, in double (href: a host
// reference in double; X: vertex coordinates relative to vertex 0): put(q, i, value) for i < 1 + D^2.
// Returns the first point with det J <= 0, or -1.
template <class Family, class HostRef, class Put>
int host_jacobian_terms(const HostRef& href, const double* X, Put&& put) {
  constexpr int D = Family::dim;
  for (int q = 0; q < href.num_qp(); ++q) {
    double Jinv[D][D];
    const double wd = fe::geometry<Family>(href, X, q, Jinv);
    if (!(wd > 0)) return q;
    put(q, 0, wd);
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j) put(q, 1 + D * i + j, Jinv[i][j]);
  }
  return -1;
}

// banas' NOJAC input: the Jacobian terms of every element and point computed on the host (in double,
// from the coordinates as launched) and copied to the device. Throws InputError for det J <= 0.
template <class Exec, class Family, class S, class Layout, class Mem>
void prepare_host_jacobian(const Exec& exec, FamilyElements<Family, S, Layout, Mem>& els) {
  constexpr int D = Family::dim, V = Family::vertices, G = 1 + D * D;
  const int nq = els.ref.num_qp();
  const auto coords = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), els.coords);
  fe::Reference<Family, double, Kokkos::HostSpace> href;
  href.order = els.ref.order, href.nsh = els.ref.nsh, href.nq = els.ref.nq;
  href.weight = Kokkos::View<double*, Kokkos::HostSpace>("kfem::href_weight", els.ref.weight.extent(0));
  href.dgeo = decltype(href.dgeo)("kfem::href_dgeo", els.ref.dgeo.extent(0), els.ref.dgeo.extent(1),
                                  els.ref.dgeo.extent(2));
  {
    const auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), els.ref.weight);
    const auto g = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), els.ref.dgeo);
    for (std::size_t i = 0; i < w.extent(0); ++i) href.weight(i) = double(w(i));
    for (std::size_t i = 0; i < g.extent(0); ++i)
      for (std::size_t j = 0; j < g.extent(1); ++j)
        for (std::size_t k = 0; k < g.extent(2); ++k) href.dgeo(i, j, k) = double(g(i, j, k));
  }
  els.jacobian = decltype(els.jacobian)(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::host_jacobian"), els.num_elements, nq, G);
  auto h = Kokkos::create_mirror_view(els.jacobian);
  for (ordinal_t e = 0; e < els.num_elements; ++e) {
    double X[V * D];
    for (int i = 0; i < V * D; ++i) X[i] = double(coords(e, i));
    const int bad = host_jacobian_terms<Family>(href, X, [&](int q, int i, double v) { h(e, q, i) = S(v); });
    if (bad >= 0)
      throw InputError("element " + std::to_string(e) + ": det J <= 0 at quadrature point " +
                       std::to_string(bad));
  }
  Kokkos::deep_copy(exec, els.jacobian, h);
}
}  // namespace kfem
