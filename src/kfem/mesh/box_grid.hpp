// The structured grid behind a hex8 mesh with the topology of a box (make_box, then any node
// renumbering, element shuffle or node jitter): which element sits at grid cell (i, j, k) and which
// node at grid point (i, j, k). Structured fast paths (the box owner-computes mapping) index through it.
#pragma once
#include <string>
#include <vector>

#include "kfem/mesh/mesh.hpp"

namespace kfem {
struct BoxGrid {
  ordinal_t nx = 0, ny = 0, nz = 0;  // elements per direction
  std::vector<ordinal_t> element;    // element id of cell (i, j, k) at i + nx (j + ny k)
  std::vector<ordinal_t> node;       // node id of point (i, j, k) at i + (nx+1) (j + (ny+1) k)
};

// The grid, read from the connectivity alone: every element's local node a must sit at its cell's
// corner hex8::corner(a, .) (Gmsh order, as make_box writes it). Throws InputError naming
// the first element or node that breaks the box topology.
BoxGrid box_grid(const Mesh& mesh);
}  // namespace kfem
