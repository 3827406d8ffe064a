// Looking up a mesh's named node sets (Gmsh physical groups of the boundary, or a box's faces).
#pragma once
#include <string>
#include <vector>

#include "kfem/mesh/mesh.hpp"

namespace kfem {
// The node set `name` (sorted node ids). Throws InputError
//   "<source>: no physical group named 'x' in the mesh (known: a, b, c)" when there is none (a cell
//   group of that name is pointed out: it holds elements, not boundary nodes), or
//   "<source>: physical group 'x' is empty".
const std::vector<ordinal_t>& named_node_set(const Mesh&, const std::string& name, const std::string& source);
}  // namespace kfem
