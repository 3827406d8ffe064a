// VTK XML UnstructuredGrid (.vtu) export of meshes and point fields, for ParaView.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "kfem/mesh/mesh.hpp"

namespace kfem {
// One cell type for the whole grid: nodes_per_cell point ids per cell, already in VTK's node order.
struct VtuCells {
  int vtk_type = 0;  // VTK cell type id: 5 triangle, 12 hexahedron, 13 wedge, 73 Lagrange wedge, ...
  int nodes_per_cell = 0;
  std::vector<ordinal_t> connectivity;
};

// A named point-data array: components (1 or 3) values per point, point after point.
struct VtuField {
  std::string name;
  int components = 1;
  std::vector<double> values;
};

inline constexpr int vtk_triangle = 5;
inline constexpr int vtk_hexahedron = 12;
inline constexpr int vtk_wedge = 13;
inline constexpr int vtk_tetra = 10;
inline constexpr int vtk_quadratic_tetra = 24;
inline constexpr int vtk_lagrange_wedge = 73;

// ASCII VTU of the points, cells and point fields (Scalars/Vectors attributes name the first 1-
// and 3-component field). VTK_LAGRANGE_WEDGE cells need (p+1)^2 (p+2)/2 nodes (uniform order p);
// their vertices follow Gmsh's prism order (unlike VTK_WEDGE's, see below), and the writer adds the
// HigherOrderDegrees cell array (p, p, p), which VTK >= 9 uses instead of guessing the order from
// the point count. Throws std::invalid_argument for a bad cell type, a node count that does not fit
// it, a connectivity size not a multiple of nodes_per_cell, a point id out of range, a field with
// another component count than 1 or 3, a size other than components * points, or an empty,
// repeated or non-XML-safe name. Written via path + ".tmp" and a rename; InputError if the file
// cannot be written (nothing left behind).
void write_vtu(const std::string& path, const std::vector<std::array<double, 3>>& points,
               const VtuCells& cells, const std::vector<VtuField>& fields);

// The mesh's cells: VTK_TRIANGLE (5) for tri3, VTK_TETRA (10) for tet4 and VTK_HEXAHEDRON (12) for
// hex8 (Gmsh's order is VTK's),
// VTK_WEDGE (13) for prism6 with nodes (0 2 1 3 5 4): VTK's wedge has its base triangle turned the
// other way round (its normal points away from the top face), so copying Gmsh's order would show
// negative volumes. displacement: 3 per node (PointData "displacement"), or empty for the mesh
// alone; another size, or an element node id out of range, throws std::invalid_argument.
void write_vtu(const std::string& path, const Mesh& mesh, const std::vector<double>& displacement);

// The mesh's cells (as above) with one point field of 1 or 3 components per node.
void write_vtu(const std::string& path, const Mesh& mesh, const std::string& field_name, int components,
               const std::vector<double>& values);
}  // namespace kfem
