// The one mesh type: linear cells of one family (the element family's geometry), held on the host.
// Cells have at most 8 vertices, so each is a fixed row of 8 ids (the unused tail is -1): hex8
// kernels index it with a compile-time 8 and every family shares one layout. Higher-order DOFs
// (prisms and tetrahedra of order p >= 2) are not mesh nodes: dofs/ numbers them on top of these
// vertices. Vertex order inside a cell follows Gmsh (= VTK for these four types):
//   tri3   counter-clockwise in the xy plane;
//   tet4   0-1-2 counter-clockwise seen from 3 (positive volume);
//   prism6 triangle 0-1-2 at the bottom, 3-4-5 above it (Gmsh/VTK wedge);
//   hex8   nodes 0-3 counter-clockwise on the face zeta = -1, nodes 4-7 above them.
#pragma once
#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "kfem/core/cell_type.hpp"
#include "kfem/core/types.hpp"

namespace kfem {
struct Mesh {
  CellType cell = CellType::hex8;
  std::vector<std::array<double, 3>> nodes;  // z = 0 for 2D meshes
  std::vector<std::array<ordinal_t, max_cell_vertices>> elements;
  // Named boundary node sets (Gmsh physical groups of dimension < the cells'), sorted, unique.
  std::map<std::string, std::vector<ordinal_t>> node_sets;
  // Named cell groups (physical groups of the cells' dimension): element ids, sorted.
  std::map<std::string, std::vector<ordinal_t>> cell_sets;

  int dimension() const { return cell_dimension(cell); }
  int nodes_per_element() const { return cell_vertices(cell); }
  std::size_t num_nodes() const { return nodes.size(); }
  std::size_t num_elements() const { return elements.size(); }
  // Vertex DOFs of the linear families: 3 per node (elasticity), kept for the hex8 pipeline.
  std::size_t num_dofs() const { return dofs_per_node * nodes.size(); }
};
}  // namespace kfem
