// Connected components by union-find over the vertices (path halving, the smaller root wins).
#include "kfem/mesh/components.hpp"

#include <algorithm>
#include <numeric>

namespace kfem {
MeshComponents mesh_components(const Mesh& mesh) {
  std::vector<ordinal_t> parent(mesh.num_nodes());
  std::iota(parent.begin(), parent.end(), ordinal_t(0));
  const auto find = [&](ordinal_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  const int per_element = mesh.nodes_per_element();
  for (const auto& el : mesh.elements)
    for (int a = 1; a < per_element; ++a) {
      const ordinal_t r = find(el[0]), s = find(el[a]);
      if (r != s) parent[std::max(r, s)] = std::min(r, s);
    }
  // Roots are labelled by the first element reaching them; an unused vertex stays its own,
  // unlabelled root.
  MeshComponents c;
  std::vector<ordinal_t> label(parent.size(), -1);
  c.of_element.resize(mesh.num_elements());
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) {
    ordinal_t& l = label[find(mesh.elements[e][0])];
    if (l < 0) l = c.count++;
    c.of_element[e] = l;
  }
  c.of_node.resize(parent.size());
  for (std::size_t v = 0; v < parent.size(); ++v) c.of_node[v] = label[find(ordinal_t(v))];
  return c;
}
}  // namespace kfem
