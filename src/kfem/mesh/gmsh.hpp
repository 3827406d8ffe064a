// Gmsh MSH 4.1 ASCII input and output for meshes of 8-node hexahedra (element type 5).
#pragma once
#include <string>

#include "kfem/mesh/hex_mesh.hpp"

namespace kfem {
// Reads $MeshFormat (must be 4.1, ASCII), $Nodes and $Elements; skips every other section.
// Hexahedra (type 5) become the mesh; points, lines, triangles and quadrangles (types 15, 1, 2, 3:
// boundary elements) are skipped; any other element type is an error. Nodes keep their file
// order, but nodes no hexahedron uses are dropped (they would give singular rows). Every problem
// (unreadable file, wrong version, truncation, malformed numbers, wrong value counts, undefined
// node tags, non-finite coordinates, no hexahedra, inverted or degenerate elements) throws
// InputError "<path>:<line>: <what>", naming elements and nodes by their file tags; a file that
// cannot be opened gives "<path>: cannot open file (<reason>)".
HexMesh read_gmsh(const std::string& path);

// One volume entity, nodes tagged 1..n and hexes 1..m in mesh order; coordinates in shortest
// round-trip form, so read_gmsh(write_gmsh(m)) == m bit for bit. Throws InputError on I/O failure.
void write_gmsh(const HexMesh&, const std::string& path);
}  // namespace kfem
