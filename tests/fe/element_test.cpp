// Properties of the hex8 element stiffness: symmetry, rigid-body null space, positive
// semi-definiteness, quadrature volume, shape functions; block form vs the B^T D B oracle.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "kfem/assembly/reference.hpp"
#include "kfem/fe/elasticity.hpp"
#include "kfem/fe/hex8.hpp"

namespace kfem {
namespace {
template <class S>
using Coords = std::array<std::array<S, 3>, 8>;
template <class S>
struct Mat24 {
  S v[24][24];
};

// Reference corner a in [0,1]^3 (Gmsh order).
double corner(int a, int dir) {
  return 0.5 * (1 + hex8::node_sign(a, dir));
}

// x = origin + sum_dir corner(a,dir) * edge[dir]: a parallelepiped spanned by three edge vectors.
Hex8Coords parallelepiped(const double edge[3][3]) {
  Hex8Coords X;
  for (int a = 0; a < 8; ++a)
    for (int j = 0; j < 3; ++j)
      X[a][j] = 0.3 * j + corner(a, 0) * edge[0][j] + corner(a, 1) * edge[1][j] + corner(a, 2) * edge[2][j];
  return X;
}

struct Element {
  std::string name;
  Hex8Coords X;
  double volume;  // exact volume, or < 0 where there is no closed form at hand
};

void PrintTo(const Element& e, std::ostream* os) {
  *os << e.name;
}  // instead of a byte dump

std::vector<Element> elements() {
  const double unit[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const double box[3][3] = {{2, 0, 0}, {0, 0.5, 0}, {0, 0, 3}};
  const double sheared[3][3] = {{1.5, 0.2, -0.1}, {0.4, 0.8, 0.3}, {-0.2, 0.5, 1.2}};
  const double det = sheared[0][0] * (sheared[1][1] * sheared[2][2] - sheared[1][2] * sheared[2][1]) -
                     sheared[0][1] * (sheared[1][0] * sheared[2][2] - sheared[1][2] * sheared[2][0]) +
                     sheared[0][2] * (sheared[1][0] * sheared[2][1] - sheared[1][1] * sheared[2][0]);
  // Not a parallelepiped: every corner moved independently (non-planar faces, varying det J).
  Hex8Coords distorted = parallelepiped(sheared);
  const double jitter[8][3] = {{0.10, -0.05, 0.02},  {-0.08, 0.06, 0.04},  {0.03, 0.09, -0.07},
                               {0.05, -0.02, 0.11},  {-0.06, 0.04, -0.09}, {0.12, 0.01, 0.05},
                               {-0.04, -0.10, 0.03}, {0.07, 0.08, -0.04}};
  for (int a = 0; a < 8; ++a)
    for (int j = 0; j < 3; ++j) distorted[a][j] += jitter[a][j];
  return {{"UnitCube", parallelepiped(unit), 1.0},
          {"Box", parallelepiped(box), 2 * 0.5 * 3},
          {"Sheared", parallelepiped(sheared), std::abs(det)},
          {"Distorted", distorted, -1.0}};
}

// Ke through the production path: per Gauss point J, J^-1, gradients, then add_block per node pair.
template <class S>
Mat24<S> block_matrix(const Coords<S>& X, const Isotropic<S>& m) {
  S g[hex8::num_qp][8][3], wd[hex8::num_qp];
  for (int q = 0; q < hex8::num_qp; ++q) {
    S J[3][3], Jinv[3][3];
    hex8::jacobian<S>(X, q, J);
    wd[q] = hex8::invert3<S>(J, Jinv);  // Gauss weights are 1
    for (int a = 0; a < 8; ++a) hex8::gradient<S>(Jinv, q, a, g[q][a]);
  }
  Mat24<S> K;
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) {
      S block[3][3] = {};
      for (int q = 0; q < hex8::num_qp; ++q) elasticity::add_block<S>(m, wd[q], g[q][a], g[q][b], block);
      for (int c = 0; c < 3; ++c)
        for (int d = 0; d < 3; ++d) K.v[3 * a + c][3 * b + d] = block[c][d];
    }
  return K;
}

Mat24<double> oracle_matrix(const Hex8Coords& X, const Isotropic<double>& m) {
  Mat24<double> K;
  reference_hex8_matrix(X, m, K.v);
  return K;
}

template <class S>
double max_abs(const Mat24<S>& K) {
  double r = 0;
  for (const auto& row : K.v)
    for (S x : row) r = std::max(r, std::abs(double(x)));
  return r;
}

template <class S>
double max_diff(const Mat24<S>& A, const Mat24<double>& B) {
  double r = 0;
  for (int i = 0; i < 24; ++i)
    for (int j = 0; j < 24; ++j) r = std::max(r, std::abs(double(A.v[i][j]) - B.v[i][j]));
  return r;
}

double norm(const double* v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += v[i] * v[i];
  return std::sqrt(s);
}

// Eigenvalues of a symmetric matrix by cyclic Jacobi rotations (small, robust, no dependency).
std::array<double, 24> jacobi_eigenvalues(Mat24<double> A) {
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (int p = 0; p < 24; ++p)
      for (int q = p + 1; q < 24; ++q) off += A.v[p][q] * A.v[p][q];
    if (off <= 1e-32 * max_abs(A) * max_abs(A)) break;
    for (int p = 0; p < 24; ++p)
      for (int q = p + 1; q < 24; ++q) {
        if (A.v[p][q] == 0) continue;
        const double theta = (A.v[q][q] - A.v[p][p]) / (2 * A.v[p][q]);
        const double t = (theta >= 0 ? 1 : -1) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < 24; ++k) {  // A <- A P, then A <- P^T A
          const double kp = A.v[k][p], kq = A.v[k][q];
          A.v[k][p] = c * kp - s * kq, A.v[k][q] = s * kp + c * kq;
        }
        for (int k = 0; k < 24; ++k) {
          const double pk = A.v[p][k], qk = A.v[q][k];
          A.v[p][k] = c * pk - s * qk, A.v[q][k] = s * pk + c * qk;
        }
      }
  }
  std::array<double, 24> ev;
  for (int i = 0; i < 24; ++i) ev[i] = A.v[i][i];
  std::sort(ev.begin(), ev.end());
  return ev;
}

// 3 translations and 3 infinitesimal rotations u = w x X.
std::array<std::array<double, 24>, 6> rigid_modes(const Hex8Coords& X) {
  std::array<std::array<double, 24>, 6> r{};
  for (int k = 0; k < 3; ++k)
    for (int a = 0; a < 8; ++a) {
      r[k][3 * a + k] = 1;
      const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;  // (e_k x X)_k1 = -X_k2, (e_k x X)_k2 = X_k1
      r[3 + k][3 * a + k1] = -X[a][k2];
      r[3 + k][3 * a + k2] = X[a][k1];
    }
  return r;
}

const Isotropic<double> kMaterial = Isotropic<double>::from_young(200e9, 0.3);

class ElementProperties : public ::testing::TestWithParam<Element> {};

TEST_P(ElementProperties, OracleAndBlockFormAreSymmetric) {
  const Mat24<double> forms[2] = {oracle_matrix(GetParam().X, kMaterial),
                                  block_matrix(GetParam().X, kMaterial)};
  for (const auto& K : forms) {
    const double tol = 1e-14 * max_abs(K);
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < i; ++j) EXPECT_LE(std::abs(K.v[i][j] - K.v[j][i]), tol) << i << "," << j;
  }
}

TEST_P(ElementProperties, BlockFormEqualsBtDB) {
  const Mat24<double> R = oracle_matrix(GetParam().X, kMaterial);
  EXPECT_LE(max_diff(block_matrix(GetParam().X, kMaterial), R), 1e-13 * max_abs(R));
}

TEST_P(ElementProperties, RigidBodyModesAreInTheNullSpace) {
  const Mat24<double> K = oracle_matrix(GetParam().X, kMaterial);
  double frob = 0;
  for (const auto& row : K.v) frob += norm(row, 24) * norm(row, 24);
  frob = std::sqrt(frob);
  const auto modes = rigid_modes(GetParam().X);
  for (std::size_t m = 0; m < modes.size(); ++m) {
    double Kr[24];
    for (int i = 0; i < 24; ++i) {
      Kr[i] = 0;
      for (int j = 0; j < 24; ++j) Kr[i] += K.v[i][j] * modes[m][j];
    }
    EXPECT_LE(norm(Kr, 24), 1e-10 * frob * norm(modes[m].data(), 24)) << "mode " << m;
  }
}

TEST_P(ElementProperties, PositiveSemiDefiniteWithExactlySixZeroModes) {
  const Mat24<double> K = oracle_matrix(GetParam().X, kMaterial);
  const auto ev = jacobi_eigenvalues(K);
  const double top = ev.back();
  double trace = 0, sum = 0;
  for (int i = 0; i < 24; ++i) trace += K.v[i][i], sum += ev[i];
  EXPECT_NEAR(sum, trace, 1e-12 * trace);  // the rotations preserved the spectrum
  EXPECT_GE(ev.front(), -1e-10 * top);
  // Full 2x2x2 integration has no hourglass modes: only the 6 rigid modes are (numerically) zero.
  const auto zeros = std::count_if(ev.begin(), ev.end(), [&](double l) { return std::abs(l) <= 1e-8 * top; });
  EXPECT_EQ(zeros, 6);
  EXPECT_GT(ev[6], 1e-5 * top) << "smallest elastic mode is suspiciously soft";
}

TEST_P(ElementProperties, QuadratureIntegratesTheVolume) {
  const Hex8Coords& X = GetParam().X;
  double vol = 0;
  for (int q = 0; q < hex8::num_qp; ++q) {
    double J[3][3];
    hex8::jacobian<double>(X, q, J);
    vol += hex8::determinant<double>(J);  // weight 1
  }
  // det J of a trilinear map is at most quadratic per direction: 3-point Gauss must agree exactly.
  const double g3[3] = {-std::sqrt(0.6), 0, std::sqrt(0.6)}, w3[3] = {5. / 9, 8. / 9, 5. / 9};
  double vol3 = 0;
  for (int i = 0; i < 27; ++i) {
    const double r[3] = {g3[i % 3], g3[i / 3 % 3], g3[i / 9]};
    double J[3][3];
    hex8::jacobian_at<double>(X, r, J);
    vol3 += w3[i % 3] * w3[i / 3 % 3] * w3[i / 9] * hex8::determinant<double>(J);
  }
  EXPECT_NEAR(vol, vol3, 1e-13 * vol3);
  if (GetParam().volume > 0) {
    EXPECT_NEAR(vol, GetParam().volume, 1e-13 * GetParam().volume);
  }
}

TEST_P(ElementProperties, FloatBlockFormAgreesWithDouble) {
  Coords<float> Xf;
  for (int a = 0; a < 8; ++a)
    for (int j = 0; j < 3; ++j) Xf[a][j] = float(GetParam().X[a][j]);
  const Mat24<double> Kd = block_matrix(GetParam().X, kMaterial);
  const Mat24<float> Kf = block_matrix(Xf, Isotropic<float>{float(kMaterial.lambda), float(kMaterial.mu)});
  EXPECT_LE(max_diff(Kf, Kd), 1e-5 * max_abs(Kd));
}

// The lane-parallel pieces the warp mappings use must reproduce jacobian/invert3 exactly enough.
TEST_P(ElementProperties, LaneHelpersMatchJacobianAndInverse) {
  const Hex8Coords& X = GetParam().X;
  double flat[24], C[24];
  for (int k = 0; k < 24; ++k) flat[k] = X[k / 3][k % 3];
  for (int k = 0; k < 24; ++k) C[k] = hex8::monomial_coefficient<double>(flat, k / 3, k % 3);
  for (int q = 0; q < hex8::num_qp; ++q) {
    double J[3][3], Jinv[3][3], Jm[3][3];
    hex8::jacobian<double>(X, q, J);
    hex8::jacobian_from_monomials(C, q, Jm);
    const double det = hex8::invert3<double>(J, Jinv);
    EXPECT_NEAR(hex8::determinant<double>(J), det, 1e-14 * std::abs(det));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double sum = 0, identity = 0;
        for (int a = 0; a < 8; ++a) sum += hex8::jacobian_term<double>(q, a, i, X[a][j]);
        for (int k = 0; k < 3; ++k) identity += J[i][k] * Jinv[k][j];
        EXPECT_NEAR(sum, J[i][j], 1e-14);
        EXPECT_NEAR(Jm[i][j], J[i][j], 1e-14);
        EXPECT_NEAR(hex8::inverse_entry<double>(J, i, j, det), Jinv[i][j],
                    1e-13 * std::abs(Jinv[i][j]) + 1e-15);
        EXPECT_NEAR(identity, i == j ? 1.0 : 0.0, 1e-14);
      }
  }
}

// Consistent body force of a uniform load f: the nodal forces add up to f times the volume, and on
// a parallelepiped (constant det J) every node carries exactly an eighth of it.
TEST_P(ElementProperties, BodyForceIsConsistent) {
  const Hex8Coords& X = GetParam().X;
  const double f[3] = {1.5, -2.0, 9.81};
  double Fe[24], volume = 0;
  elasticity::hex8_body_force<double>(X, f, Fe);
  for (int q = 0; q < hex8::num_qp; ++q) {
    double J[3][3], Jinv[3][3];
    hex8::jacobian<double>(X, q, J);
    volume += hex8::invert3<double>(J, Jinv);
  }
  for (int c = 0; c < 3; ++c) {
    double total = 0;
    for (int a = 0; a < 8; ++a) total += Fe[3 * a + c];
    EXPECT_NEAR(total, f[c] * volume, 1e-12 * std::abs(f[c] * volume));
  }
  if (GetParam().name != "Distorted") {  // the other three are parallelepipeds
    for (int a = 0; a < 8; ++a)
      for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(Fe[3 * a + c], f[c] * volume / 8, 1e-12 * std::abs(f[c] * volume));
  }
}

INSTANTIATE_TEST_SUITE_P(Hex8, ElementProperties, ::testing::ValuesIn(elements()),
                         [](const ::testing::TestParamInfo<Element>& info) { return info.param.name; });

TEST(Hex8Shape, PartitionOfUnityAndNodalInterpolation) {
  const double pts[4][3] = {{0, 0, 0}, {0.3, -0.7, 0.9}, {-1, 0.25, 1}, {0.577, 0.577, -0.2}};
  for (const auto& p : pts) {
    double sum = 0, dsum[3] = {};
    for (int a = 0; a < 8; ++a) {
      sum += hex8::shape<double>(a, p[0], p[1], p[2]);
      for (int d = 0; d < 3; ++d) dsum[d] += hex8::dshape<double>(a, d, p);
    }
    EXPECT_NEAR(sum, 1.0, 1e-15);
    for (double s : dsum) EXPECT_NEAR(s, 0.0, 1e-15);  // derivative of the partition of unity
  }
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) {
      const double v =
          hex8::shape<double>(a, hex8::node_sign(b, 0), hex8::node_sign(b, 1), hex8::node_sign(b, 2));
      EXPECT_EQ(v, a == b ? 1.0 : 0.0) << "N_" << a << " at node " << b;
    }
}
TEST(Hex8Shape, CornerBitsFollowGmshOrderAndDshapeFromBitsIsBitwiseTheSame) {
  const int x[8] = {0, 1, 1, 0, 0, 1, 1, 0}, y[8] = {0, 0, 1, 1, 0, 0, 1, 1};
  for (int a = 0; a < 8; ++a) {
    EXPECT_EQ(hex8::corner(a, 0), x[a]);
    EXPECT_EQ(hex8::corner(a, 1), y[a]);
    EXPECT_EQ(hex8::corner(a, 2), a / 4);
    EXPECT_EQ(hex8::corner_bits(a), x[a] | 2 * y[a] | 4 * (a / 4));
    EXPECT_EQ(hex8::node_at_corner(hex8::corner_bits(a)), a);
    for (int q = 0; q < hex8::num_qp; ++q) {
      double d[3];
      float f[3];
      hex8::dshape_qp<double>(q, a, d);
      hex8::dshape_qp<float>(q, a, f);
      for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(d[i], hex8::dshape_qp<double>(q, a, i)) << q << " " << a << " " << i;
        EXPECT_EQ(f[i], hex8::dshape_qp<float>(q, a, i)) << q << " " << a << " " << i;
      }
    }
  }
}

TEST(Elasticity, AddProductsIsTheSumWithFromProducts) {
  const Isotropic<double> m{1.7, 0.9};
  const double P[3][3] = {{0.3, -1.1, 0.7}, {2.0, 0.4, -0.5}, {-0.8, 1.3, 0.6}};
  const auto p = [&](int i, int j) { return P[i][j]; };
  for (int c = 0; c < 3; ++c)
    for (int d = 0; d < 3; ++d)
      EXPECT_NEAR(elasticity::add_products(m, p, c, d, 0.25), 0.25 + elasticity::from_products(m, p, c, d),
                  1e-15);
}

}  // namespace
}  // namespace kfem
