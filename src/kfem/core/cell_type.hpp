// The cell types of kfem's meshes. Here, below both fe/ (a family names its cell) and mesh/ (a mesh
// holds cells of one type), so that neither includes the other for it.
#pragma once

namespace kfem {
// Values are the Gmsh element-type numbers of the cells.
enum class CellType : int { tri3 = 2, tet4 = 4, hex8 = 5, prism6 = 6 };

inline constexpr int max_cell_vertices = 8;

constexpr int cell_vertices(CellType c) {
  return c == CellType::tri3 ? 3 : c == CellType::tet4 ? 4 : c == CellType::prism6 ? 6 : 8;
}
constexpr int cell_dimension(CellType c) {
  return c == CellType::tri3 ? 2 : 3;
}
inline const char* cell_name(CellType c) {
  return c == CellType::tri3     ? "tri3"
         : c == CellType::tet4   ? "tet4"
         : c == CellType::prism6 ? "prism6"
                                 : "hex8";
}
}  // namespace kfem
