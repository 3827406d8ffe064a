// The basix P_p prism tabulation (p = 1..7): sizes (banas Table 1), quadrature exactness,
// partition of unity, the Kronecker property at the nodes, entity bookkeeping, the geometry map.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "kfem/core/error.hpp"
#include "kfem/fe/lagrange_basis.hpp"

namespace kfem::lagrange {
namespace {
class PrismOrder : public ::testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(P, PrismOrder, ::testing::Range(min_order, max_order + 1));

double factorial(int n) {
  return n <= 1 ? 1.0 : n * factorial(n - 1);
}

TEST(PrismBasis, SizesMatchBanasTable1) {
  const int nsh[] = {6, 18, 40, 75, 126, 196, 288};
  const int nq[] = {6, 18, 48, 80, 150, 231, 336};
  for (int p = 1; p <= 7; ++p) {
    const Basis& b = tabulate(CellType::prism6, p);
    EXPECT_EQ(b.order, p);
    EXPECT_EQ(b.nsh, nsh[p - 1]) << "p = " << p;
    EXPECT_EQ(num_shape_functions(CellType::prism6, p), nsh[p - 1]);
    EXPECT_EQ(b.nq, nq[p - 1]) << "p = " << p;
    EXPECT_EQ(b.points.size(), b.nsh);
    EXPECT_EQ(b.qpoints.size(), b.nq);
    EXPECT_EQ(b.weights.size(), b.nq);
    EXPECT_EQ(b.values.size(), std::size_t(b.nq * b.nsh));
    EXPECT_EQ(b.dshape.size(), std::size_t(b.nq * b.nsh * 3));
    EXPECT_EQ(b.dgeo.size(), std::size_t(b.nq * 6 * 3));
  }
}

TEST(PrismBasis, BadOrderThrowsInputError) {
  for (int p : {-1, 0, 8, 9}) EXPECT_THROW(tabulate(CellType::prism6, p), InputError) << p;
  try {
    tabulate(CellType::prism6, 9);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "element order p = 9: prisms support 1..7");
  }
  std::vector<double> v;
  EXPECT_THROW(evaluate(CellType::prism6, 0, {{0.1, 0.1, 0.1}}, v), InputError);
  try {
    tabulate(CellType::tet4, 8);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "element order p = 8: tetrahedra support 1..7");
  }
  try {
    tabulate(CellType::hex8, 2);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "no P_p basis for hex8 cells (prisms and tetrahedra have one)");
  }
}

TEST(PrismBasis, CachedAndThreadSafe) {
  const Basis* seen[4] = {};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) threads.emplace_back([&seen, t] { seen[t] = &tabulate(CellType::prism6, 6); });
  for (auto& t : threads) t.join();
  for (const Basis* b : seen) EXPECT_EQ(b, &tabulate(CellType::prism6, 6));
}

TEST(PrismBasis, Topology) {
  ASSERT_EQ(edges(CellType::prism6).size(), 9u);
  ASSERT_EQ(faces(CellType::prism6).size(), 5u);
  EXPECT_EQ(faces(CellType::prism6)[0], (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(faces(CellType::prism6)[4], (std::vector<int>{3, 4, 5}));
  for (int f = 1; f <= 3; ++f) {
    ASSERT_EQ(faces(CellType::prism6)[f].size(), 4u);
    // Tensor order: corners 0 and 3 are diagonal, i.e. differ in both triangle vertex and level.
    const auto& q = faces(CellType::prism6)[f];
    EXPECT_NE(q[0] % 3, q[3] % 3);
    EXPECT_NE(q[0] / 3, q[3] / 3);
    EXPECT_NE(q[1] % 3, q[2] % 3);
    EXPECT_NE(q[1] / 3, q[2] / 3);
  }
  std::set<std::pair<int, int>> e;
  for (const auto& v : edges(CellType::prism6)) e.insert({std::min(v[0], v[1]), std::max(v[0], v[1])});
  EXPECT_EQ(e, (std::set<std::pair<int, int>>{
                   {0, 1}, {0, 2}, {1, 2}, {3, 4}, {3, 5}, {4, 5}, {0, 3}, {1, 4}, {2, 5}}));
}

TEST_P(PrismOrder, WeightsSumToHalfAndPointsAreInside) {
  const Basis& b = tabulate(CellType::prism6, GetParam());
  double sum = 0;
  for (int q = 0; q < b.nq; ++q) {
    sum += b.weights[q];
    EXPECT_GT(b.weights[q], 0.0);
    const auto& x = b.qpoints[q];
    EXPECT_GE(x[0], 0.0);
    EXPECT_GE(x[1], 0.0);
    EXPECT_LE(x[0] + x[1], 1.0);
    EXPECT_GT(x[2], 0.0);
    EXPECT_LT(x[2], 1.0);
  }
  EXPECT_NEAR(sum, 0.5, 1e-14);
}

// x^a y^b z^c integrates to a! b! / (a + b + 2)! / (c + 1) on the reference prism: exact for
// a + b <= 2p (the triangle rule) and c <= 2p + 1 (p + 1 Gauss-Legendre points).
TEST_P(PrismOrder, QuadratureIsExactForTheStiffnessDegree) {
  const int p = GetParam();
  const Basis& b = tabulate(CellType::prism6, p);
  for (int a = 0; a <= 2 * p; ++a)
    for (int bb = 0; a + bb <= 2 * p; ++bb)
      for (int c : {0, 2 * p, 2 * p + 1}) {
        double s = 0;
        for (int q = 0; q < b.nq; ++q) {
          const auto& x = b.qpoints[q];
          s += b.weights[q] * std::pow(x[0], a) * std::pow(x[1], bb) * std::pow(x[2], c);
        }
        const double exact = factorial(a) * factorial(bb) / factorial(a + bb + 2) / (c + 1);
        EXPECT_NEAR(s, exact, 1e-14 + 1e-12 * exact) << a << " " << bb << " " << c;
      }
}

TEST_P(PrismOrder, PartitionOfUnity) {
  const Basis& b = tabulate(CellType::prism6, GetParam());
  for (int q = 0; q < b.nq; ++q) {
    double s = 0, ds[3] = {0, 0, 0}, scale = 0;
    for (int a = 0; a < b.nsh; ++a) {
      s += b.values[q * b.nsh + a];
      for (int k = 0; k < 3; ++k) {
        const double d = b.dshape[(q * b.nsh + a) * 3 + k];
        ds[k] += d;
        scale = std::max(scale, std::abs(d));
      }
    }
    EXPECT_NEAR(s, 1.0, 1e-10) << "q = " << q;
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(ds[k], 0.0, 1e-10 * std::max(1.0, scale)) << "q = " << q;
  }
}

// For Lagrange, shape function i is 1 at node i and 0 at the others.
TEST_P(PrismOrder, ShapeFunctionsAreKroneckerAtTheirNodes) {
  const Basis& b = tabulate(CellType::prism6, GetParam());
  std::vector<double> v;
  evaluate(CellType::prism6, b.order, b.points, v);
  for (int i = 0; i < b.nsh; ++i)
    for (int a = 0; a < b.nsh; ++a) EXPECT_NEAR(v[i * b.nsh + a], i == a ? 1.0 : 0.0, 1e-10);
}

TEST_P(PrismOrder, EvaluateMatchesTabulationAndFiniteDifferences) {
  const Basis& b = tabulate(CellType::prism6, GetParam());
  std::vector<double> v, d;
  evaluate(CellType::prism6, b.order, b.qpoints, v, &d);
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(v[i], b.values[i], 1e-13);
  for (std::size_t i = 0; i < d.size(); ++i) EXPECT_NEAR(d[i], b.dshape[i], 1e-12);
  const std::array<double, 3> x0 = {0.21, 0.33, 0.57};
  const double h = 1e-6;
  std::vector<double> v0, d0;
  evaluate(CellType::prism6, b.order, {x0}, v0, &d0);
  for (int k = 0; k < 3; ++k) {
    auto xp = x0, xm = x0;
    xp[k] += h, xm[k] -= h;
    std::vector<double> vp, vm;
    evaluate(CellType::prism6, b.order, {xp}, vp);
    evaluate(CellType::prism6, b.order, {xm}, vm);
    for (int a = 0; a < b.nsh; ++a)
      EXPECT_NEAR(d0[a * 3 + k], (vp[a] - vm[a]) / (2 * h), 1e-5 * std::max(1.0, std::abs(d0[a * 3 + k])));
  }
}

// Vertex nodes are the reference vertices in order; every other node lies on (the interior of)
// its entity: the P1 weights of the point vanish exactly off the entity's vertices.
TEST_P(PrismOrder, NodesSitOnTheirEntities) {
  const int p = GetParam();
  const Basis& b = tabulate(CellType::prism6, p);
  int count[4] = {0, 0, 0, 0};
  for (int a = 0; a < b.nsh; ++a) {
    const int d = b.entity_dim[a], e = b.entity[a];
    ASSERT_GE(d, 0);
    ASSERT_LE(d, 3);
    ++count[d];
    const auto& x = b.points[a];
    for (int k = 0; k < 3; ++k)  // lattice points
      EXPECT_NEAR(x[k] * p, std::round(x[k] * p), 1e-12);
    std::vector<int> verts;
    if (d == 0) verts = {e};
    if (d == 1) verts = {edges(CellType::prism6)[e][0], edges(CellType::prism6)[e][1]};
    if (d == 2) verts = faces(CellType::prism6)[e];
    if (d == 3) verts = {0, 1, 2, 3, 4, 5};
    const auto n = vertex_functions(CellType::prism6, x);
    for (int v = 0; v < 6; ++v) {
      const bool on = std::find(verts.begin(), verts.end(), v) != verts.end();
      if (on) {
        EXPECT_GT(n[v], 1e-12) << "node " << a << " vertex " << v;
      } else {
        EXPECT_NEAR(n[v], 0.0, 1e-12) << "node " << a << " vertex " << v;
      }
    }
    if (d == 0) {
      for (int k = 0; k < 3; ++k) EXPECT_EQ(x[k], reference_vertex(CellType::prism6, a)[k]);
    }
  }
  EXPECT_EQ(count[0], 6);
  EXPECT_EQ(count[1], 9 * (p - 1));
  EXPECT_EQ(count[2], 2 * (p - 1) * (p - 2) / 2 + 3 * (p - 1) * (p - 1));
  EXPECT_EQ(count[3], (p - 1) * (p - 1) * (p - 2) / 2);
}

// The geometry map of the reference prism itself, x = sum_v X_v N_v, has J = I everywhere; a
// sheared, scaled copy has the constant J of its affine map.
TEST_P(PrismOrder, GeometryDerivativesGiveTheAffineJacobian) {
  const Basis& b = tabulate(CellType::prism6, GetParam());
  const double A[3][3] = {{2.0, 0.3, -0.1}, {0.2, 1.5, 0.4}, {-0.3, 0.1, 0.7}};
  for (int q = 0; q < b.nq; ++q) {
    double J[3][3] = {}, JA[3][3] = {}, n = 0;
    for (int v = 0; v < 6; ++v) {
      n += vertex_functions(CellType::prism6, b.qpoints[q])[v];
      for (int i = 0; i < 3; ++i) {
        double Xa = 0;
        for (int m = 0; m < 3; ++m) Xa += A[i][m] * reference_vertex(CellType::prism6, v)[m];
        for (int k = 0; k < 3; ++k) {
          const double g = b.dgeo[(q * 6 + v) * 3 + k];
          J[i][k] += reference_vertex(CellType::prism6, v)[i] * g;
          JA[i][k] += Xa * g;
        }
      }
    }
    EXPECT_NEAR(n, 1.0, 1e-14);
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(J[i][k], i == k ? 1.0 : 0.0, 1e-13) << "q = " << q;
        EXPECT_NEAR(JA[i][k], A[i][k], 1e-13) << "q = " << q;
      }
  }
}

// P1's shape functions are the vertex functions: dshape of p = 1 is dgeo.
TEST(PrismBasis, OrderOneIsTheGeometryMap) {
  const Basis& b = tabulate(CellType::prism6, 1);
  ASSERT_EQ(b.dshape.size(), b.dgeo.size());
  for (std::size_t i = 0; i < b.dgeo.size(); ++i) EXPECT_NEAR(b.dshape[i], b.dgeo[i], 1e-14);
  for (int q = 0; q < b.nq; ++q) {
    const auto n = vertex_functions(CellType::prism6, b.qpoints[q]);
    for (int v = 0; v < 6; ++v) EXPECT_NEAR(b.values[q * 6 + v], n[v], 1e-14);
  }
}
}  // namespace
}  // namespace kfem::lagrange
