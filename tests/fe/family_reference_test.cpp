// Properties of the per-family host oracles: tri3 electrostatics (symmetry, constants as the only
// null space, linear patch test, hand-checked element, energy = eps * area) and prism P_p
// elasticity for p = 1..7 (symmetry, exactly the 6 rigid-body modes as null space, linear patch
// test, quadrature volume, invariance of Ke under a rigid rotation), plus the generic pattern.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kfem/assembly/reference.hpp"
#include "kfem/core/error.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/fe/lagrange_basis.hpp"
#include "kfem/mesh/box.hpp"

namespace kfem {
namespace {
// ---- small dense linear algebra (row-major n x n) ---------------------------------------------
struct Dense {
  int n = 0;
  std::vector<double> a;
  double& operator()(int i, int j) { return a[std::size_t(i) * n + j]; }
  double operator()(int i, int j) const { return a[std::size_t(i) * n + j]; }
};

Dense to_dense(const HostCsr<double>& K) {
  Dense A{K.num_rows, std::vector<double>(std::size_t(K.num_rows) * K.num_rows, 0.0)};
  for (ordinal_t i = 0; i < K.num_rows; ++i)
    for (offset_t k = K.row_map[i]; k < K.row_map[i + 1]; ++k) A(i, K.cols[k]) = K.vals[k];
  return A;
}

std::vector<double> multiply(const HostCsr<double>& K, const std::vector<double>& x) {
  std::vector<double> y(K.num_rows, 0.0);
  for (ordinal_t i = 0; i < K.num_rows; ++i)
    for (offset_t k = K.row_map[i]; k < K.row_map[i + 1]; ++k) y[i] += K.vals[k] * x[K.cols[k]];
  return y;
}

double dot(const std::vector<double>& x, const std::vector<double>& y) {
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) s += x[i] * y[i];
  return s;
}
double norm(const std::vector<double>& x) {
  return std::sqrt(dot(x, x));
}

double frobenius(const HostCsr<double>& K) {
  double s = 0;
  for (double v : K.vals) s += v * v;
  return std::sqrt(s);
}

double max_abs(const std::vector<double>& v) {
  double r = 0;
  for (double x : v) r = std::max(r, std::abs(x));
  return r;
}

// Eigenvalues (ascending) of a symmetric matrix by cyclic Jacobi rotations: small and dependable,
// O(n^3) per sweep, so only for n up to a few hundred.
std::vector<double> jacobi_eigenvalues(Dense A) {
  const int n = A.n;
  const double scale = max_abs(A.a);
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) off += A(p, q) * A(p, q);
    if (off <= 1e-32 * scale * scale) break;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) {
        if (A(p, q) == 0) continue;
        const double theta = (A(q, q) - A(p, p)) / (2 * A(p, q));
        const double t = (theta >= 0 ? 1 : -1) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; ++k) {  // A <- A P, then A <- P^T A
          const double kp = A(k, p), kq = A(k, q);
          A(k, p) = c * kp - s * kq, A(k, q) = s * kp + c * kq;
        }
        for (int k = 0; k < n; ++k) {
          const double pk = A(p, k), qk = A(q, k);
          A(p, k) = c * pk - s * qk, A(q, k) = s * pk + c * qk;
        }
      }
  }
  std::vector<double> ev(n);
  for (int i = 0; i < n; ++i) ev[i] = A(i, i);
  std::sort(ev.begin(), ev.end());
  return ev;
}

// In-place Cholesky M = U^T U (U in the upper triangle); false at the first non-positive pivot.
bool cholesky(Dense& M) {
  const int n = M.n;
  for (int k = 0; k < n; ++k) {
    if (!(M(k, k) > 0)) return false;
    const double d = std::sqrt(M(k, k));
    double* uk = &M.a[std::size_t(k) * n];
    uk[k] = d;
    for (int j = k + 1; j < n; ++j) uk[j] /= d;
    for (int i = k + 1; i < n; ++i) {  // trailing update, row by row (contiguous)
      const double s = uk[i];
      if (s == 0) continue;
      double* ui = &M.a[std::size_t(i) * n];
      for (int j = i; j < n; ++j) ui[j] -= s * uk[j];
    }
  }
  return true;
}

// Smallest eigenvalue of M = U^T U by inverse iteration (Rayleigh quotient |U x|^2, |x| = 1).
double smallest_eigenvalue(const Dense& U, int iterations) {
  const int n = U.n;
  std::vector<double> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = 1.0 + 0.37 * std::sin(1.7 * i + 0.3);
  double rq = 0;
  for (int it = 0; it < iterations; ++it) {
    for (int i = 0; i < n; ++i) {  // U^T y = x
      double s = x[i];
      for (int k = 0; k < i; ++k) s -= U(k, i) * y[k];
      y[i] = s / U(i, i);
    }
    for (int i = n - 1; i >= 0; --i) {  // U x = y
      double s = y[i];
      for (int k = i + 1; k < n; ++k) s -= U(i, k) * x[k];
      x[i] = s / U(i, i);
    }
    const double nx = norm(x);
    for (double& v : x) v /= nx;
    rq = 0;
    for (int i = 0; i < n; ++i) {
      double s = 0;
      for (int k = i; k < n; ++k) s += U(i, k) * x[k];
      rq += s * s;
    }
  }
  return rq;
}

// ---- meshes built by hand (independent of the family generators) -------------------------------
// Deterministic offset in [-1, 1] for (seed, node, component): splitmix64.
double jitter(std::uint64_t seed, std::size_t node, int c) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + node * 3 + c + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return 2.0 * double(z >> 11) / double(1ull << 53) - 1.0;
}

// nx x ny rectangles [0,lx] x [0,ly], each split into two counter-clockwise triangles along
// alternating diagonals; interior nodes moved by up to amplitude * h per component.
Mesh tri_box(int nx, int ny, double lx, double ly, double amplitude = 0.0) {
  Mesh m;
  m.cell = CellType::tri3;
  const double hx = lx / nx, hy = ly / ny, h = std::min(hx, hy);
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) {
      std::array<double, 3> x{i * hx, j * hy, 0.0};
      if (i > 0 && i < nx && j > 0 && j < ny)
        for (int c = 0; c < 2; ++c) x[c] += amplitude * h * jitter(7, m.nodes.size(), c);
      m.nodes.push_back(x);
    }
  auto id = [&](int i, int j) { return ordinal_t(i + (nx + 1) * j); };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const ordinal_t a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
      if ((i + j) % 2 == 0) {
        m.elements.push_back({a, b, c, -1, -1, -1, -1, -1});
        m.elements.push_back({a, c, d, -1, -1, -1, -1, -1});
      } else {
        m.elements.push_back({a, b, d, -1, -1, -1, -1, -1});
        m.elements.push_back({b, c, d, -1, -1, -1, -1, -1});
      }
    }
  return m;
}

// A hex box with every hex split along its 0-2 diagonal into two wedges (bottom triangle
// counter-clockwise seen from +z), every node then moved by up to amplitude * h per component.
Mesh prism_box(const BoxSpec& spec, double amplitude, std::uint64_t seed) {
  const Mesh hex = make_box(spec);
  Mesh m;
  m.cell = CellType::prism6;
  m.nodes = hex.nodes;
  const double h = std::min({spec.lx / spec.nx, spec.ly / spec.ny, spec.lz / spec.nz});
  for (std::size_t n = 0; n < m.nodes.size(); ++n)
    for (int c = 0; c < 3; ++c) m.nodes[n][c] += amplitude * h * jitter(seed, n, c);
  for (const auto& e : hex.elements) {
    m.elements.push_back({e[0], e[1], e[2], e[4], e[5], e[6], -1, -1});
    m.elements.push_back({e[0], e[2], e[3], e[4], e[6], e[7], -1, -1});
  }
  return m;
}

// ---- tri3 electrostatics ----------------------------------------------------------------------
constexpr double kEps = 8.854e-12 * 4.5;  // a dielectric, so that nothing hides behind eps = 1

struct TriCase {
  std::string name;
  Mesh mesh;
  double area;  // of the domain
};
void PrintTo(const TriCase& c, std::ostream* os) {
  *os << c.name;
}

std::vector<TriCase> tri_cases() {
  return {{"Regular", tri_box(5, 4, 2.5, 1.2), 2.5 * 1.2},
          {"Distorted", tri_box(5, 4, 2.5, 1.2, 0.15), 2.5 * 1.2}};
}

bool interior_tri_node(const TriCase& c, std::size_t n) {
  const double x = c.mesh.nodes[n][0], y = c.mesh.nodes[n][1];
  return x > 1e-12 && x < 2.5 - 1e-12 && y > 1e-12 && y < 1.2 - 1e-12;
}

class FamilyReferenceTri3 : public ::testing::TestWithParam<TriCase> {};

TEST_P(FamilyReferenceTri3, SymmetricOnTheNodePattern) {
  const HostCsr<double> K = assemble_reference_electrostatics(GetParam().mesh, kEps);
  ASSERT_EQ(K.num_rows, ordinal_t(GetParam().mesh.num_nodes()));
  const Dense A = to_dense(K);
  for (int i = 0; i < A.n; ++i)
    for (int j = 0; j < i; ++j) EXPECT_EQ(A(i, j), A(j, i)) << i << "," << j;
}

TEST_P(FamilyReferenceTri3, ConstantsAreTheOnlyNullSpace) {
  const HostCsr<double> K = assemble_reference_electrostatics(GetParam().mesh, kEps);
  const std::vector<double> Kone = multiply(K, std::vector<double>(K.num_rows, 1.0));
  EXPECT_LE(max_abs(Kone), 1e-13 * max_abs(K.vals));
  // Connected mesh: rank n - 1, and the spectrum is non-negative.
  const std::vector<double> ev = jacobi_eigenvalues(to_dense(K));
  const double top = ev.back();
  EXPECT_GE(ev[0], -1e-13 * top);
  EXPECT_LE(std::abs(ev[0]), 1e-13 * top);
  EXPECT_GT(ev[1], 1e-3 * top) << "second zero mode: the mesh or the oracle is disconnected";
}

TEST_P(FamilyReferenceTri3, LinearPotentialGivesZeroChargeAtInteriorNodes) {
  const TriCase& c = GetParam();
  const HostCsr<double> K = assemble_reference_electrostatics(c.mesh, kEps);
  std::vector<double> phi(K.num_rows);
  for (std::size_t n = 0; n < c.mesh.num_nodes(); ++n)
    phi[n] = 0.7 - 1.3 * c.mesh.nodes[n][0] + 2.1 * c.mesh.nodes[n][1];
  const std::vector<double> f = multiply(K, phi);
  const double tol = 1e-12 * max_abs(K.vals) * max_abs(phi);
  double boundary = 0;
  int interior = 0;
  for (std::size_t n = 0; n < c.mesh.num_nodes(); ++n)
    if (interior_tri_node(c, n)) {
      EXPECT_LE(std::abs(f[n]), tol) << "node " << n;
      ++interior;
    } else {
      boundary = std::max(boundary, std::abs(f[n]));
    }
  EXPECT_EQ(interior, 4 * 3);
  EXPECT_GT(boundary, 1e3 * tol) << "boundary charges vanish too: the test would prove nothing";
}

// phi^T K phi = eps * integral |grad phi|^2: for phi = x it is eps * area, for phi = x + 2y 5 eps * area.
TEST_P(FamilyReferenceTri3, EnergyOfLinearPotentialsIsPermittivityTimesArea) {
  const TriCase& c = GetParam();
  double area = 0;
  for (std::size_t e = 0; e < c.mesh.num_elements(); ++e) {
    const TriCoords X = tri3_coords(c.mesh, e);
    area += 0.5 * ((X[1][0] - X[0][0]) * (X[2][1] - X[0][1]) - (X[2][0] - X[0][0]) * (X[1][1] - X[0][1]));
  }
  EXPECT_NEAR(area, c.area, 1e-14 * c.area);
  const HostCsr<double> K = assemble_reference_electrostatics(c.mesh, kEps);
  std::vector<double> x(K.num_rows), xy(K.num_rows);
  for (std::size_t n = 0; n < c.mesh.num_nodes(); ++n)
    x[n] = c.mesh.nodes[n][0], xy[n] = c.mesh.nodes[n][0] + 2 * c.mesh.nodes[n][1];
  EXPECT_NEAR(dot(x, multiply(K, x)), kEps * c.area, 1e-12 * kEps * c.area);
  EXPECT_NEAR(dot(xy, multiply(K, xy)), 5 * kEps * c.area, 1e-12 * kEps * c.area);
}

INSTANTIATE_TEST_SUITE_P(Meshes, FamilyReferenceTri3, ::testing::ValuesIn(tri_cases()),
                         [](const ::testing::TestParamInfo<TriCase>& info) { return info.param.name; });

// Right triangle (0,0) (1,0) (0,1): grad N = (-1,-1), (1,0), (0,1), area 1/2, so
// Ke = eps/2 [[2,-1,-1],[-1,1,0],[-1,0,1]]. Translating and scaling it (2D) changes nothing.
TEST(FamilyReferenceTri3Element, HandCheckedRightTriangle) {
  const double expected[3][3] = {{2, -1, -1}, {-1, 1, 0}, {-1, 0, 1}};
  for (double scale : {1.0, 3.5}) {
    const TriCoords X = {{{0.4, -1.0, 0.0}, {0.4 + scale, -1.0, 0.0}, {0.4, -1.0 + scale, 0.0}}};
    double Ke[3][3];
    reference_tri3_matrix(X, 2.0, Ke);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(Ke[i][j], expected[i][j], 1e-15) << "scale " << scale;
  }
}

TEST(FamilyReferenceTri3Element, RejectsClockwiseTrianglesAndOtherFamilies) {
  Mesh mesh = tri_box(3, 2, 1.0, 1.0);
  std::swap(mesh.elements[3][1], mesh.elements[3][2]);
  try {
    assemble_reference_electrostatics(mesh, 1.0);
    ADD_FAILURE() << "a clockwise triangle was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("element 3"), std::string::npos) << e.what();
  }
  EXPECT_THROW(assemble_reference_electrostatics(tri_box(2, 2, 1.0, 1.0), 0.0), InputError);
  EXPECT_THROW(assemble_reference_electrostatics(make_box(BoxSpec{1, 1, 1, 1, 1, 1}), 1.0), InputError);
}

// ---- generic pattern --------------------------------------------------------------------------
TEST(FamilyReferencePattern, TwoTrianglesTwoComponents) {
  // Triangles 0-1-2 and 1-3-2 share the edge 1-2: nodes 1 and 2 see all four nodes, 0 and 3 three.
  const HostCsr<double> A = reference_pattern({0, 1, 2, 1, 3, 2}, 3, 4, 2);
  ASSERT_EQ(A.num_rows, 8);
  const std::vector<std::vector<ordinal_t>> rows = {
      {0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7}, {2, 3, 4, 5, 6, 7}};
  for (ordinal_t r = 0; r < 8; ++r) {
    const std::vector<ordinal_t> cols(A.cols.begin() + A.row_map[r], A.cols.begin() + A.row_map[r + 1]);
    EXPECT_EQ(cols, rows[r / 2]) << "row " << r;
  }
  EXPECT_EQ(A.vals, std::vector<double>(A.cols.size(), 0.0));
  EXPECT_THROW(reference_pattern({0, 1, 2, 1, 3}, 3, 4, 1), InputError);
  EXPECT_THROW(reference_pattern({0, 1, 4}, 3, 4, 1), InputError);
}

TEST(FamilyReferencePattern, MeshPatternIsTheGenericOneOnVertices) {
  const Mesh prisms = prism_box(BoxSpec{2, 1, 1, 2, 1, 1}, 0.0, 1);
  const DofMap vertices = vertex_dof_map(prisms);
  const HostCsr<double> a = reference_pattern(prisms);
  const HostCsr<double> b = reference_pattern(vertices.element_nodes, 6, vertices.num_nodes, 3);
  EXPECT_EQ(a.row_map, b.row_map);
  EXPECT_EQ(a.cols, b.cols);
}

// ---- prism P_p elasticity ---------------------------------------------------------------------
const Isotropic<double> kSteel = Isotropic<double>::from_young(200e9, 0.3);

struct PrismCase {
  Mesh mesh;
  DofMap dofs;
  HostCsr<double> K;
};

PrismCase make_case(Mesh mesh, int p) {
  PrismCase c{std::move(mesh), {}, {}};
  c.dofs = lagrange_dof_map(c.mesh, p);
  c.K = assemble_reference_elasticity(c.mesh, c.dofs, kSteel);
  return c;
}

// One distorted, stretched hexahedron as two prisms: the mesh of the spectral checks, cached per
// order because the p = 7 assembly is the expensive part of this file.
const PrismCase& two_prisms(int p) {
  static std::map<int, PrismCase> cache;
  auto it = cache.find(p);
  if (it == cache.end())
    it = cache.emplace(p, make_case(prism_box(BoxSpec{1, 1, 1, 1.3, 0.8, 1.1}, 0.12, 3), p)).first;
  return it->second;
}

// A mesh with interior DOF nodes for the patch test: 2x2x2 hexes (16 prisms, one interior vertex)
// for p <= 2, the two prisms above for p >= 3 (their face and cell nodes are interior).
const PrismCase& patch_case(int p) {
  if (p >= 3) return two_prisms(p);
  static std::map<int, PrismCase> cache;
  auto it = cache.find(p);
  if (it == cache.end())
    it = cache.emplace(p, make_case(prism_box(BoxSpec{2, 2, 2, 2, 2, 2}, 0.12, 11), p)).first;
  return it->second;
}

// DOF nodes on the mesh boundary, found topologically: a local shape function lies on the boundary
// when the vertices of its entity all belong to a face that only one element has.
std::vector<bool> boundary_dof_nodes(const PrismCase& c) {
  const lagrange::Basis basis = lagrange::tabulate(CellType::prism6, c.dofs.order);
  auto face_key = [&](std::size_t e, const std::vector<int>& f) {
    std::vector<ordinal_t> k;
    for (int v : f) k.push_back(c.mesh.elements[e][v]);
    std::sort(k.begin(), k.end());
    return k;
  };
  std::map<std::vector<ordinal_t>, int> count;
  for (std::size_t e = 0; e < c.mesh.num_elements(); ++e)
    for (const auto& f : lagrange::faces(CellType::prism6)) ++count[face_key(e, f)];
  std::vector<bool> boundary(c.dofs.num_nodes, false);
  for (std::size_t e = 0; e < c.mesh.num_elements(); ++e)
    for (const auto& f : lagrange::faces(CellType::prism6)) {
      if (count[face_key(e, f)] != 1) continue;
      const std::set<int> face(f.begin(), f.end());
      for (int a = 0; a < basis.nsh; ++a) {
        const int dim = basis.entity_dim[a], k = basis.entity[a];
        std::vector<int> closure;
        if (dim == 0) closure = {k};
        if (dim == 1)
          closure = {lagrange::edges(CellType::prism6)[k][0], lagrange::edges(CellType::prism6)[k][1]};
        if (dim == 2) closure = lagrange::faces(CellType::prism6)[k];
        if (dim == 3) continue;
        if (std::all_of(closure.begin(), closure.end(), [&](int v) { return face.count(v) > 0; }))
          boundary[c.dofs.element(e)[a]] = true;
      }
    }
  return boundary;
}

// 3 translations and 3 infinitesimal rotations w x (x - centre) at the DOF node positions.
std::vector<std::vector<double>> rigid_modes(const DofMap& dofs) {
  std::array<double, 3> centre{};
  for (const auto& x : dofs.positions)
    for (int j = 0; j < 3; ++j) centre[j] += x[j] / dofs.positions.size();
  std::vector<std::vector<double>> r(6, std::vector<double>(3 * std::size_t(dofs.num_nodes), 0.0));
  for (std::size_t n = 0; n < dofs.positions.size(); ++n)
    for (int k = 0; k < 3; ++k) {
      r[k][3 * n + k] = 1;
      const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;  // (e_k x X)_k1 = -X_k2, (e_k x X)_k2 = X_k1
      r[3 + k][3 * n + k1] = -(dofs.positions[n][k2] - centre[k2]);
      r[3 + k][3 * n + k2] = dofs.positions[n][k1] - centre[k1];
    }
  return r;
}

class FamilyReferencePrism : public ::testing::TestWithParam<int> {};

TEST_P(FamilyReferencePrism, AssembledMatrixIsSymmetric) {
  const HostCsr<double> K = two_prisms(GetParam()).K;
  ASSERT_EQ(K.num_rows, 3 * two_prisms(GetParam()).dofs.num_nodes);
  const double tol = 1e-12 * max_abs(K.vals);
  const Dense A = to_dense(K);
  for (int i = 0; i < A.n; ++i)
    for (int j = 0; j < i; ++j) ASSERT_LE(std::abs(A(i, j) - A(j, i)), tol) << i << "," << j;
}

// lambda_7 of K, given that the 6 rigid modes span its null space: K + alpha Q Q^T (Q an orthonormal
// basis of the modes) then has smallest eigenvalue min(lambda_7, alpha), and alpha = 7 max diag K
// >= lambda_7. Measured by inverse iteration on its Cholesky factor (an estimate from above); 0 if
// the factorization breaks down, i.e. K has more zero modes than the rigid ones.
double seventh_eigenvalue(const HostCsr<double>& K, const DofMap& dofs) {
  std::vector<std::vector<double>> Q = rigid_modes(dofs);
  for (std::size_t m = 0; m < Q.size(); ++m) {  // modified Gram-Schmidt
    for (std::size_t l = 0; l < m; ++l) {
      const double s = dot(Q[m], Q[l]);
      for (std::size_t i = 0; i < Q[m].size(); ++i) Q[m][i] -= s * Q[l][i];
    }
    const double nm = norm(Q[m]);
    for (double& v : Q[m]) v /= nm;
  }
  Dense M = to_dense(K);
  double max_diag = 0;
  for (int i = 0; i < M.n; ++i) max_diag = std::max(max_diag, M(i, i));
  for (const auto& q : Q)
    for (int i = 0; i < M.n; ++i)
      for (int j = 0; j < M.n; ++j) M(i, j) += 7 * max_diag * q[i] * q[j];
  return cholesky(M) ? smallest_eigenvalue(M, 30) : 0.0;
}

// Roundoff puts computed zero modes near 1e-13 |K|; lambda_7 / |K|_F is 2e-2 at p = 1 and 1.6e-6 at p = 7.
constexpr double kClearlyPositive = 1e-8;

TEST_P(FamilyReferencePrism, NullSpaceIsExactlyTheSixRigidModes) {
  const PrismCase& c = two_prisms(GetParam());
  const double frob = frobenius(c.K);
  const std::vector<std::vector<double>> modes = rigid_modes(c.dofs);
  for (std::size_t m = 0; m < modes.size(); ++m)
    EXPECT_LE(norm(multiply(c.K, modes[m])), 1e-10 * frob * norm(modes[m])) << "mode " << m;
  const double lambda7 = seventh_eigenvalue(c.K, c.dofs);
  EXPECT_GT(lambda7, kClearlyPositive * frob) << "7th eigenvalue " << lambda7 << " vs |K|_F " << frob;
  if (c.K.num_rows <= 200) {  // p <= 3: small enough for the full spectrum, 6 zeros then lambda_7
    const std::vector<double> ev = jacobi_eigenvalues(to_dense(c.K));
    const double top = ev.back();
    EXPECT_GE(ev[0], -1e-12 * top);
    for (int i = 0; i < 6; ++i) EXPECT_LE(std::abs(ev[i]), 1e-12 * top) << "eigenvalue " << i;
    EXPECT_NEAR(ev[6], lambda7, 1e-3 * lambda7);  // inverse iteration converges slowly (from above)
  }
}

// The deflation check must see a 7th zero mode: two prisms that share no node have 12.
TEST(FamilyReferencePrismInput, NullSpaceCheckSeesADisconnectedMesh) {
  const Mesh joined = prism_box(BoxSpec{1, 1, 1, 1.3, 0.8, 1.1}, 0.12, 3);
  Mesh split = joined;
  split.nodes.clear();
  for (std::size_t e = 0; e < 2; ++e)
    for (int v = 0; v < 6; ++v) {
      split.nodes.push_back(joined.nodes[joined.elements[e][v]]);
      split.elements[e][v] = ordinal_t(6 * e + v);
    }
  const PrismCase c = make_case(split, 2);
  EXPECT_LE(seventh_eigenvalue(c.K, c.dofs), 1e-10 * frobenius(c.K));
}

// The oracles on the shared generators' meshes (make_tri_box, make_prism_box, distort): every cell
// positively oriented, and the expected null spaces.
TEST(FamilyReferenceGenerators, TriAndPrismBoxesAfterDistortion) {
  Mesh tri = make_tri_box(4, 3, 2.0, 1.5);
  distort(tri, 0.15, 21);
  const HostCsr<double> Kt = assemble_reference_electrostatics(tri, kEps);
  EXPECT_LE(max_abs(multiply(Kt, std::vector<double>(Kt.num_rows, 1.0))), 1e-13 * max_abs(Kt.vals));
  const std::vector<double> ev = jacobi_eigenvalues(to_dense(Kt));
  EXPECT_GT(ev[1], 1e-3 * ev.back());

  Mesh prisms = make_prism_box(BoxSpec{2, 1, 1, 2.0, 1.0, 0.8});
  distort(prisms, 0.12, 22);
  const PrismCase c = make_case(prisms, 2);
  const double frob = frobenius(c.K);
  for (const auto& mode : rigid_modes(c.dofs))
    EXPECT_LE(norm(multiply(c.K, mode)), 1e-10 * frob * norm(mode));
  EXPECT_GT(seventh_eigenvalue(c.K, c.dofs), kClearlyPositive * frob);
}

// u = A x + b lies in P_p on the linear prism map, so with exact quadrature the internal forces
// vanish at every DOF node off the boundary, and u^T K u = volume * eps^T D eps.
TEST_P(FamilyReferencePrism, LinearDisplacementPatchTest) {
  const PrismCase& c = patch_case(GetParam());
  const double A[3][3] = {{0.3, -0.7, 0.2}, {0.5, 0.1, -0.4}, {-0.6, 0.9, 0.25}}, b[3] = {0.1, -0.2, 0.3};
  std::vector<double> u(c.K.num_rows);
  for (std::size_t n = 0; n < c.dofs.positions.size(); ++n)
    for (int i = 0; i < 3; ++i) {
      u[3 * n + i] = b[i];
      for (int j = 0; j < 3; ++j) u[3 * n + i] += A[i][j] * c.dofs.positions[n][j];
    }
  const std::vector<double> f = multiply(c.K, u);
  const std::vector<bool> boundary = boundary_dof_nodes(c);
  const double tol = 1e-10 * max_abs(c.K.vals) * max_abs(u);
  double boundary_max = 0;
  int interior = 0;
  for (ordinal_t n = 0; n < c.dofs.num_nodes; ++n)
    for (int i = 0; i < 3; ++i) {
      if (boundary[n]) {
        boundary_max = std::max(boundary_max, std::abs(f[3 * n + i]));
      } else {
        EXPECT_LE(std::abs(f[3 * n + i]), tol) << "interior DOF node " << n << " component " << i;
        interior += i == 0;
      }
    }
  EXPECT_GT(interior, 0);
  EXPECT_GT(boundary_max, 1e3 * tol) << "boundary tractions vanish too: the test would prove nothing";

  // Strain energy: the volume from the basis' own quadrature (checked in QuadratureVolume).
  const lagrange::Basis basis = lagrange::tabulate(CellType::prism6, c.dofs.order);
  double volume = 0;
  for (std::size_t e = 0; e < c.mesh.num_elements(); ++e) {
    const CellCoords X = cell_coords(c.mesh, e);
    for (int q = 0; q < basis.nq; ++q) {
      double J[3][3] = {};
      for (int v = 0; v < 6; ++v)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) J[i][j] += basis.dgeo[(q * 6 + v) * 3 + i] * X[v][j];
      volume += basis.weights[q] * (J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
                                    J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                                    J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]));
    }
  }
  const double eps[6] = {A[0][0], A[1][1], A[2][2], A[0][1] + A[1][0], A[1][2] + A[2][1], A[2][0] + A[0][2]};
  double D[6][6], energy = 0;
  kSteel.voigt(D);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) energy += eps[i] * D[i][j] * eps[j];
  EXPECT_NEAR(dot(u, f), volume * energy, 1e-11 * volume * energy);
}

// sum_q w_q det J_q over the mesh against the volume of the same linear prisms integrated by hand:
// the collapsed cube xi = s, eta = (1 - s) t, zeta = z with 3-point Gauss per direction (exact: det J
// is linear in xi, eta and quadratic in zeta). Undistorted boxes give lx ly lz exactly.
double hand_volume(const Mesh& mesh) {
  const double g[3] = {0.5 - 0.5 * std::sqrt(0.6), 0.5, 0.5 + 0.5 * std::sqrt(0.6)},
               w[3] = {5. / 18, 8. / 18, 5. / 18};
  double vol = 0;
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) {
    const CellCoords X = cell_coords(mesh, e);
    for (int i = 0; i < 27; ++i) {
      const double s = g[i % 3], t = g[i / 3 % 3], zeta = g[i / 9], xi = s, eta = (1 - s) * t;
      const double lam[3] = {1 - xi - eta, xi, eta}, dlam[2][3] = {{-1, 1, 0}, {-1, 0, 1}};
      double J[3][3] = {};
      for (int v = 0; v < 6; ++v) {
        const double level = v < 3 ? 1 - zeta : zeta, dlevel = v < 3 ? -1 : 1;
        const double dN[3] = {dlam[0][v % 3] * level, dlam[1][v % 3] * level, lam[v % 3] * dlevel};
        for (int a = 0; a < 3; ++a)
          for (int j = 0; j < 3; ++j) J[a][j] += dN[a] * X[v][j];
      }
      const double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
                         J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                         J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
      vol += w[i % 3] * w[i / 3 % 3] * w[i / 9] * (1 - s) * det;
    }
  }
  return vol;
}

TEST_P(FamilyReferencePrism, QuadratureVolume) {
  const lagrange::Basis basis = lagrange::tabulate(CellType::prism6, GetParam());
  double wsum = 0;
  for (double w : basis.weights) wsum += w;
  EXPECT_NEAR(wsum, 0.5, 1e-14);
  for (double amplitude : {0.0, 0.12}) {
    const Mesh mesh = prism_box(BoxSpec{2, 2, 1, 2.0, 1.5, 0.7}, amplitude, 5);
    double vol = 0;
    for (std::size_t e = 0; e < mesh.num_elements(); ++e) {
      const CellCoords X = cell_coords(mesh, e);
      for (int q = 0; q < basis.nq; ++q) {
        double J[3][3] = {};
        for (int v = 0; v < 6; ++v)
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) J[i][j] += basis.dgeo[(q * 6 + v) * 3 + i] * X[v][j];
        vol += basis.weights[q] * (J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
                                   J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                                   J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]));
      }
    }
    const double expected = amplitude == 0 ? 2.0 * 1.5 * 0.7 : hand_volume(mesh);
    EXPECT_NEAR(vol, expected, 1e-13 * expected) << "amplitude " << amplitude;
    if (amplitude == 0) {
      EXPECT_NEAR(hand_volume(mesh), expected, 1e-13 * expected);
    }
  }
}

// Rotating (and translating) the element rotates Ke: K' = R K R^T node block by node block.
TEST_P(FamilyReferencePrism, UnitPrismMatrixIsInvariantUnderRotation) {
  const lagrange::Basis basis = lagrange::tabulate(CellType::prism6, GetParam());
  const CellCoords X = {{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}}};
  // R about the unit axis n by 0.7 rad (Rodrigues).
  const double ax[3] = {1 / std::sqrt(14.0), 2 / std::sqrt(14.0), 3 / std::sqrt(14.0)}, th = 0.7;
  double R[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R[i][j] = (i == j ? std::cos(th) : 0.0) + (1 - std::cos(th)) * ax[i] * ax[j];
  R[0][1] -= std::sin(th) * ax[2], R[1][0] += std::sin(th) * ax[2];
  R[0][2] += std::sin(th) * ax[1], R[2][0] -= std::sin(th) * ax[1];
  R[1][2] -= std::sin(th) * ax[0], R[2][1] += std::sin(th) * ax[0];
  CellCoords Y;
  const double shift[3] = {4.0, -2.0, 0.5};
  for (int v = 0; v < 6; ++v)
    for (int i = 0; i < 3; ++i) {
      Y[v][i] = shift[i];
      for (int j = 0; j < 3; ++j) Y[v][i] += R[i][j] * X[v][j];
    }
  std::vector<double> K, Kr;
  reference_lagrange_matrix(basis, X, kSteel, K);
  reference_lagrange_matrix(basis, Y, kSteel, Kr);
  const int n = 3 * basis.nsh;
  ASSERT_EQ(K.size(), std::size_t(n) * n);
  const double tol = 1e-12 * max_abs(K);
  double worst = 0;
  for (int a = 0; a < basis.nsh; ++a)
    for (int b = 0; b < basis.nsh; ++b)
      for (int c = 0; c < 3; ++c)
        for (int d = 0; d < 3; ++d) {
          double s = 0;  // (R K_ab R^T)(c, d)
          for (int k = 0; k < 3; ++k)
            for (int l = 0; l < 3; ++l) s += R[c][k] * K[std::size_t(3 * a + k) * n + 3 * b + l] * R[d][l];
          worst = std::max(worst, std::abs(Kr[std::size_t(3 * a + c) * n + 3 * b + d] - s));
        }
  EXPECT_LE(worst, tol);
}

INSTANTIATE_TEST_SUITE_P(Orders, FamilyReferencePrism,
                         ::testing::Range(lagrange::min_order, lagrange::max_order + 1),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return "P" + std::to_string(info.param);
                         });

TEST(FamilyReferencePrismInput, InvertedElementAndWrongFamilyAreRejected) {
  Mesh mesh = prism_box(BoxSpec{1, 1, 1, 1, 1, 1}, 0.0, 1);
  for (int v = 0; v < 3; ++v) std::swap(mesh.elements[1][v], mesh.elements[1][v + 3]);  // upside down
  try {
    assemble_reference_elasticity(mesh, vertex_dof_map(mesh), kSteel);
    ADD_FAILURE() << "an inverted prism was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("element 1"), std::string::npos) << e.what();
  }
  const Mesh tri = tri_box(2, 2, 1, 1);
  EXPECT_THROW(assemble_reference_elasticity(tri, vertex_dof_map(tri), kSteel), InputError);
  const Mesh ok = prism_box(BoxSpec{1, 1, 1, 1, 1, 1}, 0.0, 1);
  EXPECT_THROW(assemble_reference_elasticity(ok, vertex_dof_map(tri), kSteel),
               InputError);                                       // map of another mesh
  EXPECT_THROW(assemble_reference_hex8(ok, kSteel), InputError);  // the hex8 oracle stays hex8
}
}  // namespace
}  // namespace kfem
