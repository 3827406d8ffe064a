// Assembled-level element checks through the oracle: the patch test on a distorted box and a
// 2x2x2 unit-cube mesh whose diagonal and pattern can be worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "kfem/assembly/reference.hpp"
#include "kfem/mesh/box.hpp"

namespace kfem {
namespace {
double diagonal(const HostCsr<double>& K, ordinal_t row) {
  const auto first = K.cols.begin() + K.row_map[row], last = K.cols.begin() + K.row_map[row + 1];
  const auto it = std::lower_bound(first, last, row);
  EXPECT_TRUE(it != last && *it == row) << "row " << row << " has no diagonal";
  return K.vals[it - K.cols.begin()];
}

ordinal_t row_length(const HostCsr<double>& K, ordinal_t row) {
  return ordinal_t(K.row_map[row + 1] - K.row_map[row]);
}

// A linear displacement is reproduced exactly by trilinear elements, so the internal forces of
// every node whose patch is complete (not on the boundary) cancel, however distorted the mesh.
TEST(PatchTest, LinearFieldGivesZeroForceAtInteriorNodes) {
  const BoxSpec spec{3, 3, 3, 1.0, 1.0, 1.0};
  Mesh mesh = make_box(spec);
  distort(mesh, 0.15, 5);  // keeps node ids, so (i,j,k) still identifies boundary nodes
  const HostCsr<double> K = assemble_reference_hex8(mesh, Isotropic<double>::from_young(200e9, 0.3));

  const double A[3][3] = {{0.3, -0.7, 0.2}, {0.5, 0.1, -0.4}, {-0.6, 0.9, 0.25}}, c[3] = {0.1, -0.2, 0.3};
  std::vector<double> u(K.num_rows);
  double umax = 0, kmax = 0;
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n)
    for (int i = 0; i < 3; ++i) {
      u[3 * n + i] = c[i];
      for (int j = 0; j < 3; ++j) u[3 * n + i] += A[i][j] * mesh.nodes[n][j];
      umax = std::max(umax, std::abs(u[3 * n + i]));
    }
  for (double v : K.vals) kmax = std::max(kmax, std::abs(v));

  const double tol = 1e-8 * kmax * umax;
  double boundary_max = 0;
  int interior = 0;
  for (ordinal_t row = 0; row < K.num_rows; ++row) {
    double f = 0;
    for (offset_t k = K.row_map[row]; k < K.row_map[row + 1]; ++k) f += K.vals[k] * u[K.cols[k]];
    const ordinal_t n = row / 3, i = n % 4, j = n / 4 % 4, l = n / 16;
    const bool inside = i > 0 && i < 3 && j > 0 && j < 3 && l > 0 && l < 3;
    if (inside) {
      EXPECT_LE(std::abs(f), tol) << "interior node " << n << " component " << row % 3;
      ++interior;
    } else {
      boundary_max = std::max(boundary_max, std::abs(f));
    }
  }
  EXPECT_EQ(interior, 2 * 2 * 2 * 3);
  EXPECT_GT(boundary_max, 1e3 * tol) << "boundary tractions vanish too: the test would prove nothing";
}

// Unit cube, E = 1, nu = 0: lambda = 0, mu = 1/2. For node 0 (at the origin), N_0 = (1-x)(1-y)(1-z),
// so g_x = -(1-y)(1-z) and  integral g_x^2 = (int (1-y)^2 dy)(int (1-z)^2 dz) = 1/3 * 1/3 = 1/9,
// likewise for g_y^2 and g_z^2 (2x2x2 Gauss is exact for these quadratics). Hence
//   K(0,0) = integral (lambda + 2 mu) g_x^2 + mu g_y^2 + mu g_z^2 = 1/9 + 1/18 + 1/18 = 2/9,
// and by the cube's symmetries every diagonal entry of Ke is 2/9.
constexpr double kUnitCubeDiagonal = 2.0 / 9.0;

TEST(HandCheck, TwoByTwoByTwoUnitCubes) {
  const Mesh mesh = make_box(BoxSpec{2, 2, 2, 2.0, 2.0, 2.0});
  const Isotropic<double> m = Isotropic<double>::from_young(1.0, 0.0);
  ASSERT_EQ(m.lambda, 0.0);
  ASSERT_EQ(m.mu, 0.5);

  double Ke[24][24];
  reference_hex8_matrix(hex8_coords(mesh, 0), m, Ke);
  for (int i = 0; i < 24; ++i) EXPECT_NEAR(Ke[i][i], kUnitCubeDiagonal, 1e-15) << "dof " << i;

  const HostCsr<double> K = assemble_reference_hex8(mesh, m);
  const ordinal_t corner = 0, centre = 1 + 3 * (1 + 3 * 1);  // node id i + 3 (j + 3 k)
  for (int c = 0; c < 3; ++c) {
    // The corner belongs to one element, the centre to all eight (each sees it as a different corner).
    EXPECT_NEAR(diagonal(K, 3 * corner + c), kUnitCubeDiagonal, 1e-15);
    EXPECT_NEAR(diagonal(K, 3 * centre + c), 8 * kUnitCubeDiagonal, 1e-14);
    EXPECT_EQ(row_length(K, 3 * corner + c), 8 * 3);
    EXPECT_EQ(row_length(K, 3 * centre + c), 27 * 3);
  }
  // Per direction an end node sees 2 node layers and the middle one 3: sum of degrees = (2+3+2)^3.
  EXPECT_EQ(K.nnz(), offset_t(9 * 7 * 7 * 7));
}
}  // namespace
}  // namespace kfem
