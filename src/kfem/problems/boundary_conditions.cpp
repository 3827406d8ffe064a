// Named node sets -> fixed DOFs and values.
#include "kfem/problems/boundary_conditions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "kfem/core/error.hpp"
#include "kfem/fe/lagrange_basis.hpp"
#include "kfem/mesh/node_sets.hpp"

namespace kfem {
std::vector<ordinal_t> dof_nodes_on(const Mesh& mesh, const DofMap& dofs,
                                    const std::vector<ordinal_t>& vertices) {
  std::vector<char> in_set(mesh.num_nodes(), 0);
  for (ordinal_t v : vertices) {
    if (v < 0 || std::size_t(v) >= mesh.num_nodes())
      throw InputError(
          fmt::format("dof_nodes_on: vertex {} out of range (mesh has {})", v, mesh.num_nodes()));
    in_set[v] = 1;
  }
  std::vector<ordinal_t> out;
  if (dofs.order == 1) {  // the DOF nodes are the vertices
    if (std::size_t(dofs.num_nodes) != mesh.num_nodes())
      throw InputError(fmt::format("dof_nodes_on: order-1 DOF map has {} nodes, the mesh {} vertices",
                                   dofs.num_nodes, mesh.num_nodes()));
    for (std::size_t v = 0; v < in_set.size(); ++v)
      if (in_set[v]) out.push_back(ordinal_t(v));
    return out;
  }
  if (!lagrange::has_basis(mesh.cell))
    throw InputError(
        fmt::format("dof_nodes_on: order {} DOF map on a {} mesh", dofs.order, cell_name(mesh.cell)));
  const lagrange::Basis& basis = lagrange::tabulate(mesh.cell, dofs.order);
  if (dofs.nodes_per_element != basis.nsh || dofs.num_elements() != mesh.num_elements())
    throw InputError(fmt::format(
        "dof_nodes_on: DOF map ({} nodes per element, {} elements) does not fit the "
        "order-{} {} mesh ({} elements)",
        dofs.nodes_per_element, dofs.num_elements(), dofs.order, cell_name(mesh.cell), mesh.num_elements()));
  const auto& edges = lagrange::edges(mesh.cell);
  const auto& faces = lagrange::faces(mesh.cell);
  std::vector<int> cell_vertices_local(std::size_t(basis.vertices));
  for (int v = 0; v < basis.vertices; ++v) cell_vertices_local[v] = v;
  std::vector<char> on(std::size_t(dofs.num_nodes), 0);
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) {
    const auto& el = mesh.elements[e];
    const ordinal_t* nodes = dofs.element(e);
    const auto all_in = [&](const auto& local) {
      return std::all_of(local.begin(), local.end(), [&](int k) { return in_set[el[k]] != 0; });
    };
    for (int a = 0; a < basis.nsh; ++a) {
      const int dim = basis.entity_dim[a], ent = basis.entity[a];
      const bool hit = dim == 0   ? in_set[el[ent]] != 0
                       : dim == 1 ? all_in(edges[ent])
                       : dim == 2 ? all_in(faces[ent])
                                  : all_in(cell_vertices_local);
      if (hit) on[nodes[a]] = 1;
    }
  }
  for (std::size_t n = 0; n < on.size(); ++n)
    if (on[n]) out.push_back(ordinal_t(n));
  return out;
}

FixedDofs fixed_dofs_by_name(const Mesh& mesh, const DofMap& dofs, int components,
                             const std::vector<DirichletCondition>& conditions, const std::string& source) {
  if (components != 1 && components != 3)
    throw InputError(
        fmt::format("{}: Dirichlet conditions need 1 or 3 components, not {}", source, components));
  // Dense per-DOF slots: later conditions overwrite, and a scan gives the sorted DOF list.
  std::vector<char> is_fixed(std::size_t(components) * std::size_t(dofs.num_nodes), 0);
  std::vector<double> value(is_fixed.size(), 0.0);
  for (const auto& c : conditions) {
    if (int(c.values.size()) != components)
      throw InputError(fmt::format("{}: Dirichlet value on '{}' has {} component(s), expected {}", source,
                                   c.name, c.values.size(), components));
    for (ordinal_t n : dof_nodes_on(mesh, dofs, named_node_set(mesh, c.name, source)))
      for (int k = 0; k < components; ++k) {
        const std::size_t d = std::size_t(components) * std::size_t(n) + std::size_t(k);
        is_fixed[d] = 1;
        value[d] = c.values[k];
      }
  }
  FixedDofs out;
  for (std::size_t d = 0; d < is_fixed.size(); ++d)
    if (is_fixed[d]) out.dofs.push_back(ordinal_t(d)), out.values.push_back(value[d]);
  return out;
}
}  // namespace kfem
