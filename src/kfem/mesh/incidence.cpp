#include "kfem/mesh/incidence.hpp"

namespace kfem {
NodeIncidence node_incidence(const Mesh& mesh) {
  const std::size_t n = mesh.num_nodes();
  NodeIncidence inc;
  const int per_element = mesh.nodes_per_element();
  inc.start.assign(n + 1, 0);
  for (const auto& el : mesh.elements)
    for (int a = 0; a < per_element; ++a) ++inc.start[el[a] + 1];
  for (std::size_t v = 0; v < n; ++v) inc.start[v + 1] += inc.start[v];
  inc.elements.resize(inc.start[n]);
  std::vector<offset_t> fill(inc.start.begin(), inc.start.end() - 1);
  for (std::size_t e = 0; e < mesh.num_elements(); ++e)
    for (int a = 0; a < per_element; ++a)
      inc.elements[fill[mesh.elements[e][a]]++] = static_cast<ordinal_t>(e);
  return inc;
}
}  // namespace kfem
