// Structured box meshes of hexahedra (the kiran Table 3 cantilevers) and a seeded node jitter
// that makes them unstructured-looking without inverting any element.
#pragma once
#include <cstdint>

#include "kfem/mesh/hex_mesh.hpp"

namespace kfem {
struct BoxSpec {
  ordinal_t nx = 16, ny = 2, nz = 2;     // elements per direction
  double lx = 16.0, ly = 2.0, lz = 2.0;  // extent [m]; the box spans [0,lx] x [0,ly] x [0,lz]
};

// kiran Table 3: 1 -> 192x24x24, 2 -> 256x32x32, 3 -> 400x50x50, 4 -> 512x64x64, all 16 x 2 x 2 m.
// Any other index throws InputError.
BoxSpec paper_mesh(int index);

// Counts make_box would produce, without building anything (64-bit: they size allocations).
std::int64_t box_num_elements(const BoxSpec&);
std::int64_t box_num_nodes(const BoxSpec&);

// Node id = i + (nx+1)*(j + (ny+1)*k), element id = i + nx*(j + ny*k), Gmsh order inside each
// element. Throws InputError for non-positive counts/extents or more nodes than ordinal_t holds.
HexMesh make_box(const BoxSpec&);

// Moves every node by a random vector of length <= amplitude * h, h = shortest edge of the
// elements around the node (so each coordinate moves by at most amplitude * h). Nodes on the
// planes x = xmin and x = xmax keep their x. The offset lies in a ball rather than a cube so
// that every element of a box mesh stays valid up to amplitude 1/(2 sqrt 3) ~ 0.29 (a cube of
// +-0.2 h per component can already invert a corner). Bit-identical for a seed on every platform.
void distort(HexMesh&, double amplitude, std::uint64_t seed);
}  // namespace kfem
