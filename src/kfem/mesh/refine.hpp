// Uniform refinement of tri3 meshes: every triangle into four through its edge midpoints. Big
// meshes of a graded Gmsh geometry come from a small .msh plus refinements (a GPU machine has no
// Gmsh, and a 1e7-triangle .msh is ~1 GB), with the geometry's straight boundaries kept exactly.
#pragma once
#include "kfem/mesh/mesh.hpp"

namespace kfem {
// `times` refinements (each x4 triangles). Vertices keep their ids; the midpoints follow, one per
// edge. Children of triangle e are 4e..4e+3, counter-clockwise like their parent, so cell_sets
// carry over. A midpoint joins a node set when its edge lies on the mesh boundary (one triangle)
// with both ends in the set: node sets are boundary sets (plate outlines, box sides); the
// interior chord of a corner triangle does not join them. InputError for a non-tri3 mesh, for
// times outside 0..8, or when the result passes kfem's 32-bit ids.
Mesh refine_uniform(const Mesh& mesh, int times = 1);
}  // namespace kfem
