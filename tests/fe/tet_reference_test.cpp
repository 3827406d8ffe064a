// The tetrahedron oracle (reference_lagrange_matrix on tet4 cells, P_p by basix): P1 against the
// textbook closed form (constant gradients from the inverse of the vertex matrix, Ke = V B^T D B),
// and for p = 1..7 the quadrature volume, the energy of every linear displacement (exact:
// u^T Ke u = V eps : D : eps) and the 6 rigid-body modes in Ke's null space, on a skewed element.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "kfem/assembly/reference.hpp"
#include "kfem/core/error.hpp"
#include "kfem/fe/lagrange_basis.hpp"

namespace kfem {
namespace {
const Isotropic<double> kSteel = Isotropic<double>::from_young(200e9, 0.3);

// A skewed tetrahedron, positively oriented, far from the origin.
CellCoords skewed() {
  CellCoords X{};
  X[0] = {10.0, -3.0, 2.0};
  X[1] = {11.2, -2.9, 2.1};
  X[2] = {10.3, -1.8, 2.2};
  X[3] = {10.2, -2.7, 3.3};
  return X;
}

double volume(const CellCoords& X) {
  double a[3], b[3], c[3];
  for (int k = 0; k < 3; ++k) a[k] = X[1][k] - X[0][k], b[k] = X[2][k] - X[0][k], c[k] = X[3][k] - X[0][k];
  return (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
          a[2] * (b[0] * c[1] - b[1] * c[0])) /
         6;
}

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

TEST(TetReference, P1MatchesTheClosedForm) {
  const CellCoords X = skewed();
  // Gradients of the barycentric coordinates: rows 1..3 of inv([1 x y z]) by Cramer, done via
  // the edge matrix E (rows X_v - X_0): grad l_v = column v-1 of E^-1, grad l_0 = -sum.
  double E[3][3], inv[3][3];
  for (int v = 0; v < 3; ++v)
    for (int k = 0; k < 3; ++k) E[v][k] = X[v + 1][k] - X[0][k];
  const double det = E[0][0] * (E[1][1] * E[2][2] - E[1][2] * E[2][1]) -
                     E[0][1] * (E[1][0] * E[2][2] - E[1][2] * E[2][0]) +
                     E[0][2] * (E[1][0] * E[2][1] - E[1][1] * E[2][0]);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      inv[j][i] = (E[i1][j1] * E[i2][j2] - E[i1][j2] * E[i2][j1]) / det;  // (E^-1)(j, i)
    }
  double g[4][3] = {};
  for (int v = 1; v < 4; ++v)
    for (int k = 0; k < 3; ++k) g[v][k] = inv[k][v - 1], g[0][k] -= g[v][k];
  double B[6][12] = {}, D[6][6];
  for (int a = 0; a < 4; ++a) {
    B[0][3 * a] = g[a][0], B[1][3 * a + 1] = g[a][1], B[2][3 * a + 2] = g[a][2];
    B[3][3 * a] = g[a][1], B[3][3 * a + 1] = g[a][0];
    B[4][3 * a + 1] = g[a][2], B[4][3 * a + 2] = g[a][1];
    B[5][3 * a] = g[a][2], B[5][3 * a + 2] = g[a][0];
  }
  kSteel.voigt(D);
  std::vector<double> K;
  reference_lagrange_matrix(lagrange::tabulate(CellType::tet4, 1), X, kSteel, K);
  ASSERT_EQ(K.size(), 144u);
  const double V = det / 6, tol = 1e-13 * max_abs(K);
  EXPECT_NEAR(V, volume(X), 1e-15);
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) {
      double s = 0;
      for (int k = 0; k < 6; ++k)
        for (int l = 0; l < 6; ++l) s += B[k][i] * D[k][l] * B[l][j];
      EXPECT_NEAR(K[std::size_t(i) * 12 + j], V * s, tol) << i << ", " << j;
    }
}

class TetReferenceOrder : public ::testing::TestWithParam<int> {};

TEST_P(TetReferenceOrder, QuadratureVolume) {
  const lagrange::Basis& b = lagrange::tabulate(CellType::tet4, GetParam());
  double w = 0;
  for (double x : b.weights) w += x;
  EXPECT_NEAR(w, 1.0 / 6, 1e-15);
  EXPECT_EQ(b.vertices, 4);
}

// Linear fields u = G x + c: Ke u = exactly the energy V eps:D:eps (u^T Ke u), and zero for the
// rigid ones (translations and infinitesimal rotations: G antisymmetric).
TEST_P(TetReferenceOrder, LinearFieldsAndRigidModes) {
  const int p = GetParam();
  const lagrange::Basis& b = lagrange::tabulate(CellType::tet4, p);
  const CellCoords X = skewed();
  std::vector<double> K;
  reference_lagrange_matrix(b, X, kSteel, K);
  const int n = 3 * b.nsh;
  std::vector<std::array<double, 3>> x(std::size_t(b.nsh));  // physical node positions
  for (int a = 0; a < b.nsh; ++a) {
    const auto N = lagrange::vertex_functions(CellType::tet4, b.points[std::size_t(a)]);
    x[std::size_t(a)] = {0, 0, 0};
    for (int v = 0; v < 4; ++v)
      for (int k = 0; k < 3; ++k) x[std::size_t(a)][k] += N[v] * X[v][k];
  }
  const auto field = [&](const double G[3][3], const double c[3]) {
    std::vector<double> u(static_cast<std::size_t>(n));
    for (int a = 0; a < b.nsh; ++a)
      for (int i = 0; i < 3; ++i)
        u[3 * a + i] = c[i] + G[i][0] * x[a][0] + G[i][1] * x[a][1] + G[i][2] * x[a][2];
    return u;
  };
  const auto apply = [&](const std::vector<double>& u) {
    std::vector<double> y(static_cast<std::size_t>(n), 0.0);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) y[i] += K[std::size_t(i) * n + j] * u[j];
    return y;
  };
  const double scale = max_abs(K);
  {
    const double G[3][3] = {{0, 0.3, -0.2}, {-0.3, 0, 0.7}, {0.2, -0.7, 0}}, c[3] = {1, -2, 0.5};
    const auto y = apply(field(G, c));
    EXPECT_LT(max_abs(y), 1e-11 * scale * 15) << "rigid mode";
  }
  const double G[3][3] = {{1e-3, 2e-4, -5e-4}, {3e-4, -2e-3, 1e-4}, {7e-4, 4e-4, 5e-4}}, c[3] = {0, 0, 0};
  const auto u = field(G, c);
  const auto y = apply(u);
  double energy = 0;
  for (int i = 0; i < n; ++i) energy += u[i] * y[i];
  const double eps[6] = {G[0][0], G[1][1], G[2][2], G[0][1] + G[1][0], G[1][2] + G[2][1], G[2][0] + G[0][2]};
  double D[6][6], exact = 0;
  kSteel.voigt(D);
  for (int k = 0; k < 6; ++k)
    for (int l = 0; l < 6; ++l) exact += eps[k] * D[k][l] * eps[l];
  exact *= volume(X);
  EXPECT_NEAR(energy, exact, 1e-10 * exact);
}

TEST(TetReference, InvertedTetIsRefused) {
  CellCoords X = skewed();
  std::swap(X[1], X[2]);
  std::vector<double> K;
  EXPECT_THROW(reference_lagrange_matrix(lagrange::tabulate(CellType::tet4, 2), X, kSteel, K), InputError);
}

INSTANTIATE_TEST_SUITE_P(Orders, TetReferenceOrder,
                         ::testing::Range(lagrange::min_order, lagrange::max_order + 1),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return "P" + std::to_string(info.param);
                         });
}  // namespace
}  // namespace kfem
