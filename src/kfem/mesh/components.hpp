// Connected components ("bodies") of a mesh: two elements belong to one body when they share a
// vertex. A body without a Dirichlet condition has a singular stiffness (or Laplace) matrix.
#pragma once
#include <vector>

#include "kfem/mesh/mesh.hpp"

namespace kfem {
struct MeshComponents {
  ordinal_t count = 0;
  // Body of each element, numbered in order of their first element (element 0 is in body 0).
  std::vector<ordinal_t> of_element;
  // Body of each vertex; -1 for a vertex no element uses.
  std::vector<ordinal_t> of_node;
};

// Union-find over the vertices, near-linear in the size of the connectivity. Expects in-range
// node ids (check_elements).
MeshComponents mesh_components(const Mesh&);
}  // namespace kfem
