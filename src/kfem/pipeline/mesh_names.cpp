#include "kfem/pipeline/mesh_names.hpp"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <regex>
#include <string>

#include "kfem/core/error.hpp"
#include "kfem/mesh/box.hpp"

namespace kfem::pipeline {
namespace {
// One box side of mesh name `text`: digits (the regex matched them) up to the 32-bit element ids.
ordinal_t box_side(const std::string& text, const std::string& digits, const char* axis) {
  constexpr long long limit = std::numeric_limits<ordinal_t>::max();
  errno = 0;
  const long long n = std::strtoll(digits.c_str(), nullptr, 10);
  if (errno == ERANGE || n > limit)
    throw InputError("mesh '" + text + "': " + digits + " elements along " + axis +
                     " exceed the 32-bit limit of " + std::to_string(limit));
  return ordinal_t(n);
}

// The cell of an NXxNYxNZ box from its prefix: none (hex8), "prism:" or "tet:".
CellType box_cell(const std::ssub_match& prefix) {
  if (!prefix.matched) return CellType::hex8;
  return prefix == "tet:" ? CellType::tet4 : CellType::prism6;
}

MeshSpec checked_box(const std::string& text, CellType cell, const BoxSpec& box) {
  if (const std::string error = box_count_error(box, cell); !error.empty())
    throw InputError("mesh '" + text + "': " + error);
  return {text, cell, box, false, {}};
}
}  // namespace

MeshSpec parse_mesh_name(const std::string& text) {
  static const std::regex named("mesh([1-4])"), dims("(prism:|tet:)?([0-9]+)x([0-9]+)x([0-9]+)"),
      tri("tri:([0-9]+)x([0-9]+)"), capacitor("capacitor:([0-9]+(\\.[0-9]*)?([eE]\\+?[0-9]+)?)");
  if (text.size() > 4 && text.substr(text.size() - 4) == ".msh")
    return {text, CellType::hex8, std::nullopt, false, text};
  // libstdc++'s regex_match recurses once per character: a 30,000-character name overflowed the
  // stack. Every size kfem takes is far shorter ("prism:2147483647x2147483647x2147483647": 38).
  if (text.size() > 64)
    throw InputError("mesh '" + text.substr(0, 32) + "...' (" + std::to_string(text.size()) +
                     " characters): not a mesh size or a .msh file");
  std::smatch m;
  if (std::regex_match(text, m, named)) return {text, CellType::hex8, paper_mesh(std::stoi(m[1])), false, {}};
  if (std::regex_match(text, m, dims))
    return checked_box(
        text, box_cell(m[1]),
        BoxSpec{box_side(text, m[2], "x"), box_side(text, m[3], "y"), box_side(text, m[4], "z")});
  if (std::regex_match(text, m, tri)) {
    BoxSpec b{box_side(text, m[1], "x"), box_side(text, m[2], "y"), 1};
    b.lx = 2.0, b.ly = 1.0;
    return checked_box(text, CellType::tri3, b);
  }
  if (text == "capacitor") return {text, CellType::tri3, std::nullopt, true, {}};
  if (std::regex_match(text, m, capacitor)) {
    const double n = std::strtod(m[1].str().c_str(), nullptr);  // HUGE_VAL past the double range
    constexpr double limit = std::numeric_limits<ordinal_t>::max();
    if (!(n >= 100)) throw InputError("mesh '" + text + "': expected at least 100 triangles");
    if (!(n <= limit))
      throw InputError("mesh '" + text + "': more triangles than the 32-bit limit of " +
                       std::to_string(std::int64_t(limit)) + " element ids");
    return {text, CellType::tri3, std::nullopt, true, {}, n};
  }
  throw InputError("mesh '" + text +
                   "': expected mesh1..mesh4, NXxNYxNZ (hex8), prism:NXxNYxNZ, tet:NXxNYxNZ, tri:NXxNY, "
                   "capacitor[:TRIANGLES] or a .msh file");
}

void check_dof_count(const MeshSpec& spec, int order, int components) {
  if (!spec.box) return;
  const double limit = std::numeric_limits<ordinal_t>::max();
  const BoxSpec& b = *spec.box;
  // Prisms and tetrahedra take any order on their linear box, and the P_q nodes of both splits are
  // exactly the points of the box grid refined q times: every prism and every Kuhn tetrahedron is
  // spanned from a vertex by edges that form a basis of the grid, so its P_q nodes are the refined
  // grid's points inside it.
  const bool any_order = spec.cell == CellType::prism6 || spec.cell == CellType::tet4;
  const int q = any_order ? order : 1;
  const double nodes = any_order ? (double(q) * b.nx + 1) * (double(q) * b.ny + 1) * (double(q) * b.nz + 1)
                                 : double(box_num_nodes(b, spec.cell));
  if (components * nodes > limit)
    throw InputError("mesh '" + spec.name + "'" + (q > 1 ? " at order " + std::to_string(q) : "") + ": " +
                     std::to_string(std::llround(components * nodes)) + " DOFs (" +
                     std::to_string(components) + " per node) exceed the 32-bit limit of " +
                     std::to_string(std::int64_t(limit)) + " DOF ids");
}
}  // namespace kfem::pipeline
