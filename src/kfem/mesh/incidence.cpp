#include "kfem/mesh/incidence.hpp"

namespace kfem {
NodeIncidence node_incidence(const HexMesh& mesh) {
  const std::size_t n = mesh.num_nodes();
  NodeIncidence inc;
  inc.start.assign(n + 1, 0);
  for (const auto& el : mesh.elements)
    for (ordinal_t v : el) ++inc.start[v + 1];
  for (std::size_t v = 0; v < n; ++v) inc.start[v + 1] += inc.start[v];
  inc.elements.resize(inc.start[n]);
  std::vector<offset_t> fill(inc.start.begin(), inc.start.end() - 1);
  for (std::size_t e = 0; e < mesh.num_elements(); ++e)
    for (ordinal_t v : mesh.elements[e]) inc.elements[fill[v]++] = static_cast<ordinal_t>(e);
  return inc;
}
}  // namespace kfem
