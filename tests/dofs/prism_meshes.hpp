// Small prism meshes for the dofs tests: hex boxes split into two prisms per hex, and the same
// meshes with every element's local vertex order changed (rotations and top/bottom flips keep a
// prism valid) or with the vertices renumbered, to exercise the orientation logic.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "kfem/mesh/box.hpp"
#include "kfem/mesh/mesh.hpp"

namespace kfem::test {
// Each Gmsh-ordered hex (0-3 bottom, counter-clockwise; 4-7 above) becomes the prisms
// (0,1,2,4,5,6) and (0,2,3,4,6,7): all hexes cut their bottom and top faces along the same
// diagonal, so the prisms are conforming.
inline Mesh split_hexes(const Mesh& hex) {
  Mesh m;
  m.cell = CellType::prism6;
  m.nodes = hex.nodes;
  for (const auto& h : hex.elements) {
    m.elements.push_back({h[0], h[1], h[2], h[4], h[5], h[6], -1, -1});
    m.elements.push_back({h[0], h[2], h[3], h[4], h[6], h[7], -1, -1});
  }
  return m;
}

inline Mesh prism_box(ordinal_t nx, ordinal_t ny, ordinal_t nz, double amplitude = 0.0,
                      std::uint64_t seed = 1) {
  BoxSpec s;
  s.nx = nx, s.ny = ny, s.nz = nz;
  s.lx = 1.0 * nx, s.ly = 0.8 * ny, s.lz = 0.6 * nz;
  Mesh hex = make_box(s);
  if (amplitude > 0) distort(hex, amplitude, seed);
  return split_hexes(hex);
}

// The 6 orientation-preserving symmetries of the prism: new local vertex i = old vertex perm[i].
inline constexpr int kPrismSymmetries[6][6] = {
    {0, 1, 2, 3, 4, 5}, {1, 2, 0, 4, 5, 3}, {2, 0, 1, 5, 3, 4},  // rotations about the axis
    {3, 5, 4, 0, 2, 1}, {4, 3, 5, 1, 0, 2}, {5, 4, 3, 2, 1, 0},  // top/bottom flips
};

inline void reorient_elements(Mesh& m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (auto& e : m.elements) {
    const auto old = e;
    const auto& perm = kPrismSymmetries[rng() % 6];
    for (int i = 0; i < 6; ++i) e[i] = old[perm[i]];
  }
}

inline void renumber_vertices(Mesh& m, std::uint64_t seed) {
  std::vector<ordinal_t> perm(m.num_nodes());
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937_64(seed));
  std::vector<std::array<double, 3>> nodes(m.num_nodes());
  for (std::size_t v = 0; v < perm.size(); ++v) nodes[perm[v]] = m.nodes[v];
  m.nodes = nodes;
  for (auto& e : m.elements)
    for (int i = 0; i < m.nodes_per_element(); ++i) e[i] = perm[e[i]];
}

enum class Variant { plain, reoriented, renumbered, both };
inline const char* variant_name(Variant v) {
  return v == Variant::plain        ? "plain"
         : v == Variant::reoriented ? "reoriented"
         : v == Variant::renumbered ? "renumbered"
                                    : "both";
}
inline Mesh apply(Mesh m, Variant v) {
  if (v == Variant::reoriented || v == Variant::both) reorient_elements(m, 7);
  if (v == Variant::renumbered || v == Variant::both) renumber_vertices(m, 11);
  return m;
}

// Signed volume of a prism's geometry map at its centroid (sign check of reorient_elements).
inline double centroid_jacobian(const Mesh& m, std::size_t e) {
  const auto& v = m.elements[e];
  auto X = [&](int a) { return m.nodes[v[a]]; };
  double J[3][3];
  for (int i = 0; i < 3; ++i) {
    const double c0 = 0.5 * (X(0)[i] + X(3)[i]), c1 = 0.5 * (X(1)[i] + X(4)[i]),
                 c2 = 0.5 * (X(2)[i] + X(5)[i]);
    J[i][0] = c1 - c0, J[i][1] = c2 - c0;
    J[i][2] = (X(3)[i] + X(4)[i] + X(5)[i] - X(0)[i] - X(1)[i] - X(2)[i]) / 3.0;
  }
  return J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
         J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
         J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
}
}  // namespace kfem::test
