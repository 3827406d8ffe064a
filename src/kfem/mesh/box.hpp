// Structured box meshes of every family (hexahedra: the kiran Table 3 cantilevers; prisms;
// tetrahedra; 2D triangles) and a seeded node jitter that makes them unstructured-looking without
// inverting any element.
#pragma once
#include <cstdint>
#include <string>

#include "kfem/mesh/mesh.hpp"

namespace kfem {
struct BoxSpec {
  ordinal_t nx = 16, ny = 2, nz = 2;     // elements per direction
  double lx = 16.0, ly = 2.0, lz = 2.0;  // extent [m]; the box spans [0,lx] x [0,ly] x [0,lz]
};

// kiran Table 3: 1 -> 192x24x24, 2 -> 256x32x32, 3 -> 400x50x50, 4 -> 512x64x64, all 16 x 2 x 2 m.
// Any other index throws InputError.
BoxSpec paper_mesh(int index);

// Counts make_box(spec, cell) would produce, without building anything (64-bit: they size
// allocations). hex8: nx*ny*nz cells; prism6: twice that; tet4: six times that; tri3: 2*nx*ny
// (nz, lz ignored). Every 3D family has the hexahedra's (nx+1)(ny+1)(nz+1) nodes.
std::int64_t box_num_elements(const BoxSpec&, CellType cell = CellType::hex8);
std::int64_t box_num_nodes(const BoxSpec&, CellType cell = CellType::hex8);
// Why make_box(spec, cell) cannot be built, from the counts alone ("" when it can): a count
// that is not positive, or more elements or nodes than 32-bit ordinal_t ids number (named with
// the limit). Lets a driver reject a size before anything is allocated.
std::string box_count_error(const BoxSpec&, CellType cell = CellType::hex8);

// Hexahedra. Node id = i + (nx+1)*(j + (ny+1)*k), element id = i + nx*(j + ny*k), Gmsh order
// inside each element. Node sets "xmin", "xmax", "ymin", "ymax", "zmin", "zmax": the nodes on those
// faces. Throws InputError for non-positive counts/extents or more nodes than ordinal_t holds.
// With a CellType, dispatches to make_prism_box / make_tet_box / make_tri_box (which reads nx, ny,
// lx, ly).
Mesh make_box(const BoxSpec&, CellType cell = CellType::hex8);

// make_box's nodes and node sets; hex (i,j,k) becomes prisms 2*id and 2*id+1 split by the plane
// through its xy-diagonal (i,j)-(i+1,j+1): triangles (i,j)(i+1,j)(i+1,j+1) and (i,j)(i+1,j+1)(i,j+1)
// at z_k, repeated at z_{k+1} (prism axis along z, det J > 0).
Mesh make_prism_box(const BoxSpec&);

// make_box's nodes and node sets; hex (i,j,k) becomes tetrahedra 6*id .. 6*id+5, the Kuhn
// (Freudenthal) split along its diagonal (i,j,k)-(i+1,j+1,k+1): for each order a, b, c of the axes
// x y z, x z y, y x z, y z x, z x y, z y x, the tetrahedron of the path (i,j,k), + e_a, + e_b, + e_c,
// with its vertices 1 and 2 swapped for the odd orders so that every det J > 0 (Gmsh orientation,
// see validate.hpp). Every hexahedron is split the same way, so the tetrahedra are conforming: the
// two triangles of each face between neighbours are the same from both sides (the face diagonal
// through the face's lowest corner). All tetrahedra have volume lx*ly*lz / (6*nx*ny*nz).
Mesh make_tet_box(const BoxSpec&);

// 2*nx*ny counter-clockwise triangles on [0,lx] x [0,ly] (z = 0): node id = i + (nx+1)*j, square
// (i,j) split like make_prism_box's into triangles 2*(i + nx*j) and 2*(i + nx*j)+1. Node sets
// "xmin", "xmax", "ymin", "ymax". InputError for non-positive counts/extents or too many nodes.
Mesh make_tri_box(ordinal_t nx, ordinal_t ny, double lx, double ly);

// Moves every node by a random vector of length <= amplitude * h, h = shortest edge of the
// elements around the node (so each coordinate moves by at most amplitude * h). Nodes on the
// planes x = xmin and x = xmax keep their x; 2D (tri3) meshes move in x and y only (z stays 0).
// The offset lies in a ball rather than a cube so that every element of a box mesh stays valid up
// to amplitude 1/(2 sqrt 3) ~ 0.29 for hexahedra (a cube of +-0.2 h per component can already
// invert a corner). Triangles, prisms and tetrahedra are tighter: J's rows at any point of a box
// triangle or prism are edge vectors (or averages of parallel edges) such as (h,0,0), (h,h,0),
// (0,0,h), whose smallest singular value is (sqrt 5 - 1)/2 h ~ 0.618 h; a box tetrahedron's are
// (h,0,0), (h,h,0), (h,h,h) up to the order of rows and columns, smallest singular value
// h / (2 sin(5 pi / 14)) ~ 0.555 h. Each row moves by at most 2 amplitude h, so det J keeps its sign
// while 2 sqrt(d) amplitude < that value (d = 2 or 3 rows): amplitude < 0.21 for triangles, < 0.17
// for prisms, < 0.16 for tetrahedra (other cell aspect ratios only widen the margin). Bit-identical
// for a seed on every platform.
void distort(Mesh&, double amplitude, std::uint64_t seed);
}  // namespace kfem
