// Gmsh MSH 4.1 ASCII input and output for meshes of triangles (element type 2), tetrahedra (type 4,
// or 10-node type 11 read as its corners), 6-node prisms (type 6) or 8-node hexahedra (type 5),
// with physical groups as named node and cell sets.
#pragma once
#include <string>

#include "kfem/mesh/mesh.hpp"

namespace kfem {
// Reads $MeshFormat (must be 4.1, ASCII), $PhysicalNames, $Entities, $Nodes and $Elements; skips
// every other section. The cells are the elements of the highest dimension in the file: triangles
// (2) in 2D; tetrahedra (4 or 11), prisms (6) or hexahedra (5) in 3D, of one type: mixing two is an
// error naming both, 4 and 11 included. A 10-node tetrahedron is read as the tet4 of its corners:
// kfem numbers the DOFs of order p >= 2 on top of linear cells itself, with straight edges, so each
// of its mid-edge nodes (Gmsh order: edges 0-1, 1-2, 2-0, 3-0, 3-2, 3-1) must lie at its edge's
// midpoint within 1e-6 of the edge's length (curved cells are refused). Lower-dimensional elements
// are boundary elements: points 15; lines 1 and 8 (3-node); in 3D also triangles 2 and 9 (6-node)
// and quadrangles 3, 16 (8-node) and 10 (9-node). The corner nodes of a boundary block whose entity
// carries a physical tag join the node set named after that group (mid-edge and face nodes are not
// mesh nodes and are ignored); cell blocks' groups become cell_sets (element ids). A group without
// a $PhysicalNames entry is named by its tag number ("7"); equal names of several groups merge.
// Nodes keep their file order, but nodes no cell uses as a corner are dropped (they would give
// singular rows). 2D meshes must lie in the plane z = 0 exactly (kfem neither rotates nor shifts a
// mesh, and 2D kernels assume z = 0). Every problem (unreadable file, wrong version, truncation,
// malformed numbers, wrong value counts, undefined node tags or entities, non-finite coordinates,
// unsupported element types (named, e.g. "type 7 (5-node pyramid)") or mixed cell types, curved
// 10-node tetrahedra, no cells, a $PhysicalNames group without elements, a group's boundary corner
// node that no cell uses, a 2D node off z = 0, inverted or degenerate cells) throws InputError
// "<path>:<line>: <what>", naming elements, nodes and groups by their file tags and names; a file
// that cannot be opened gives "<path>: cannot open file (<reason>)".
Mesh read_gmsh(const std::string& path);

// A mesh read from a file and the order of its cells there: 2 when they were 10-node tetrahedra,
// else 1. The mesh itself is always linear (a tet10 file gives a tet4 mesh).
struct GmshMesh {
  Mesh mesh;
  int order = 1;
};
// read_gmsh, keeping the file's cell order; read_gmsh(path) is read_gmsh_with_order(path).mesh.
GmshMesh read_gmsh_with_order(const std::string& path);

// Nodes tagged 1..n on the cells' entity, cells 1..m in mesh order (element type = int(mesh.cell):
// 2, 4, 5 or 6), coordinates in shortest round-trip form. Each non-empty node set is a dimension-0
// physical group: point elements (type 15) on a point entity of its own. Each non-empty cell set is
// a physical group of the cells' dimension; the cells go to one entity per distinct combination of
// cell sets (a single entity when there are none), in consecutive blocks that keep the mesh order.
// So read_gmsh(write_gmsh(m)) == m bit for bit, node_sets and cell_sets included, for meshes whose
// nodes are all used by cells and whose sets are non-empty (empty sets are not written). Written
// via path + ".tmp" and a rename: InputError on I/O failure (nothing left behind);
// std::invalid_argument for an element node or set id out of range, unsorted or repeated set ids,
// or a set name holding '"' or a newline.
void write_gmsh(const Mesh&, const std::string& path);
}  // namespace kfem
