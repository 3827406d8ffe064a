// Node -> element incidence of a mesh on the host (counting sort): the elements touching node n
// are elements[start[n] .. start[n+1]). Shared by the oracle's pattern, colouring and RCM.
#pragma once
#include <vector>

#include "kfem/mesh/mesh.hpp"

namespace kfem {
struct NodeIncidence {
  std::vector<offset_t> start;
  std::vector<ordinal_t> elements;
};

NodeIncidence node_incidence(const Mesh& mesh);
}  // namespace kfem
