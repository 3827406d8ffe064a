#include "kfem/mesh/box_grid.hpp"

#include <cstdint>
#include <string>

#include "kfem/core/error.hpp"
#include "kfem/fe/hex8.hpp"

namespace kfem {
BoxGrid box_grid(const Mesh& mesh) {
  const auto fail = [](const std::string& why) { return InputError("not a structured box mesh: " + why); };
  if (mesh.cell != CellType::hex8) throw fail(std::string("its cells are ") + cell_name(mesh.cell));
  const std::size_t ne = mesh.num_elements(), nn = mesh.num_nodes();
  if (ne == 0) throw fail("no elements");
  // The cell whose corner 0 is node n (a box has one per node off its upper faces).
  std::vector<ordinal_t> at_corner(nn, -1);
  std::vector<char> inner(nn, 0);  // node is corner 1, 3 or 4 of some cell: not the grid origin
  for (std::size_t e = 0; e < ne; ++e) {
    const auto& el = mesh.elements[e];
    for (int a = 0; a < 8; ++a)
      if (el[a] < 0 || std::size_t(el[a]) >= nn)
        throw fail("element " + std::to_string(e) + " has no node " + std::to_string(a));
    ordinal_t& c = at_corner[el[0]];
    if (c >= 0)
      throw fail("node " + std::to_string(el[0]) + " is corner 0 of elements " + std::to_string(c) + " and " +
                 std::to_string(e));
    c = ordinal_t(e);
    inner[el[1]] = inner[el[3]] = inner[el[4]] = 1;
  }
  ordinal_t origin = -1;
  for (std::size_t e = 0; e < ne && origin < 0; ++e)
    if (!inner[mesh.elements[e][0]]) origin = ordinal_t(e);
  if (origin < 0) throw fail("no element without a neighbour below it in x, y and z");
  // Counts along the three edges from the origin cell: step to the cell whose corner 0 is this one's
  // corner 1 (x), 3 (y) or 4 (z).
  const auto steps = [&](int a) {
    ordinal_t n = 1;
    for (ordinal_t e = origin; (e = at_corner[mesh.elements[e][a]]) >= 0;) {
      if (++n > ordinal_t(ne)) throw fail("a cycle of elements");
    }
    return n;
  };
  BoxGrid g;
  g.nx = steps(1), g.ny = steps(3), g.nz = steps(4);
  if (std::int64_t(g.nx) * g.ny * g.nz != std::int64_t(ne))
    throw fail(std::to_string(ne) + " elements, but the edges from element " + std::to_string(origin) +
               " span " + std::to_string(g.nx) + " x " + std::to_string(g.ny) + " x " + std::to_string(g.nz));
  if (std::int64_t(g.nx + 1) * (g.ny + 1) * (g.nz + 1) != std::int64_t(nn))
    throw fail(std::to_string(nn) + " nodes for " + std::to_string(g.nx) + " x " + std::to_string(g.ny) +
               " x " + std::to_string(g.nz) + " cells");
  g.element.assign(ne, -1);
  g.node.assign(nn, -1);
  std::vector<char> seen(ne, 0);
  const auto point = [&](ordinal_t i, ordinal_t j, ordinal_t k) {
    return std::size_t(i) + std::size_t(g.nx + 1) * (std::size_t(j) + std::size_t(g.ny + 1) * k);
  };
  for (ordinal_t k = 0; k < g.nz; ++k)
    for (ordinal_t j = 0; j < g.ny; ++j)
      for (ordinal_t i = 0; i < g.nx; ++i) {
        // The cell at (i, j, k) is the one whose corner 0 is point (i, j, k), reached from its
        // neighbour below in x (or y, or z at the first cell of a row).
        ordinal_t e = origin;
        if (i > 0)
          e = at_corner[mesh.elements[g.element[i - 1 + std::size_t(g.nx) * (j + std::size_t(g.ny) * k)]][1]];
        else if (j > 0)
          e = at_corner[mesh.elements[g.element[std::size_t(g.nx) * (j - 1 + std::size_t(g.ny) * k)]][3]];
        else if (k > 0)
          e = at_corner[mesh.elements[g.element[std::size_t(g.nx) * std::size_t(g.ny) * (k - 1)]][4]];
        // said only on failure: a string per cell was most of this walk's time
        const auto where = [&] {
          return "cell (" + std::to_string(i) + ", " + std::to_string(j) + ", " + std::to_string(k) + ")";
        };
        if (e < 0) throw fail(where() + " has no element");
        if (seen[e]) throw fail("element " + std::to_string(e) + " sits at two cells");
        seen[e] = 1;
        g.element[i + std::size_t(g.nx) * (j + std::size_t(g.ny) * k)] = e;
        for (int a = 0; a < 8; ++a) {
          ordinal_t& n =
              g.node[point(i + hex8::corner(a, 0), j + hex8::corner(a, 1), k + hex8::corner(a, 2))];
          const ordinal_t id = mesh.elements[e][a];
          if (n >= 0 && n != id)
            throw fail("element " + std::to_string(e) + " at " + where() + " has node " + std::to_string(id) +
                       " where its neighbours have node " + std::to_string(n));
          n = id;
        }
      }
  std::vector<char> used(nn, 0);
  for (ordinal_t n : g.node) {
    if (n < 0 || used[n]) throw fail("a grid point without a node of its own");
    used[n] = 1;
  }
  return g;
}
}  // namespace kfem
