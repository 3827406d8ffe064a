// An unstructured mesh of 8-node hexahedra, held on the host. Node order inside an element
// follows Gmsh/VTK: nodes 0-3 counter-clockwise on the face zeta = -1, nodes 4-7 above them.
#pragma once
#include <array>
#include <cstddef>
#include <vector>

#include "kfem/core/types.hpp"

namespace kfem {
struct HexMesh {
  std::vector<std::array<double, 3>> nodes;
  std::vector<std::array<ordinal_t, 8>> elements;

  std::size_t num_nodes() const { return nodes.size(); }
  std::size_t num_elements() const { return elements.size(); }
  std::size_t num_dofs() const { return dofs_per_node * nodes.size(); }
};
}  // namespace kfem
