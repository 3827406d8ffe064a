// Element families, the first axis of kfem: what an element is. A family is a traits type (dimension,
// vertices of its geometry map, shape functions and quadrature points per element) plus its
// reference data, tabulated once on the host: quadrature weights, reference gradients of the
// vertex functions (the geometry map) and of the shape functions at every quadrature point.
// hex8 and tri3 have compile-time extents, so generic kernels' loops unroll for them; Lagrange P_p
// (p = 1..7) on prisms and tetrahedra knows its cell and extents at run time (N_sh = 4..288,
// N_Q = 1..336, tabulated by basix): one set of kernels for both cells.
#pragma once
#include <Kokkos_Core.hpp>
#include <string>
#include <vector>

#include "kfem/core/cell_type.hpp"

namespace kfem::fe {
inline constexpr int dynamic = -1;  // an extent known only at run time

struct Tri3 {
  static constexpr CellType cell = CellType::tri3;
  static constexpr int dim = 2, vertices = 3, nodes = 3, qp = 1;
  static constexpr const char* name = "tri3";
};
struct Hex8 {
  static constexpr CellType cell = CellType::hex8;
  static constexpr int dim = 3, vertices = 8, nodes = 8, qp = 8;
  static constexpr const char* name = "hex8";
};
// tour: lagrange-family
// Order p = 1..7 on a mesh of linear prisms (prism6) or tetrahedra (tet4: tet4 is p = 1, tet10 p = 2).
// `vertices` is the prism's 6: a tetrahedron's reference tables carry two more vertex functions, zero
// everywhere, and its elements two more vertices at its vertex 0, so the geometry step needs no
// branch on the cell.
struct Lagrange {
  static constexpr int dim = 3, vertices = 6, nodes = dynamic, qp = dynamic;
  static constexpr const char* name = "prism/tet";
};
// tour: end lagrange-family

// Reference data on the host, in double: the family's one tabulation.
struct HostReference {
  int order = 1, nsh = 0, nq = 0, dim = 0, vertices = 0;
  std::vector<double> weight;  // nq
  std::vector<double> dgeo;    // nq x vertices x dim
  std::vector<double> dshape;  // nq x nsh x dim
};
HostReference host_reference(Tri3);  // one point at the centroid (gradients are constant)
HostReference host_reference(Hex8);  // 2x2x2 Gauss-Legendre, isoparametric
// basix: P_p on prism6 (triangle rule 2p x Gauss-Legendre p+1) or tet4 (rule of degree 2(p-1)),
// vertices = Lagrange::vertices (a tetrahedron's last two vertex functions zero).
HostReference host_reference(Lagrange, CellType cell, int order);

// The same data on the device in scalar S, read by the generic kernels.
template <class Family, class S, class MemorySpace>
struct Reference {
  using family = Family;
  int order = 1, nsh = 0, nq = 0;
  Kokkos::View<S*, MemorySpace> weight;
  Kokkos::View<S***, Kokkos::LayoutRight, MemorySpace> dgeo;
  Kokkos::View<S***, Kokkos::LayoutRight, MemorySpace> dshape;

  KOKKOS_INLINE_FUNCTION int num_nodes() const {
    if constexpr (Family::nodes != dynamic)
      return Family::nodes;
    else
      return nsh;
  }
  KOKKOS_INLINE_FUNCTION int num_qp() const {
    if constexpr (Family::qp != dynamic)
      return Family::qp;
    else
      return nq;
  }
};

template <class Family, class S, class Exec>
Reference<Family, S, typename Exec::memory_space> to_device(const Exec& exec, const HostReference& h) {
  using Mem = typename Exec::memory_space;
  Reference<Family, S, Mem> r;
  r.order = h.order, r.nsh = h.nsh, r.nq = h.nq;
  // Not initialised: every entry is copied below, and Kokkos' initialisation would add a kernel and
  // a wait on the default instance per table.
  const auto alloc = [](const char* label) {
    return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label));
  };
  r.weight = Kokkos::View<S*, Mem>(alloc("kfem::ref_weight"), h.nq);
  r.dgeo = decltype(r.dgeo)(alloc("kfem::ref_dgeo"), h.nq, h.vertices, h.dim);
  r.dshape = decltype(r.dshape)(alloc("kfem::ref_dshape"), h.nq, h.nsh, h.dim);
  auto w = Kokkos::create_mirror_view(r.weight);
  auto g = Kokkos::create_mirror_view(r.dgeo);
  auto d = Kokkos::create_mirror_view(r.dshape);
  for (int q = 0; q < h.nq; ++q) {
    w(q) = S(h.weight[q]);
    for (int v = 0; v < h.vertices; ++v)
      for (int k = 0; k < h.dim; ++k) g(q, v, k) = S(h.dgeo[(q * h.vertices + v) * h.dim + k]);
    for (int a = 0; a < h.nsh; ++a)
      for (int k = 0; k < h.dim; ++k) d(q, a, k) = S(h.dshape[(q * h.nsh + a) * h.dim + k]);
  }
  Kokkos::deep_copy(exec, r.weight, w);
  Kokkos::deep_copy(exec, r.dgeo, g);
  Kokkos::deep_copy(exec, r.dshape, d);
  exec.fence();
  return r;
}

// The family of a mesh's cells, as a tag type (the registry's FamilyRegistry).
template <class F>
void with_family(CellType cell, F&& f) {
  switch (cell) {
    case CellType::tri3:
      return f(fe::Tri3{});
    case CellType::hex8:
      return f(fe::Hex8{});
    case CellType::prism6:
    case CellType::tet4:
      return f(fe::Lagrange{});
  }
}
}  // namespace kfem::fe
