// Point order of VTK's arbitrary-order Lagrange wedge (VTK_LAGRANGE_WEDGE = 73), so a VTU writer
// can emit a P_p prism as one cell, and of VTK's quadratic tetrahedron (a P2 tetrahedron). VTK's order, per
// VTK >= 9 (vtkHigherOrderWedge::PointIndexFromIJK,
// vtkHigherOrderInterpolation::AppendWedgeCollocationPoints), parametric (r, s, t) in the same
// reference prism as basix: the 6 vertices (0,0,0) (1,0,0) (0,1,0) (0,0,1) (1,0,1) (0,1,1); the
// edge points of edges 0-1, 1-2, 2-0, 3-4, 4-5, 5-3, 0-3, 1-4, 2-5, each running from its first
// vertex to its second; the triangle t = 0 then t = 1, rows of constant s (s increasing), r
// increasing in a row; the quadrilaterals with corners 0-1-4-3, 1-2-5-4, 2-0-3-5, each in rows of
// constant t (t increasing) running from the first corner towards the second; the interior in
// layers of constant t, each ordered as a triangle face. VTK's vertices 0-2 form a triangle whose
// normal points into the cell (towards 3-5), as Gmsh's and kfem's prism6: no vertex swap needed.
#pragma once
#include <array>
#include <vector>

namespace kfem {
// (The VTK cell type number, vtk_lagrange_wedge = 73, is in io/vtu.hpp.)

// VTK's reference points of the order-p Lagrange wedge, in VTK's point order (N_sh of them).
std::vector<std::array<double, 3>> vtk_lagrange_wedge_points(int p);

// vtk_to_local[k] = the local (basix, lagrange_basis.hpp) shape-function index of VTK point k: write
// element_nodes[vtk_to_local[k]] as the cell's k-th point. Throws InputError for p outside 1..7.
std::vector<int> vtk_lagrange_wedge_to_local(int p);

// The same for VTK_QUADRATIC_TETRA (24): the 4 vertices (Gmsh's = VTK's = basix's order), then the
// midpoints of edges 0-1, 1-2, 2-0, 0-3, 1-3, 2-3, as the P2 tetrahedron's local shape functions.
std::vector<int> vtk_quadratic_tetra_to_local();
}  // namespace kfem
