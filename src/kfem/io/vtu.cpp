// VTU writer: ASCII, so the files diff and grep; shortest round-trip formatting keeps them small.
#include "kfem/io/vtu.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "kfem/io/matrix_market.hpp"  // detail::AtomicFile

namespace kfem {
namespace {
constexpr int vtk_hexahedron = 12;
constexpr std::size_t flush_bytes = 1 << 20;

void flush_if_large(detail::AtomicFile& out, fmt::memory_buffer& buf) {
  if (buf.size() < flush_bytes) return;
  out.write({buf.data(), buf.size()});
  buf.clear();
}
}  // namespace

void write_vtu(const std::string& path, const HexMesh& mesh, const std::vector<double>& displacement) {
  const std::size_t nn = mesh.num_nodes(), ne = mesh.num_elements();
  if (!displacement.empty() && displacement.size() != dofs_per_node * nn)
    throw std::invalid_argument(fmt::format("write_vtu: displacement has {} values, expected {} (3 per node)",
                                            displacement.size(), 3 * nn));
  for (std::size_t e = 0; e < ne; ++e)
    for (ordinal_t v : mesh.elements[e])
      if (v < 0 || static_cast<std::size_t>(v) >= nn)
        throw std::invalid_argument(fmt::format("write_vtu: element {} refers to node {} of {}", e, v, nn));

  detail::AtomicFile out(path);
  fmt::memory_buffer buf;
  auto app = fmt::appender(buf);
  fmt::format_to(app,
                 "<?xml version=\"1.0\"?>\n"
                 "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
                 "header_type=\"UInt64\">\n"
                 "  <UnstructuredGrid>\n"
                 "    <Piece NumberOfPoints=\"{}\" NumberOfCells=\"{}\">\n",
                 nn, ne);
  if (!displacement.empty()) {
    fmt::format_to(app,
                   "      <PointData Vectors=\"displacement\">\n"
                   "        <DataArray type=\"Float64\" Name=\"displacement\" NumberOfComponents=\"3\" "
                   "format=\"ascii\">\n");
    for (std::size_t i = 0; i < nn; ++i) {
      fmt::format_to(app, "          {} {} {}\n", displacement[3 * i], displacement[3 * i + 1],
                     displacement[3 * i + 2]);
      flush_if_large(out, buf);
    }
    fmt::format_to(app, "        </DataArray>\n      </PointData>\n");
  }
  fmt::format_to(app,
                 "      <Points>\n"
                 "        <DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n");
  for (const auto& x : mesh.nodes) {
    fmt::format_to(app, "          {} {} {}\n", x[0], x[1], x[2]);
    flush_if_large(out, buf);
  }
  fmt::format_to(app,
                 "        </DataArray>\n"
                 "      </Points>\n"
                 "      <Cells>\n"
                 "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n");
  for (const auto& el : mesh.elements) {
    fmt::format_to(app, "          {}\n", fmt::join(el, " "));
    flush_if_large(out, buf);
  }
  fmt::format_to(app,
                 "        </DataArray>\n"
                 "        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n");
  for (std::size_t e = 0; e < ne; ++e) {
    fmt::format_to(app, "{}{}", e % 16 == 0 ? "          " : " ", hex8_nodes * (e + 1));
    if (e % 16 == 15 || e + 1 == ne) fmt::format_to(app, "\n");
    flush_if_large(out, buf);
  }
  fmt::format_to(app,
                 "        </DataArray>\n"
                 "        <DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n");
  for (std::size_t e = 0; e < ne; ++e) {
    fmt::format_to(app, "{}{}", e % 32 == 0 ? "          " : " ", vtk_hexahedron);
    if (e % 32 == 31 || e + 1 == ne) fmt::format_to(app, "\n");
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
}  // namespace kfem
