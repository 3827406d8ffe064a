#include "kfem/pipeline/memory.hpp"

#include <fmt/format.h>

#include "kfem/assembly/mapping/hex8_pairs.hpp"  // the lower-storage mapping the message suggests
#include "kfem/core/error.hpp"
#include "kfem/core/types.hpp"

namespace kfem::pipeline {
namespace {
constexpr double gib = double(1ull << 30);
}

PointMemory point_memory(const MeshCounts& m, std::int64_t nnz_full, std::int64_t nnz_stored,
                         bool lower_storage, int scalar_bytes, double element_data_bytes, bool solve) {
  const double ne = double(m.elements), nn = double(m.dof_nodes), C = m.components;
  const double rows = C * nn + 1;
  PointMemory p;
  // Vertex coordinates (a vertex per DOF node is the most there are), connectivity (8 per cell),
  // element DOF nodes, natural and colour orders.
  p.mesh = 24 * nn + ne * (4 * 8 + 4 * m.nodes_per_element + 2 * 4);
  // Node graph (a C x C block per entry of the DOF pattern), the DOF row offsets, and the stored
  // pattern's columns (lower storage: its own row offsets too; the full columns are released).
  p.pattern = 8 * (nn + 1) + 4 * double(nnz_full) / (C * C) + 8 * rows + 4 * double(nnz_stored);
  if (lower_storage) p.pattern += 8 * rows;
  p.element_data = ne * element_data_bytes;
  p.values = double(nnz_stored) * scalar_bytes;
  p.solve = solve ? 7 * C * nn * scalar_bytes : 0;
  return p;
}

double hex8_element_data_bytes(int scalar_bytes) {
  return 24.0 * scalar_bytes + 8 * sizeof(ordinal_t) + hex8_index_bytes;  // coordinates, node ids, index
}

double generic_element_data_bytes(int scalar_bytes, int vertices, int nsh, bool index_target) {
  const double index =
      index_target ? double(nsh) * nsh * sizeof(slot_t) + double(nsh) * sizeof(row_length_t) : 0;
  return 3.0 * vertices * scalar_bytes + double(nsh) * sizeof(ordinal_t) + index;
}

void check_point_memory(const std::string& where, const PointMemory& need, double free_bytes) {
  if (free_bytes <= 0 || need.later() <= free_bytes) return;
  throw InputError(fmt::format(
      "{}: the assembly needs {:.2f} GiB more device memory (values {:.2f}, per-element index and "
      "coordinates {:.2f}, CG vectors {:.2f}) on top of the mesh ({:.2f}) and pattern ({:.2f}), but {:.2f} "
      "GiB "
      "are free; try float, lower storage ({}), or fewer elements (kfem info lists what fits)",
      where, need.later() / gib, need.values / gib, need.element_data / gib, need.solve / gib,
      need.mesh / gib, need.pattern / gib, free_bytes / gib, mapping::Hex8Pairs<true>::name));
}

std::vector<std::string> hex8_capacity_lines(double free_bytes) {
  std::vector<std::string> out;
  out.push_back(fmt::format("hex8 elasticity, device bytes per element (large box, with CG){}:",
                            free_bytes > 0 ? fmt::format("; {:.1f} GiB free now", free_bytes / gib) : ""));
  const MeshCounts one{1, 1, 3, 8, 8};
  for (const bool lower : {false, true})
    for (const int s : {4, 8}) {
      // Per node: 27 neighbour blocks of 9 entries; the lower triangle keeps 13 of them + 6 diagonal-block
      // entries.
      const PointMemory p =
          point_memory(one, 243, lower ? 123 : 243, lower, s, hex8_element_data_bytes(s), true);
      std::string fits;
      if (free_bytes > 0) fits = fmt::format(", about {:.1f} M elements fit", free_bytes / p.total() / 1e6);
      out.push_back(
          fmt::format("  {} storage, {}: {:.0f} B (values {:.0f}, pattern {:.0f}, index and coordinates "
                      "{:.0f}, mesh {:.0f}, CG {:.0f}){}",
                      lower ? "lower" : "full", s == 4 ? "float" : "double", p.total(), p.values, p.pattern,
                      p.element_data, p.mesh, p.solve, fits));
    }
  return out;
}
}  // namespace kfem::pipeline
