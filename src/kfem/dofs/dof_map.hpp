// Element -> global DOF-node map: which global shape function each local shape function of an
// element is. For order 1 (tri3, hex8, prism6, tet4) the DOF nodes are the mesh vertices themselves
// (natural numbering: DOF = components * vertex + component). For prisms and tetrahedra of order
// p >= 2 kfem numbers the P_p space on the linear mesh: vertices first (in mesh order), then edge, face
// and interior nodes; elements sharing an edge or face share its nodes whatever their orientation.
// Edges and faces are numbered in order of first appearance (element by element, local basix
// order), the nodes inside one in a canonical order fixed by its sorted global vertex ids, the
// interior nodes element by element: the same mesh always gives the same map.
#pragma once
#include <array>
#include <vector>

#include "kfem/core/types.hpp"
#include "kfem/mesh/mesh.hpp"

namespace kfem {
struct DofMap {
  int order = 1;
  int nodes_per_element = 0;             // N_sh
  ordinal_t num_nodes = 0;               // global DOF nodes
  std::vector<ordinal_t> element_nodes;  // num_elements x N_sh, local order = the element's shape functions
  std::vector<std::array<double, 3>> positions;  // physical position of every DOF node
  // How many DOF nodes sit on vertices, edges, faces and interiors (sum = num_nodes).
  std::array<ordinal_t, 4> per_entity_dim{};

  std::size_t num_elements() const {
    return nodes_per_element ? element_nodes.size() / std::size_t(nodes_per_element) : 0;
  }
  const ordinal_t* element(std::size_t e) const {
    return element_nodes.data() + e * std::size_t(nodes_per_element);
  }
};

// The mesh vertices as DOF nodes (any family, order 1).
DofMap vertex_dof_map(const Mesh& mesh);

// P_p on a prism6 or tet4 mesh, p = 1..7 (p = 1 gives vertex_dof_map). Throws InputError for another
// cell or order.
DofMap lagrange_dof_map(const Mesh& mesh, int order);
}  // namespace kfem
