// Element colourings for race-free assembly: no two elements of one colour share a node.
// `order` lists element ids colour by colour; colour k is order[offsets[k] .. offsets[k+1]).
#pragma once
#include <string>
#include <vector>

#include "kfem/mesh/mesh.hpp"

namespace kfem {
struct Coloring {
  std::vector<ordinal_t> color;    // colour of each element
  std::vector<ordinal_t> offsets;  // num_colors + 1
  std::vector<ordinal_t> order;    // element ids grouped by colour, ascending within a colour
  int num_colors() const { return static_cast<int>(offsets.size()) - 1; }
};

// Serial greedy colouring on the host (the paper's method): each element takes the smallest
// colour not used by an earlier element sharing a node. With run > 1 the units are runs of `run`
// consecutive elements of `sequence` (default 0, 1, 2, ...; the last run may be shorter), for
// mappings whose thread assembles a whole run: no two runs of one colour share a node, while the
// elements of one run may. `order` then lists each colour's runs whole, in sequence order.
Coloring greedy_coloring(const Mesh& mesh, ordinal_t run = 1, const std::vector<ordinal_t>& sequence = {});

// Groups elements by colour (counting sort); colours must be 0-based and dense.
Coloring group_by_color(std::vector<ordinal_t> color);

// Returns an empty string when valid, else a message naming two conflicting elements.
std::string check_coloring(const Mesh& mesh, const Coloring& c);
}  // namespace kfem
