// VTK XML UnstructuredGrid (.vtu) export of a hex mesh and its displacement, for ParaView.
#pragma once
#include <string>
#include <vector>

#include "kfem/mesh/hex_mesh.hpp"

namespace kfem {
// ASCII VTU with VTK_HEXAHEDRON (12) cells; Gmsh's hex node order is VTK's, so connectivity is
// copied as is. displacement: 3 per node (PointData "displacement"), or empty for the mesh alone;
// another size, or an element node id out of range, throws std::invalid_argument. Written via
// path + ".tmp" and a rename; InputError if the file cannot be written (nothing left behind).
void write_vtu(const std::string& path, const HexMesh& mesh, const std::vector<double>& displacement);
}  // namespace kfem
