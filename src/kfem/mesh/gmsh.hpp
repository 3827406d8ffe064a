// Gmsh MSH 4.1 ASCII input and output for meshes of triangles (element type 2), 6-node prisms
// (type 6) or 8-node hexahedra (type 5), with physical groups as named node and cell sets.
#pragma once
#include <string>

#include "kfem/mesh/mesh.hpp"

namespace kfem {
// Reads $MeshFormat (must be 4.1, ASCII), $PhysicalNames, $Entities, $Nodes and $Elements; skips
// every other section. The cells are the elements of the highest dimension in the file: triangles
// in 2D, prisms or hexahedra in 3D (one type: mixing two is an error naming both). Lower-dimensional
// elements (points 15, lines 1, and in 3D triangles 2 and quadrangles 3) are boundary elements:
// every node of a block whose entity carries a physical tag joins the node set named after that
// group; cell blocks' groups become cell_sets (element ids). A group without a $PhysicalNames entry
// is named by its tag number ("7"); equal names of several groups merge. Nodes keep their file
// order, but nodes no cell uses are dropped (they would give singular rows). 2D meshes must lie in
// the plane z = 0 exactly (kfem neither rotates nor shifts a mesh, and 2D kernels assume z = 0).
// Every problem (unreadable file, wrong version, truncation, malformed numbers, wrong value counts,
// undefined node tags or entities, non-finite coordinates, unsupported or mixed cell types, no
// cells, a $PhysicalNames group without elements, a group's boundary node that no cell uses, a 2D
// node off z = 0, inverted or degenerate cells) throws InputError "<path>:<line>: <what>", naming
// elements, nodes and groups by their file tags and names; a file that cannot be opened gives
// "<path>: cannot open file (<reason>)".
Mesh read_gmsh(const std::string& path);

// Nodes tagged 1..n on the cells' entity, cells 1..m in mesh order, coordinates in shortest
// round-trip form. Each non-empty node set is a dimension-0 physical group: point elements (type
// 15) on a point entity of its own. Each non-empty cell set is a physical group of the cells'
// dimension; the cells go to one entity per distinct combination of cell sets (a single entity
// when there are none), in consecutive blocks that keep the mesh order. So read_gmsh(write_gmsh(m))
// == m bit for bit, node_sets and cell_sets included, for meshes whose nodes are all used by cells
// and whose sets are non-empty (empty sets are not written). Written via path + ".tmp" and a
// rename: InputError on I/O failure (nothing left behind); std::invalid_argument for an element
// node or set id out of range, unsorted or repeated set ids, or a set name holding '"' or a newline.
void write_gmsh(const Mesh&, const std::string& path);
}  // namespace kfem
