// Structured box generators (hex, prism, tetrahedron, triangle), the paper's mesh sizes, and the
// seeded node jitter.
#include "kfem/mesh/box.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kfem/core/error.hpp"

namespace kfem {
namespace {
// Local vertex pairs forming the edges of each Gmsh-ordered cell.
constexpr int kHexEdges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                  {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
constexpr int kPrismEdges[9][2] = {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {0, 3}, {1, 4}, {2, 5}};
constexpr int kTetEdges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
constexpr int kTriEdges[3][2] = {{0, 1}, {1, 2}, {2, 0}};

// Cells per box hexahedron (tri3: per square).
int cells_per_hex(CellType cell) {
  return cell == CellType::tet4 ? 6 : cell == CellType::hex8 ? 1 : 2;
}

// Uniform in [-1, 1) from the top 53 bits: the same doubles on every standard library.
double uniform_pm1(std::mt19937_64& rng) {
  return 2.0 * double(rng() >> 11) * 0x1.0p-53 - 1.0;
}

void check_spec(const BoxSpec& s, CellType cell) {
  if (const std::string error = box_count_error(s, cell); !error.empty()) throw InputError("box: " + error);
  const double lz = cell == CellType::tri3 ? 1.0 : s.lz;
  if (!(s.lx > 0 && s.ly > 0 && lz > 0) || !std::isfinite(s.lx * s.ly * lz))
    throw InputError("box: extents must be positive and finite");
}

// The structured grid of nodes (z = 0 and one layer when flat) and its face node sets, ids ascending.
Mesh grid_nodes(const BoxSpec& s, bool flat) {
  const ordinal_t nz = flat ? 0 : s.nz;
  const std::int64_t px = s.nx + 1, py = s.ny + 1;
  Mesh mesh;
  mesh.nodes.resize(px * py * (nz + 1));
  auto& sets = mesh.node_sets;
  for (ordinal_t k = 0; k <= nz; ++k)
    for (ordinal_t j = 0; j <= s.ny; ++j)
      for (ordinal_t i = 0; i <= s.nx; ++i) {
        const auto id = ordinal_t(i + px * (j + py * k));
        mesh.nodes[id] = {s.lx * i / s.nx, s.ly * j / s.ny, flat ? 0.0 : s.lz * k / nz};
        if (i == 0) sets["xmin"].push_back(id);
        if (i == s.nx) sets["xmax"].push_back(id);
        if (j == 0) sets["ymin"].push_back(id);
        if (j == s.ny) sets["ymax"].push_back(id);
        if (!flat && k == 0) sets["zmin"].push_back(id);
        if (!flat && k == nz) sets["zmax"].push_back(id);
      }
  return mesh;
}

// Every cell in the cell set "domain": with its face node sets, a written box is then tagged
// throughout, which readers such as meshio expect of a Gmsh file with physical groups.
void name_domain(Mesh& mesh) {
  std::vector<ordinal_t>& all = mesh.cell_sets["domain"];
  all.resize(mesh.num_elements());
  for (std::size_t e = 0; e < all.size(); ++e) all[e] = ordinal_t(e);
}

double distance(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

// h[n] = shortest edge among the elements that touch node n (infinity for unused nodes).
template <std::size_t E>
std::vector<double> local_edge_length(const Mesh& mesh, const int (&edges)[E][2]) {
  const int per_element = mesh.nodes_per_element();
  std::vector<double> h(mesh.num_nodes(), std::numeric_limits<double>::infinity());
  for (const auto& el : mesh.elements) {
    double shortest = std::numeric_limits<double>::infinity();
    for (const auto& e : edges)
      shortest = std::min(shortest, distance(mesh.nodes[el[e[0]]], mesh.nodes[el[e[1]]]));
    for (int a = 0; a < per_element; ++a) h[el[a]] = std::min(h[el[a]], shortest);
  }
  return h;
}

std::vector<double> local_edge_length(const Mesh& mesh) {
  switch (mesh.cell) {
    case CellType::tri3:
      return local_edge_length(mesh, kTriEdges);
    case CellType::tet4:
      return local_edge_length(mesh, kTetEdges);
    case CellType::prism6:
      return local_edge_length(mesh, kPrismEdges);
    case CellType::hex8:
      break;
  }
  return local_edge_length(mesh, kHexEdges);
}

// A uniformly distributed point of the unit ball (rejection from the cube keeps it portable).
std::array<double, 3> unit_ball_point(std::mt19937_64& rng) {
  for (;;) {
    const std::array<double, 3> p{uniform_pm1(rng), uniform_pm1(rng), uniform_pm1(rng)};
    if (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] <= 1.0) return p;
  }
}

constexpr ordinal_t kUnused = -1;
}  // namespace

BoxSpec paper_mesh(int index) {
  constexpr ordinal_t kNx[4] = {192, 256, 400, 512};
  if (index < 1 || index > 4)
    throw InputError("paper mesh index must be 1..4 (kiran Table 3), got " + std::to_string(index));
  const ordinal_t nx = kNx[index - 1];
  return BoxSpec{nx, nx / 8, nx / 8, 16.0, 2.0, 2.0};
}

std::int64_t box_num_elements(const BoxSpec& s, CellType cell) {
  if (cell == CellType::tri3) return 2 * std::int64_t(s.nx) * s.ny;
  return cells_per_hex(cell) * std::int64_t(s.nx) * s.ny * s.nz;
}

std::int64_t box_num_nodes(const BoxSpec& s, CellType cell) {
  // 64-bit before the + 1: nx = 2^31 - 1 must not wrap
  const std::int64_t layer = (std::int64_t(s.nx) + 1) * (std::int64_t(s.ny) + 1);
  return cell == CellType::tri3 ? layer : layer * (std::int64_t(s.nz) + 1);
}

std::string box_count_error(const BoxSpec& s, CellType cell) {
  const bool flat = cell == CellType::tri3;
  if (s.nx <= 0 || s.ny <= 0 || (!flat && s.nz <= 0))
    return "element counts must be positive, got " + std::to_string(s.nx) + " x " + std::to_string(s.ny) +
           (flat ? "" : " x " + std::to_string(s.nz));
  // In double: three int32 factors can overflow int64, and only the comparison with 2^31 - 1 must be exact.
  const double nz = flat ? 1 : s.nz, limit = std::numeric_limits<ordinal_t>::max();
  const double elements = double(s.nx) * s.ny * nz * (flat ? 2 : cells_per_hex(cell));
  const double nodes = (double(s.nx) + 1) * (double(s.ny) + 1) * (flat ? 1 : nz + 1);
  const auto exceed = [&](double n, const char* what) {
    char buf[32];
    if (n < 1e15)  // exact
      std::snprintf(buf, sizeof buf, "%.0f", n);
    else
      std::snprintf(buf, sizeof buf, "%.3g", n);
    return std::string(buf) + " " + what + "s exceed the 32-bit limit of " +
           std::to_string(std::int64_t(limit)) + " " + what + " ids";
  };
  if (elements > limit) return exceed(elements, "element");
  if (nodes > limit) return exceed(nodes, "node");
  return "";
}

Mesh make_box(const BoxSpec& s, CellType cell) {
  if (cell == CellType::tri3) return make_tri_box(s.nx, s.ny, s.lx, s.ly);
  if (cell == CellType::prism6) return make_prism_box(s);
  if (cell == CellType::tet4) return make_tet_box(s);
  check_spec(s, cell);
  Mesh mesh = grid_nodes(s, false);
  mesh.cell = CellType::hex8;
  const std::int64_t px = s.nx + 1, py = s.ny + 1;
  mesh.elements.resize(box_num_elements(s));
  const auto id = [&](ordinal_t i, ordinal_t j, ordinal_t k) { return ordinal_t(i + px * (j + py * k)); };
  for (ordinal_t k = 0; k < s.nz; ++k)
    for (ordinal_t j = 0; j < s.ny; ++j)
      for (ordinal_t i = 0; i < s.nx; ++i)
        mesh.elements[i + std::int64_t(s.nx) * (j + std::int64_t(s.ny) * k)] = {
            id(i, j, k),     id(i + 1, j, k),     id(i + 1, j + 1, k),     id(i, j + 1, k),
            id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1)};
  name_domain(mesh);
  return mesh;
}

namespace {
// A checked spec's grid nodes, with room for its cells of type `cell` (each box hexahedron split).
Mesh split_box_skeleton(const BoxSpec& s, CellType cell) {
  check_spec(s, cell);
  Mesh mesh = grid_nodes(s, false);
  mesh.cell = cell;
  mesh.elements.resize(box_num_elements(s, cell));
  return mesh;
}
}  // namespace

Mesh make_prism_box(const BoxSpec& s) {
  Mesh mesh = split_box_skeleton(s, CellType::prism6);
  const std::int64_t px = s.nx + 1, py = s.ny + 1;
  const auto id = [&](ordinal_t i, ordinal_t j, ordinal_t k) { return ordinal_t(i + px * (j + py * k)); };
  for (ordinal_t k = 0; k < s.nz; ++k)
    for (ordinal_t j = 0; j < s.ny; ++j)
      for (ordinal_t i = 0; i < s.nx; ++i) {
        const std::int64_t e = 2 * (i + std::int64_t(s.nx) * (j + std::int64_t(s.ny) * k));
        mesh.elements[e] = {id(i, j, k),
                            id(i + 1, j, k),
                            id(i + 1, j + 1, k),
                            id(i, j, k + 1),
                            id(i + 1, j, k + 1),
                            id(i + 1, j + 1, k + 1),
                            kUnused,
                            kUnused};
        mesh.elements[e + 1] = {id(i, j, k),
                                id(i + 1, j + 1, k),
                                id(i, j + 1, k),
                                id(i, j, k + 1),
                                id(i + 1, j + 1, k + 1),
                                id(i, j + 1, k + 1),
                                kUnused,
                                kUnused};
      }
  name_domain(mesh);
  return mesh;
}

Mesh make_tet_box(const BoxSpec& s) {
  Mesh mesh = split_box_skeleton(s, CellType::tet4);
  const std::int64_t px = s.nx + 1, py = s.ny + 1;
  // Corner offsets (i, j, k) of each tetrahedron in its hexahedron: the path 000 -> e_a -> e_a + e_b
  // -> 111 along the axes a, b, c of one permutation, with vertices 1 and 2 swapped for the odd
  // permutations (det J = the permutation's sign before the swap).
  constexpr int kTets[6][4][3] = {
      {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}},  // x y z
      {{0, 0, 0}, {1, 0, 1}, {1, 0, 0}, {1, 1, 1}},  // x z y
      {{0, 0, 0}, {1, 1, 0}, {0, 1, 0}, {1, 1, 1}},  // y x z
      {{0, 0, 0}, {0, 1, 0}, {0, 1, 1}, {1, 1, 1}},  // y z x
      {{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}},  // z x y
      {{0, 0, 0}, {0, 1, 1}, {0, 0, 1}, {1, 1, 1}},  // z y x
  };
  for (ordinal_t k = 0; k < s.nz; ++k)
    for (ordinal_t j = 0; j < s.ny; ++j)
      for (ordinal_t i = 0; i < s.nx; ++i) {
        const std::int64_t e = 6 * (i + std::int64_t(s.nx) * (j + std::int64_t(s.ny) * k));
        for (int t = 0; t < 6; ++t) {
          auto& el = mesh.elements[e + t];
          el.fill(kUnused);
          for (int a = 0; a < 4; ++a) {
            const int* d = kTets[t][a];
            el[a] = ordinal_t(i + d[0] + px * (j + d[1] + py * (k + d[2])));
          }
        }
      }
  name_domain(mesh);
  return mesh;
}

Mesh make_tri_box(ordinal_t nx, ordinal_t ny, double lx, double ly) {
  const BoxSpec s{nx, ny, 1, lx, ly, 1.0};
  check_spec(s, CellType::tri3);
  Mesh mesh = grid_nodes(s, true);
  mesh.cell = CellType::tri3;
  const std::int64_t px = nx + 1;
  mesh.elements.resize(box_num_elements(s, CellType::tri3));
  const auto id = [&](ordinal_t i, ordinal_t j) { return ordinal_t(i + px * j); };
  for (ordinal_t j = 0; j < ny; ++j)
    for (ordinal_t i = 0; i < nx; ++i) {
      const std::int64_t e = 2 * (i + std::int64_t(nx) * j);
      mesh.elements[e] = {id(i, j), id(i + 1, j), id(i + 1, j + 1), kUnused,
                          kUnused,  kUnused,      kUnused,          kUnused};
      mesh.elements[e + 1] = {id(i, j), id(i + 1, j + 1), id(i, j + 1), kUnused,
                              kUnused,  kUnused,          kUnused,      kUnused};
    }
  name_domain(mesh);
  return mesh;
}

void distort(Mesh& mesh, double amplitude, std::uint64_t seed) {
  if (!(amplitude >= 0) || !std::isfinite(amplitude))
    throw InputError("distort: amplitude must be finite and >= 0, got " + std::to_string(amplitude));
  if (mesh.nodes.empty()) return;
  double xmin = mesh.nodes[0][0], xmax = xmin;
  for (const auto& p : mesh.nodes) xmin = std::min(xmin, p[0]), xmax = std::max(xmax, p[0]);

  const int dims = mesh.dimension();  // a 2D mesh stays in its plane
  const std::vector<double> h = local_edge_length(mesh);
  std::mt19937_64 rng(seed);
  for (std::size_t n = 0; n < mesh.nodes.size(); ++n) {
    const auto d = unit_ball_point(rng);  // drawn for every node so the stream never depends on geometry
    if (!std::isfinite(h[n])) continue;
    auto& p = mesh.nodes[n];
    const bool pinned = p[0] == xmin || p[0] == xmax;
    for (int c = pinned ? 1 : 0; c < dims; ++c) p[c] += amplitude * h[n] * d[c];
  }
}
}  // namespace kfem
