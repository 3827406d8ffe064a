// Lagrange P_p on the reference prism (p = 1..7), tabulated once on the host by basix (FEniCSx,
// Debian libbasix-dev 0.5.1, equispaced variant). Quadrature as banas Table 1: basix's triangle rule
// of degree 2p times Gauss-Legendre with p + 1 points (N_Q = 6, 18, 48, 80, 150, 231, 336).
// Reference prism: {x, y >= 0, x + y <= 1, 0 <= z <= 1}, vertices (0,0,0) (1,0,0) (0,1,0) (0,0,1)
// (1,0,1) (0,1,1): the Gmsh/VTK wedge order, so mesh vertex k is basix vertex k. This header is
// C++17; the basix calls live in prism_basis.cpp, built as C++20 host code (basix needs <span>).
#pragma once
#include <array>
#include <vector>

namespace kfem::prism {
inline constexpr int min_order = 1, max_order = 7;
inline constexpr int num_vertices = 6;

constexpr int num_shape_functions(int p) {
  return (p + 1) * (p + 1) * (p + 2) / 2;
}  // 6 ... 288

inline constexpr double reference_vertices[num_vertices][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0},
                                                               {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};

// The 6 vertex functions (the P1 basis, i.e. the geometry map x = sum_v N_v(xi) X_v) at xi.
inline std::array<double, num_vertices> vertex_functions(const std::array<double, 3>& xi) {
  const double l[3] = {1 - xi[0] - xi[1], xi[0], xi[1]};
  std::array<double, num_vertices> n{};
  for (int v = 0; v < 3; ++v) n[v] = l[v] * (1 - xi[2]), n[v + 3] = l[v] * xi[2];
  return n;
}

// Local vertex ids of the sub-entities, in basix's numbering (edges 0..8; faces 0 and 4 are the
// triangles, 1..3 the quadrilaterals, whose 4 vertices are listed in tensor order: 0-1 and 2-3
// are opposite edges, so 0 and 3 are diagonal).
const std::vector<std::array<int, 2>>& edges();
const std::vector<std::vector<int>>& faces();

struct Basis {
  int order = 0, nsh = 0, nq = 0;
  std::vector<std::array<double, 3>> points;   // nsh: reference position of each shape function's node
  std::vector<int> entity_dim;                 // nsh: 0 vertex, 1 edge, 2 face, 3 interior
  std::vector<int> entity;                     // nsh: the entity's local index (basix numbering)
  std::vector<double> weights;                 // nq, summing to 1/2 (the reference volume)
  std::vector<std::array<double, 3>> qpoints;  // nq (triangle point fastest, then the z point)
  std::vector<double> values;                  // nq x nsh: N_a(x_q) at [q * nsh + a]
  std::vector<double> dshape;                  // nq x nsh x 3: dN_a/dxi_k at [(q * nsh + a) * 3 + k]
  std::vector<double> dgeo;  // nq x 6 x 3: the same for the 6 vertex functions (geometry map)
};

// The cached tabulation of order p (built on first use, thread-safe; the reference stays valid
// for the program's lifetime). Throws InputError for p outside 1..7.
const Basis& tabulate(int p);

// N_a (n x nsh) and, if derivs is not null, dN_a/dxi_k (n x nsh x 3, layout as Basis::dshape) at
// reference points x. Throws InputError for p outside 1..7.
void evaluate(int p, const std::vector<std::array<double, 3>>& x, std::vector<double>& values,
              std::vector<double>* derivs = nullptr);
}  // namespace kfem::prism
