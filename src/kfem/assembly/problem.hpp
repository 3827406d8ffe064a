// Device-side inputs shared by every strategy: mesh arrays, DOF graph and (when asked) a colouring.
#pragma once
#include <Kokkos_Core.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "kfem/coloring/coloring.hpp"
#include "kfem/core/carve.hpp"
#include "kfem/core/staging.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/mesh/mesh.hpp"
#include "kfem/sparsity/dof_graph.hpp"
#include "kfem/sparsity/lower.hpp"

namespace kfem {
template <class MemorySpace>
struct DeviceMesh {
  CellType cell = CellType::hex8;
  ordinal_t num_nodes = 0;
  Kokkos::View<double* [3], Kokkos::LayoutRight, MemorySpace> coords;
  Kokkos::View<ordinal_t* [8], Kokkos::LayoutRight, MemorySpace> conn;
};

// The mesh's arrays in Mem, not yet filled; the uploads of its coordinates and connectivity fill them.
template <class Mem>
DeviceMesh<Mem> allocate_device_mesh(const Mesh& mesh) {
  DeviceMesh<Mem> d;
  d.cell = mesh.cell;
  d.num_nodes = static_cast<ordinal_t>(mesh.num_nodes());
  d.coords =
      decltype(d.coords)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::coords"), mesh.num_nodes());
  d.conn =
      decltype(d.conn)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::conn"), mesh.num_elements());
  return d;
}
template <class Mem>
HostUpload coords_upload(const DeviceMesh<Mem>& d, const Mesh& mesh) {
  return host_upload(d.coords, mesh.nodes.empty() ? nullptr : mesh.nodes.front().data(),
                     3 * mesh.num_nodes());
}
template <class Mem>
HostUpload conn_upload(const DeviceMesh<Mem>& d, const Mesh& mesh) {
  return host_upload(d.conn, mesh.elements.empty() ? nullptr : mesh.elements.front().data(),
                     std::size_t(max_cell_vertices) * mesh.num_elements());
}

template <class Exec>
DeviceMesh<typename Exec::memory_space> to_device(const Exec& exec, const Mesh& mesh) {
  auto d = allocate_device_mesh<typename Exec::memory_space>(mesh);
  upload(exec, {coords_upload(d, mesh), conn_upload(d, mesh)});
  return d;
}

// The mesh of d back on the host: coordinates and connectivity (no node or cell sets).
template <class MemorySpace>
Mesh to_host(const DeviceMesh<MemorySpace>& d) {
  const auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.coords);
  const auto he = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.conn);
  Mesh m;
  m.cell = d.cell;
  m.nodes.resize(hc.extent(0));
  m.elements.resize(he.extent(0));
  for (std::size_t n = 0; n < m.nodes.size(); ++n)
    for (int j = 0; j < 3; ++j) m.nodes[n][j] = hc(n, j);
  for (std::size_t e = 0; e < m.elements.size(); ++e)
    for (int a = 0; a < max_cell_vertices; ++a) m.elements[e][a] = he(e, a);
  return m;
}

namespace problem_detail {
// A named functor, not a KOKKOS_LAMBDA: many tests instantiate make_problem (scripts/check-kernel-lambdas).
template <class View>
struct Iota {
  View v;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t i) const { v(i) = i; }
};
}  // namespace problem_detail

// v(i) = i, queued on exec.
template <class Exec, class View>
void fill_iota(const Exec& exec, const View& v) {
  Kokkos::parallel_for("kfem::iota", Kokkos::RangePolicy<Exec>(exec, 0, v.extent(0)),
                       problem_detail::Iota<View>{v});
}

template <class Exec>
struct Problem {
  using memory_space = typename Exec::memory_space;
  DeviceMesh<memory_space> mesh;
  DofGraph<memory_space> graph;
  // Empty until a coloured strategy needs it. The kernels read its offsets (colour c's elements are
  // by_color(offsets[c] .. offsets[c + 1] - 1)); a colouring found on the device has no host copy
  // of its colours or order.
  Coloring coloring;
  Kokkos::View<ordinal_t*, memory_space> natural;   // 0..ne-1
  Kokkos::View<ordinal_t*, memory_space> by_color;  // the elements grouped by colour
  Kokkos::View<ordinal_t*, memory_space> colors;    // the colour of every element
  // Launch order of element-centric kernels without colouring, if set (set_launch_order: Morton);
  // else natural.
  Kokkos::View<ordinal_t*, memory_space> uncolored;
  CsrGraph<memory_space> lower;       // lower triangle of graph.dof, for symmetric mappings
  CsrGraph<memory_space> node_lower;  // lower triangle of graph.node, for lower block storage
  // DOF nodes of every element (N_sh columns; the vertices for order 1), for the generic kernels.
  Kokkos::View<ordinal_t**, Kokkos::LayoutRight, memory_space> dofs;
  // The DOF graph's workspace, when the set-up kept it for the element data (SetupChoice::spare_bytes).
  Spare<memory_space> spare;
  // The pattern of block storage: the node graph, or its lower triangle for lower block storage.
  const CsrGraph<memory_space>& block_pattern(bool lower_blocks) const {
    return lower_blocks ? node_lower : graph.node;
  }
  ordinal_t num_elements() const { return static_cast<ordinal_t>(mesh.conn.extent(0)); }
  ordinal_t num_dofs() const { return graph.dof.num_rows; }
  int components() const { return graph.components; }
};

// Mesh to device, DOF graph, natural order. The colouring is attached separately (set_coloring).
template <class Exec>
Problem<Exec> make_problem(const Exec& exec, const Mesh& mesh) {
  Problem<Exec> p;
  p.mesh = to_device(exec, mesh);
  p.graph = build_dof_graph(exec, p.mesh.conn, p.mesh.num_nodes);
  p.lower = lower_triangle(exec, p.graph.dof);
  p.natural =
      Kokkos::View<ordinal_t*, typename Exec::memory_space>("kfem::natural_order", mesh.num_elements());
  fill_iota(exec, p.natural);
  exec.fence();
  return p;
}

// Any family: the DOF map's element nodes to the device and the DOF graph with `components` DOFs per
// node (3 elasticity, 1 electrostatics). No lower triangle (only hex8's symmetric mappings use it).
template <class Exec>
Problem<Exec> make_family_problem(const Exec& exec, const Mesh& mesh, const DofMap& dm, int components) {
  using Mem = typename Exec::memory_space;
  Problem<Exec> p;
  p.mesh = to_device(exec, mesh);
  p.dofs = decltype(p.dofs)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::element_dofs"),
                            dm.num_elements(), dm.nodes_per_element);
  Kokkos::View<const ordinal_t**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> h(
      dm.element_nodes.data(), dm.num_elements(), dm.nodes_per_element);
  Kokkos::deep_copy(exec, p.dofs, h);
  p.graph = build_dof_graph(exec, p.dofs, dm.num_nodes, components);
  p.natural = Kokkos::View<ordinal_t*, Mem>("kfem::natural_order", mesh.num_elements());
  fill_iota(exec, p.natural);
  exec.fence();
  return p;
}

// A colouring's element order (colour by colour) on the device.
template <class Exec>
Kokkos::View<ordinal_t*, typename Exec::memory_space> device_order(const Exec& exec, const Coloring& c) {
  return to_device(exec, c.order, "kfem::color_order");
}

// The order in which uncoloured element-centric kernels take the elements, e.g. morton_order(mesh):
// where the elements sharing a node run close in time, the lines of its rows stay in cache
// between their atomic adds.
template <class Exec>
void set_launch_order(const Exec& exec, Problem<Exec>& p, const std::vector<ordinal_t>& order) {
  if (order.size() != std::size_t(p.num_elements()))
    throw std::invalid_argument("set_launch_order: " + std::to_string(order.size()) +
                                " elements for a mesh of " + std::to_string(p.num_elements()));
  p.uncolored = to_device(exec, order, "kfem::launch_order");
}

template <class Exec>
void set_coloring(const Exec& exec, Problem<Exec>& p, Coloring c) {
  p.coloring = std::move(c);
  p.by_color = device_order(exec, p.coloring);
  p.colors = to_device(exec, p.coloring.color, "kfem::colors");
}
}  // namespace kfem
