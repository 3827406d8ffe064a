// Structured box generator, the paper's mesh sizes, and the seeded node jitter.
#include "kfem/mesh/box.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "kfem/core/error.hpp"

namespace kfem {
namespace {
// Local corner pairs forming the 12 edges of a Gmsh-ordered hex.
constexpr int kEdges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                               {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

// Uniform in [-1, 1) from the top 53 bits: the same doubles on every standard library.
double uniform_pm1(std::mt19937_64& rng) {
  return 2.0 * double(rng() >> 11) * 0x1.0p-53 - 1.0;
}

void check_spec(const BoxSpec& s) {
  if (s.nx <= 0 || s.ny <= 0 || s.nz <= 0)
    throw InputError("box: element counts must be positive, got " + std::to_string(s.nx) + " x " +
                     std::to_string(s.ny) + " x " + std::to_string(s.nz));
  if (!(s.lx > 0 && s.ly > 0 && s.lz > 0) || !std::isfinite(s.lx * s.ly * s.lz))
    throw InputError("box: extents must be positive and finite");
  if (box_num_nodes(s) > std::numeric_limits<ordinal_t>::max())
    throw InputError("box: " + std::to_string(box_num_nodes(s)) + " nodes exceed the 32-bit node ids");
}

double distance(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

// h[n] = shortest edge among the elements that touch node n (infinity for unused nodes).
std::vector<double> local_edge_length(const HexMesh& mesh) {
  std::vector<double> h(mesh.num_nodes(), std::numeric_limits<double>::infinity());
  for (const auto& el : mesh.elements) {
    double shortest = std::numeric_limits<double>::infinity();
    for (const auto& e : kEdges)
      shortest = std::min(shortest, distance(mesh.nodes[el[e[0]]], mesh.nodes[el[e[1]]]));
    for (ordinal_t n : el) h[n] = std::min(h[n], shortest);
  }
  return h;
}

// A uniformly distributed point of the unit ball (rejection from the cube keeps it portable).
std::array<double, 3> unit_ball_point(std::mt19937_64& rng) {
  for (;;) {
    const std::array<double, 3> p{uniform_pm1(rng), uniform_pm1(rng), uniform_pm1(rng)};
    if (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] <= 1.0) return p;
  }
}
}  // namespace

BoxSpec paper_mesh(int index) {
  constexpr ordinal_t kNx[4] = {192, 256, 400, 512};
  if (index < 1 || index > 4)
    throw InputError("paper mesh index must be 1..4 (kiran Table 3), got " + std::to_string(index));
  const ordinal_t nx = kNx[index - 1];
  return BoxSpec{nx, nx / 8, nx / 8, 16.0, 2.0, 2.0};
}

std::int64_t box_num_elements(const BoxSpec& s) {
  return std::int64_t(s.nx) * s.ny * s.nz;
}

std::int64_t box_num_nodes(const BoxSpec& s) {
  return std::int64_t(s.nx + 1) * (s.ny + 1) * (s.nz + 1);
}

HexMesh make_box(const BoxSpec& s) {
  check_spec(s);
  const std::int64_t px = s.nx + 1, py = s.ny + 1;
  HexMesh mesh;
  mesh.nodes.resize(box_num_nodes(s));
  for (ordinal_t k = 0; k <= s.nz; ++k)
    for (ordinal_t j = 0; j <= s.ny; ++j)
      for (ordinal_t i = 0; i <= s.nx; ++i)
        mesh.nodes[i + px * (j + py * k)] = {s.lx * i / s.nx, s.ly * j / s.ny, s.lz * k / s.nz};

  mesh.elements.resize(box_num_elements(s));
  const auto id = [&](ordinal_t i, ordinal_t j, ordinal_t k) { return ordinal_t(i + px * (j + py * k)); };
  for (ordinal_t k = 0; k < s.nz; ++k)
    for (ordinal_t j = 0; j < s.ny; ++j)
      for (ordinal_t i = 0; i < s.nx; ++i)
        mesh.elements[i + std::int64_t(s.nx) * (j + std::int64_t(s.ny) * k)] = {
            id(i, j, k),     id(i + 1, j, k),     id(i + 1, j + 1, k),     id(i, j + 1, k),
            id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1)};
  return mesh;
}

void distort(HexMesh& mesh, double amplitude, std::uint64_t seed) {
  if (!(amplitude >= 0) || !std::isfinite(amplitude))
    throw InputError("distort: amplitude must be finite and >= 0, got " + std::to_string(amplitude));
  if (mesh.nodes.empty()) return;
  double xmin = mesh.nodes[0][0], xmax = xmin;
  for (const auto& p : mesh.nodes) xmin = std::min(xmin, p[0]), xmax = std::max(xmax, p[0]);

  const std::vector<double> h = local_edge_length(mesh);
  std::mt19937_64 rng(seed);
  for (std::size_t n = 0; n < mesh.nodes.size(); ++n) {
    const auto d = unit_ball_point(rng);  // drawn for every node so the stream never depends on geometry
    if (!std::isfinite(h[n])) continue;
    auto& p = mesh.nodes[n];
    const bool pinned = p[0] == xmin || p[0] == xmax;
    for (int c = pinned ? 1 : 0; c < 3; ++c) p[c] += amplitude * h[n] * d[c];
  }
}
}  // namespace kfem
