#include "kfem/mesh/refine.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "kfem/core/error.hpp"

namespace kfem {
namespace {
// Local edge k of a triangle joins vertices k and (k + 1) % 3.
Mesh refine_once(const Mesh& in) {
  const std::size_t ne = in.num_elements(), nv = in.num_nodes();
  // Every (edge, triangle, local edge), keyed by its sorted vertex pair; sorting groups an edge's
  // one or two triangles together and numbers the midpoints in key order.
  struct Side {
    std::uint64_t key;
    std::uint32_t slot;  // 3 * triangle + local edge
  };
  std::vector<Side> sides(3 * ne);
  for (std::size_t e = 0; e < ne; ++e)
    for (int k = 0; k < 3; ++k) {
      std::uint64_t a = std::uint64_t(in.elements[e][k]), b = std::uint64_t(in.elements[e][(k + 1) % 3]);
      if (a > b) std::swap(a, b);
      sides[3 * e + k] = {a << 32 | b, std::uint32_t(3 * e + k)};
    }
  std::sort(sides.begin(), sides.end(), [](const Side& x, const Side& y) { return x.key < y.key; });

  Mesh out;
  out.cell = CellType::tri3;
  out.nodes = in.nodes;
  std::vector<ordinal_t> mid(3 * ne);
  std::vector<std::pair<std::uint64_t, bool>> edges;  // per midpoint: key, on the boundary
  for (std::size_t i = 0; i < sides.size();) {
    std::size_t j = i + 1;
    while (j < sides.size() && sides[j].key == sides[i].key) ++j;
    const ordinal_t m = ordinal_t(out.nodes.size());
    const auto a = in.nodes[sides[i].key >> 32], b = in.nodes[sides[i].key & 0xffffffffu];
    out.nodes.push_back({0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1]), 0.5 * (a[2] + b[2])});
    edges.emplace_back(sides[i].key, j - i == 1);
    for (std::size_t s = i; s < j; ++s) mid[sides[s].slot] = m;
    i = j;
  }

  out.elements.resize(4 * ne);
  for (std::size_t e = 0; e < ne; ++e) {
    const auto& v = in.elements[e];
    const ordinal_t m01 = mid[3 * e], m12 = mid[3 * e + 1], m20 = mid[3 * e + 2];
    const ordinal_t children[4][3] = {{v[0], m01, m20}, {m01, v[1], m12}, {m20, m12, v[2]}, {m01, m12, m20}};
    for (int c = 0; c < 4; ++c) {
      auto& row = out.elements[4 * e + c];
      row.fill(-1);
      for (int k = 0; k < 3; ++k) row[k] = children[c][k];
    }
  }

  for (const auto& [name, set] : in.node_sets) {
    std::vector<ordinal_t> s = set;
    const auto in_set = [&set = set](std::uint64_t v) {  // named capture: C++17 cannot capture a binding
      return std::binary_search(set.begin(), set.end(), ordinal_t(v));
    };
    for (std::size_t m = 0; m < edges.size(); ++m) {
      const auto [key, boundary] = edges[m];
      if (boundary && in_set(key >> 32) && in_set(key & 0xffffffffu)) s.push_back(ordinal_t(nv + m));
    }
    out.node_sets[name] = std::move(s);  // the midpoints come after every vertex: still sorted
  }
  for (const auto& [name, set] : in.cell_sets) {
    std::vector<ordinal_t> s;
    s.reserve(4 * set.size());
    for (const ordinal_t e : set)
      for (int c = 0; c < 4; ++c) s.push_back(4 * e + c);
    out.cell_sets[name] = std::move(s);
  }
  return out;
}
}  // namespace

Mesh refine_uniform(const Mesh& mesh, int times) {
  if (times < 0 || times > 8)
    throw InputError("mesh.refine: expected 0..8 refinements (got " + std::to_string(times) + ")");
  if (times > 0 && mesh.cell != CellType::tri3)
    throw InputError(
        std::string("mesh.refine: uniform refinement is implemented for tri3 meshes (this one is ") +
        cell_name(mesh.cell) + ")");
  Mesh m = mesh;
  for (int r = 0; r < times; ++r) {
    // Nodes grow by about the edge count (1.5 x triangles): check before anything is allocated.
    const double nodes = double(m.num_nodes()) + 1.5 * double(m.num_elements()) + 1;
    if (4.0 * double(m.num_elements()) > double(std::numeric_limits<ordinal_t>::max()) ||
        nodes > double(std::numeric_limits<ordinal_t>::max()))
      throw InputError("mesh.refine: " + std::to_string(times) + " refinements of " +
                       std::to_string(mesh.num_elements()) + " triangles pass kfem's 32-bit ids");
    m = refine_once(m);
  }
  return m;
}
}  // namespace kfem
