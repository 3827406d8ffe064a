// Lagrange P_p (p = 1..7) on the reference prism and tetrahedron, tabulated once per (cell, order) on
// the host by basix (FEniCSx, Debian libbasix-dev 0.5.1, equispaced variant).
// Quadrature: prisms as banas Table 1, basix's triangle rule of degree 2p times Gauss-Legendre with
// p + 1 points (N_Q = 6, 18, 48, 80, 150, 231, 336); tetrahedra basix's rule of degree 2(p - 1),
// exact for the stiffness on straight-sided tetrahedra (constant J: the integrand is a product of
// two gradients of degree p - 1), so tet4 integrates at one point.
// Reference cells: prism {x, y >= 0, x + y <= 1, 0 <= z <= 1}, vertices (0,0,0) (1,0,0) (0,1,0)
// (0,0,1) (1,0,1) (0,1,1); tetrahedron {x, y, z >= 0, x + y + z <= 1}, vertices (0,0,0) (1,0,0)
// (0,1,0) (0,0,1). Both are the Gmsh/VTK vertex orders, so mesh vertex k is basix vertex k. This
// header is C++17; the basix calls live in lagrange_basis.cpp, built as C++20 host code (basix needs
// <span>).
#pragma once
#include <array>
#include <vector>

#include "kfem/core/cell_type.hpp"

namespace kfem::lagrange {
inline constexpr int min_order = 1, max_order = 7;
inline constexpr int max_vertices = 6;  // of the cells served: prism6 6, tet4 4

// The cells with a P_p basis here.
constexpr bool has_basis(CellType c) {
  return c == CellType::prism6 || c == CellType::tet4;
}

constexpr int num_shape_functions(CellType c, int p) {
  return c == CellType::tet4 ? (p + 1) * (p + 2) * (p + 3) / 6   // 4 ... 120
                             : (p + 1) * (p + 1) * (p + 2) / 2;  // 6 ... 288
}

// The reference coordinates of vertex v (v < cell_vertices(c)).
std::array<double, 3> reference_vertex(CellType c, int v);

// The vertex functions (the P1 basis, i.e. the geometry map x = sum_v N_v(xi) X_v) at xi; entries
// from cell_vertices(c) on are zero.
std::array<double, max_vertices> vertex_functions(CellType c, const std::array<double, 3>& xi);

// Local vertex ids of the sub-entities, in basix's numbering (prism: edges 0..8; faces 0 and 4 are
// the triangles, 1..3 the quadrilaterals, whose 4 vertices are listed in tensor order: 0-1 and 2-3
// are opposite edges, so 0 and 3 are diagonal; tetrahedron: edges 0..5, faces 0..3, face f opposite
// vertex f).
const std::vector<std::array<int, 2>>& edges(CellType c);
const std::vector<std::vector<int>>& faces(CellType c);

struct Basis {
  CellType cell = CellType::prism6;
  int order = 0, nsh = 0, nq = 0, vertices = 0;
  std::vector<std::array<double, 3>> points;   // nsh: reference position of each shape function's node
  std::vector<int> entity_dim;                 // nsh: 0 vertex, 1 edge, 2 face, 3 interior
  std::vector<int> entity;                     // nsh: the entity's local index (basix numbering)
  std::vector<double> weights;                 // nq, summing to the reference volume (1/2, 1/6)
  std::vector<std::array<double, 3>> qpoints;  // nq (prism: triangle point fastest, then the z point)
  std::vector<double> values;                  // nq x nsh: N_a(x_q) at [q * nsh + a]
  std::vector<double> dshape;                  // nq x nsh x 3: dN_a/dxi_k at [(q * nsh + a) * 3 + k]
  std::vector<double> dgeo;  // nq x vertices x 3: the same for the vertex functions (geometry map)
};

// The cached tabulation of order p on cell c (built on first use, thread-safe; the reference stays
// valid for the program's lifetime). Throws InputError for a cell without a basis here or p
// outside 1..7.
const Basis& tabulate(CellType c, int p);

// N_a (n x nsh) and, if derivs is not null, dN_a/dxi_k (n x nsh x 3, layout as Basis::dshape) at
// reference points x. Throws as tabulate.
void evaluate(CellType c, int p, const std::vector<std::array<double, 3>>& x, std::vector<double>& values,
              std::vector<double>* derivs = nullptr);
}  // namespace kfem::lagrange
