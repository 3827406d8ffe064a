// The names a run gives its meshes (`--mesh`, `mesh.size`), parsed once: the paper's meshes, boxes of
// hex8, prisms, tetrahedra or triangles, amorim's capacitor, or a Gmsh file. The grammar lives here,
// beside the model it builds (model.hpp), so every driver reads a name the same way.
#pragma once
#include <string>

#include "kfem/pipeline/settings.hpp"

namespace kfem::pipeline {
// "mesh3", "64x8x8", "prism:8x4x4", "tet:8x4x4", "tri:64x32", "capacitor", "capacitor:1e5",
// "f.msh"; InputError in one line naming the text otherwise, or when a box passes the 32-bit element
// ids.
MeshSpec parse_mesh_name(const std::string& text);
// InputError when a generated box at element order `order` has more DOFs (components per node) than
// 32-bit DOF ids number; files are checked once read.
void check_dof_count(const MeshSpec& spec, int order, int components);
}  // namespace kfem::pipeline
