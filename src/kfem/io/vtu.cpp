// VTU writer: ASCII, so the files diff and grep; shortest round-trip formatting keeps them small.
#include "kfem/io/vtu.hpp"

#include <fmt/format.h>

#include <set>
#include <stdexcept>

#include "kfem/core/atomic_file.hpp"

namespace kfem {
namespace {
constexpr std::size_t flush_bytes = 1 << 20;

void flush_if_large(detail::AtomicFile& out, fmt::memory_buffer& buf) {
  if (buf.size() < flush_bytes) return;
  out.write({buf.data(), buf.size()});
  buf.clear();
}

// Node counts of the fixed-size VTK cell types (0: not a fixed-size type this writer knows).
int vtk_fixed_nodes(int type) {
  switch (type) {
    case 1:  // vertex
      return 1;
    case 3:  // line
      return 2;
    case 5:  // triangle
      return 3;
    case 9:   // quad
    case 10:  // tetra
      return 4;
    case 12:  // hexahedron
      return 8;
    case 13:  // wedge
      return 6;
    case 14:  // pyramid
      return 5;
    case 24:  // quadratic tetra
      return 10;
    default:
      return 0;
  }
}

// Uniform order p of a Lagrange wedge with n = (p+1)^2 (p+2)/2 nodes, or 0 when n has no such p.
int lagrange_wedge_order(int n) {
  for (int p = 1; (p + 1) * (p + 1) * (p + 2) / 2 <= n; ++p)
    if ((p + 1) * (p + 1) * (p + 2) / 2 == n) return p;
  return 0;
}

// A field without its values copied (the displacement of a big mesh is large).
struct FieldRef {
  const std::string& name;
  int components;
  const std::vector<double>& values;
};

std::vector<FieldRef> refs(const std::vector<VtuField>& fields) {
  std::vector<FieldRef> r;
  for (const auto& f : fields) r.push_back({f.name, f.components, f.values});
  return r;
}

void check_fields(const std::vector<FieldRef>& fields, std::size_t num_points) {
  std::set<std::string> names;
  for (const auto& f : fields) {
    if (f.name.empty() || f.name.find_first_of("<>&\"'") != std::string::npos || !names.insert(f.name).second)
      throw std::invalid_argument(
          fmt::format("write_vtu: field name '{}' is empty, repeated or not XML-safe", f.name));
    if (f.components != 1 && f.components != 3)
      throw std::invalid_argument(
          fmt::format("write_vtu: field '{}' has {} components (1 or 3 supported)", f.name, f.components));
    if (f.values.size() != std::size_t(f.components) * num_points)
      throw std::invalid_argument(
          fmt::format("write_vtu: field '{}' has {} values, expected {} ({} per point)", f.name,
                      f.values.size(), f.components * num_points, f.components));
  }
}

// Writes the grid; node(e, a) is the a-th point id of cell e in VTK order (already range-checked).
template <class NodeOf>
void write_grid(const std::string& path, const std::vector<std::array<double, 3>>& points,
                std::size_t num_cells, int vtk_type, int nodes_per_cell, NodeOf node,
                const std::vector<FieldRef>& fields) {
  const std::size_t nn = points.size();
  detail::AtomicFile out(path);
  fmt::memory_buffer buf;
  auto app = fmt::appender(buf);
  fmt::format_to(app,
                 "<?xml version=\"1.0\"?>\n"
                 "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
                 "header_type=\"UInt64\">\n"
                 "  <UnstructuredGrid>\n"
                 "    <Piece NumberOfPoints=\"{}\" NumberOfCells=\"{}\">\n",
                 nn, num_cells);
  if (!fields.empty()) {
    std::string attributes;
    for (int components : {1, 3})
      for (const auto& f : fields)
        if (f.components == components) {
          attributes += fmt::format(" {}=\"{}\"", components == 1 ? "Scalars" : "Vectors", f.name);
          break;
        }
    fmt::format_to(app, "      <PointData{}>\n", attributes);
    for (const auto& f : fields) {
      fmt::format_to(
          app,
          "        <DataArray type=\"Float64\" Name=\"{}\" NumberOfComponents=\"{}\" format=\"ascii\">\n",
          f.name, f.components);
      for (std::size_t i = 0; i < nn; ++i) {
        if (f.components == 3)
          fmt::format_to(app, "          {} {} {}\n", f.values[3 * i], f.values[3 * i + 1],
                         f.values[3 * i + 2]);
        else
          fmt::format_to(app, "          {}\n", f.values[i]);
        flush_if_large(out, buf);
      }
      fmt::format_to(app, "        </DataArray>\n");
    }
    fmt::format_to(app, "      </PointData>\n");
  }
  if (vtk_type == vtk_lagrange_wedge) {
    const int p = lagrange_wedge_order(nodes_per_cell);
    fmt::format_to(app,
                   "      <CellData HigherOrderDegrees=\"HigherOrderDegrees\">\n"
                   "        <DataArray type=\"Int32\" Name=\"HigherOrderDegrees\" NumberOfComponents=\"3\" "
                   "format=\"ascii\">\n");
    for (std::size_t e = 0; e < num_cells; ++e) {
      fmt::format_to(app, "          {} {} {}\n", p, p, p);
      flush_if_large(out, buf);
    }
    fmt::format_to(app, "        </DataArray>\n      </CellData>\n");
  }
  fmt::format_to(app,
                 "      <Points>\n"
                 "        <DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n");
  for (const auto& x : points) {
    fmt::format_to(app, "          {} {} {}\n", x[0], x[1], x[2]);
    flush_if_large(out, buf);
  }
  fmt::format_to(app,
                 "        </DataArray>\n"
                 "      </Points>\n"
                 "      <Cells>\n"
                 "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n");
  for (std::size_t e = 0; e < num_cells; ++e) {
    fmt::format_to(app, "         ");
    for (int a = 0; a < nodes_per_cell; ++a) fmt::format_to(app, " {}", node(e, a));
    fmt::format_to(app, "\n");
    flush_if_large(out, buf);
  }
  fmt::format_to(app,
                 "        </DataArray>\n"
                 "        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n");
  for (std::size_t e = 0; e < num_cells; ++e) {
    fmt::format_to(app, "{}{}", e % 16 == 0 ? "          " : " ", std::size_t(nodes_per_cell) * (e + 1));
    if (e % 16 == 15 || e + 1 == num_cells) fmt::format_to(app, "\n");
    flush_if_large(out, buf);
  }
  fmt::format_to(app,
                 "        </DataArray>\n"
                 "        <DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n");
  for (std::size_t e = 0; e < num_cells; ++e) {
    fmt::format_to(app, "{}{}", e % 32 == 0 ? "          " : " ", vtk_type);
    if (e % 32 == 31 || e + 1 == num_cells) fmt::format_to(app, "\n");
    flush_if_large(out, buf);
  }
  fmt::format_to(app,
                 "        </DataArray>\n"
                 "      </Cells>\n"
                 "    </Piece>\n"
                 "  </UnstructuredGrid>\n"
                 "</VTKFile>\n");
  out.write({buf.data(), buf.size()});
  out.commit();
}

void write_mesh(const std::string& path, const Mesh& mesh, const std::vector<FieldRef>& fields) {
  const std::size_t nn = mesh.num_nodes(), ne = mesh.num_elements();
  const int per_element = mesh.nodes_per_element();
  for (std::size_t e = 0; e < ne; ++e)
    for (int a = 0; a < per_element; ++a) {
      const ordinal_t v = mesh.elements[e][a];
      if (v < 0 || static_cast<std::size_t>(v) >= nn)
        throw std::invalid_argument(fmt::format("write_vtu: element {} refers to node {} of {}", e, v, nn));
    }
  check_fields(fields, nn);
  constexpr int kIdentity[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  constexpr int kWedge[8] = {0, 2, 1, 3, 5, 4, 6, 7};  // Gmsh prism -> VTK_WEDGE
  const int* order = mesh.cell == CellType::prism6 ? kWedge : kIdentity;
  const int type = mesh.cell == CellType::tri3     ? vtk_triangle
                   : mesh.cell == CellType::tet4   ? vtk_tetra
                   : mesh.cell == CellType::prism6 ? vtk_wedge
                                                   : vtk_hexahedron;
  write_grid(
      path, mesh.nodes, ne, type, per_element,
      [&](std::size_t e, int a) { return mesh.elements[e][order[a]]; }, fields);
}
}  // namespace

void write_vtu(const std::string& path, const std::vector<std::array<double, 3>>& points,
               const VtuCells& cells, const std::vector<VtuField>& fields) {
  const int type = cells.vtk_type, npc = cells.nodes_per_cell;
  if (type < 1 || type > 255)
    throw std::invalid_argument(fmt::format("write_vtu: VTK cell type {} is not 1..255", type));
  if (npc < 1) throw std::invalid_argument(fmt::format("write_vtu: {} nodes per cell", npc));
  if (vtk_fixed_nodes(type) && vtk_fixed_nodes(type) != npc)
    throw std::invalid_argument(
        fmt::format("write_vtu: VTK cell type {} has {} nodes, not {}", type, vtk_fixed_nodes(type), npc));
  if (type == vtk_lagrange_wedge && !lagrange_wedge_order(npc))
    throw std::invalid_argument(fmt::format(
        "write_vtu: a VTK_LAGRANGE_WEDGE needs (p+1)^2 (p+2)/2 nodes (6, 18, 40, 75, ...), not {}", npc));
  if (cells.connectivity.size() % std::size_t(npc) != 0)
    throw std::invalid_argument(
        fmt::format("write_vtu: {} connectivity entries are not a multiple of {} nodes per cell",
                    cells.connectivity.size(), npc));
  const std::size_t nn = points.size(), nc = cells.connectivity.size() / std::size_t(npc);
  for (std::size_t i = 0; i < cells.connectivity.size(); ++i) {
    const ordinal_t v = cells.connectivity[i];
    if (v < 0 || static_cast<std::size_t>(v) >= nn)
      throw std::invalid_argument(fmt::format("write_vtu: cell {} refers to point {} of {}", i / npc, v, nn));
  }
  const std::vector<FieldRef> field_refs = refs(fields);
  check_fields(field_refs, nn);
  write_grid(
      path, points, nc, type, npc, [&](std::size_t e, int a) { return cells.connectivity[e * npc + a]; },
      field_refs);
}

void write_vtu(const std::string& path, const Mesh& mesh, const std::vector<double>& displacement) {
  const std::size_t nn = mesh.num_nodes();
  if (!displacement.empty() && displacement.size() != dofs_per_node * nn)
    throw std::invalid_argument(fmt::format("write_vtu: displacement has {} values, expected {} (3 per node)",
                                            displacement.size(), 3 * nn));
  static const std::string name = "displacement";
  std::vector<FieldRef> fields;
  if (!displacement.empty()) fields.push_back({name, 3, displacement});
  write_mesh(path, mesh, fields);
}

void write_vtu(const std::string& path, const Mesh& mesh, const std::string& field_name, int components,
               const std::vector<double>& values) {
  write_mesh(path, mesh, {FieldRef{field_name, components, values}});
}
}  // namespace kfem
