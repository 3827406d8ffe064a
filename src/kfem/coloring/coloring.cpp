#include "kfem/coloring/coloring.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kfem/mesh/incidence.hpp"

namespace kfem {
Coloring group_by_color(std::vector<ordinal_t> color) {
  Coloring c;
  const ordinal_t k = color.empty() ? 0 : *std::max_element(color.begin(), color.end()) + 1;
  c.offsets.assign(k + 1, 0);
  for (ordinal_t col : color) ++c.offsets[col + 1];
  for (ordinal_t i = 0; i < k; ++i) c.offsets[i + 1] += c.offsets[i];
  c.order.resize(color.size());
  std::vector<ordinal_t> fill(c.offsets.begin(), c.offsets.end() - 1);
  for (std::size_t e = 0; e < color.size(); ++e) c.order[fill[color[e]]++] = static_cast<ordinal_t>(e);
  c.color = std::move(color);
  return c;
}

Coloring greedy_coloring(const Mesh& mesh, ordinal_t run, const std::vector<ordinal_t>& sequence) {
  if (run < 1) throw std::invalid_argument("greedy_coloring: runs of " + std::to_string(run) + " elements");
  const NodeIncidence inc = node_incidence(mesh);
  const std::size_t ne = mesh.num_elements(), len = static_cast<std::size_t>(run);
  if (!sequence.empty() && sequence.size() != ne)
    throw std::invalid_argument("greedy_coloring: a sequence of " + std::to_string(sequence.size()) +
                                " for " + std::to_string(ne) + " elements");
  const auto at = [&](std::size_t i) { return sequence.empty() ? i : static_cast<std::size_t>(sequence[i]); };
  std::vector<ordinal_t> color(ne, -1);
  std::vector<std::size_t> seen_by;  // seen_by[c] == r+1: colour c is taken by a neighbour of run r
  const int per_element = mesh.nodes_per_element();
  for (std::size_t r = 0; r * len < ne; ++r) {
    const std::size_t i0 = r * len, i1 = std::min(ne, i0 + len);
    for (std::size_t i = i0; i < i1; ++i)
      for (int a = 0; a < per_element; ++a) {
        const ordinal_t n = mesh.elements[at(i)][a];
        for (offset_t k = inc.start[n]; k < inc.start[n + 1]; ++k) {
          const ordinal_t c = color[inc.elements[k]];
          if (c < 0) continue;
          if (static_cast<std::size_t>(c) >= seen_by.size()) seen_by.resize(c + 1, 0);
          seen_by[c] = r + 1;
        }
      }
    ordinal_t c = 0;
    while (static_cast<std::size_t>(c) < seen_by.size() && seen_by[c] == r + 1) ++c;
    for (std::size_t i = i0; i < i1; ++i) color[at(i)] = c;
  }
  if (sequence.empty()) return group_by_color(std::move(color));
  std::vector<ordinal_t> by_position(ne);  // grouped by position, so that runs stay whole
  for (std::size_t i = 0; i < ne; ++i) by_position[i] = color[at(i)];
  Coloring g = group_by_color(std::move(by_position));
  for (ordinal_t& o : g.order) o = sequence[o];
  g.color = std::move(color);
  return g;
}

std::string check_coloring(const Mesh& mesh, const Coloring& c) {
  if (c.color.size() != mesh.num_elements())
    return "colouring covers " + std::to_string(c.color.size()) + " of " +
           std::to_string(mesh.num_elements()) + " elements";
  const NodeIncidence inc = node_incidence(mesh);
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n)
    for (offset_t i = inc.start[n]; i < inc.start[n + 1]; ++i)
      for (offset_t j = i + 1; j < inc.start[n + 1]; ++j)
        if (c.color[inc.elements[i]] == c.color[inc.elements[j]] && inc.elements[i] != inc.elements[j])
          return "elements " + std::to_string(inc.elements[i]) + " and " + std::to_string(inc.elements[j]) +
                 " share node " + std::to_string(n) + " and colour " +
                 std::to_string(c.color[inc.elements[i]]);
  return {};
}
}  // namespace kfem
