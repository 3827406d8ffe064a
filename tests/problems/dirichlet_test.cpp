// Dirichlet conditions by name (host) and their non-homogeneous application on the device.
#include "kfem/problems/dirichlet.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>

#include "backends.hpp"
#include "kfem/core/error.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/fe/lagrange_basis.hpp"
#include "kfem/mesh/box.hpp"
#include "kfem/problems/boundary_conditions.hpp"
#include "kfem/solve/solver.hpp"
#include "problems/problems_helpers.hpp"

namespace {
using kfem::ordinal_t;

double linear(const std::array<double, 3>& x) {
  return 1.0 + 2.0 * x[0] - 3.0 * x[1];
}

// A jittered unit square whose boundary nodes also form one-node sets "n<id>": non-constant
// boundary data given by name, one condition per node.
kfem::Mesh square(int n) {
  kfem::Mesh mesh = kfem::make_tri_box(n, n, 1.0, 1.0);
  kfem::distort(mesh, 0.15, 7);  // P1 reproduces a linear field on any mesh
  std::map<std::string, std::vector<ordinal_t>> singles;
  for (const auto& [name, set] : mesh.node_sets)
    for (ordinal_t v : set) singles["n" + std::to_string(v)] = {v};
  mesh.node_sets.insert(singles.begin(), singles.end());
  return mesh;
}

std::vector<kfem::DirichletCondition> linear_on_boundary(const kfem::Mesh& mesh) {
  std::vector<kfem::DirichletCondition> out;
  for (const auto& [name, set] : mesh.node_sets)
    if (name[0] == 'n') out.push_back({name, {linear(mesh.nodes[set[0]])}});
  return out;
}

TEST(FixedDofsByName, SortedValuesLastWins) {
  kfem::Mesh mesh = kfem::make_tri_box(4, 3, 4.0, 3.0);
  const auto dofs = kfem::vertex_dof_map(mesh);
  const auto f = kfem::fixed_dofs_by_name(mesh, dofs, 1, {{"xmin", {1.0}}, {"ymin", {2.0}}}, "test");
  const auto& xmin = mesh.node_sets.at("xmin");
  const auto& ymin = mesh.node_sets.at("ymin");
  ASSERT_EQ(f.dofs.size(), f.values.size());
  EXPECT_TRUE(std::is_sorted(f.dofs.begin(), f.dofs.end()));
  EXPECT_EQ(f.dofs.size(), xmin.size() + ymin.size() - 1);  // the corner (0, 0) is on both
  for (std::size_t i = 0; i < f.dofs.size(); ++i) {
    const bool on_ymin = std::binary_search(ymin.begin(), ymin.end(), f.dofs[i]);
    EXPECT_EQ(f.values[i], on_ymin ? 2.0 : 1.0) << "dof " << f.dofs[i];
  }
}

TEST(FixedDofsByName, ThreeComponents) {
  const kfem::Mesh mesh = kfem::make_box({3, 2, 2, 3.0, 2.0, 2.0});
  const auto dofs = kfem::vertex_dof_map(mesh);
  const auto f = kfem::fixed_dofs_by_name(mesh, dofs, 3, {{"xmin", {0.5, -1.0, 2.0}}}, "test");
  const auto& xmin = mesh.node_sets.at("xmin");
  ASSERT_EQ(f.dofs.size(), 3 * xmin.size());
  for (std::size_t i = 0; i < f.dofs.size(); ++i) {
    EXPECT_EQ(f.dofs[i], 3 * xmin[i / 3] + ordinal_t(i % 3));
    EXPECT_EQ(f.values[i], (std::array<double, 3>{0.5, -1.0, 2.0}[i % 3]));
  }
}

TEST(FixedDofsByName, Errors) {
  const kfem::Mesh mesh = kfem::make_tri_box(2, 2, 1.0, 1.0);
  const auto dofs = kfem::vertex_dof_map(mesh);
  try {
    kfem::fixed_dofs_by_name(mesh, dofs, 1, {{"plate", {1.0}}}, "deck.yaml");
    FAIL() << "unknown name accepted";
  } catch (const kfem::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("deck.yaml: no physical group named 'plate' in the mesh (known: "),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(kfem::fixed_dofs_by_name(mesh, dofs, 1, {{"xmin", {1.0, 2.0}}}, "deck"), kfem::InputError);
  EXPECT_THROW(kfem::fixed_dofs_by_name(mesh, dofs, 2, {{"xmin", {1.0, 2.0}}}, "deck"), kfem::InputError);
}

// Order p >= 2: the DOF nodes of a face set are the face's vertices, edge and face nodes, and
// exactly those lying on the plane (the box face), for every order.
TEST(DofNodesOn, HighOrderPrismFaces) {
  const kfem::Mesh mesh = kfem::make_prism_box({3, 2, 2, 3.0, 2.0, 2.0});
  for (int p = 1; p <= 3; ++p)
    for (const char* side : {"xmax", "ymin", "zmax"}) {
      const auto dofs = kfem::lagrange_dof_map(mesh, p);
      const auto on = kfem::dof_nodes_on(mesh, dofs, mesh.node_sets.at(side));
      const int axis = side[0] - 'x';
      const double plane = side[1] == 'm' && side[2] == 'a' ? (axis == 0 ? 3.0 : 2.0) : 0.0;
      std::vector<ordinal_t> expected;
      for (ordinal_t n = 0; n < dofs.num_nodes; ++n)
        if (std::abs(dofs.positions[n][axis] - plane) < 1e-12) expected.push_back(n);
      EXPECT_EQ(on, expected) << "p = " << p << ", " << side;
    }
}

template <class Exec>
class ApplyDirichletValues : public ::testing::Test {};
TYPED_TEST_SUITE(ApplyDirichletValues, kfem::test::ExecSpaces, kfem::test::SpaceName);

// Entry by entry against a host lifting of the same data, in full and in lower storage.
TYPED_TEST(ApplyDirichletValues, MatchesHostLifting) {
  using Mem = typename TypeParam::memory_space;
  kfem::Mesh mesh = kfem::make_tri_box(6, 5, 1.0, 1.0);
  kfem::distort(mesh, 0.15, 11);
  const auto K = kfem::test::laplace_p1(mesh);
  const auto dofs = kfem::vertex_dof_map(mesh);
  const auto f = kfem::fixed_dofs_by_name(mesh, dofs, 1, {{"xmin", {3.0}}, {"ymax", {-2.0}}}, "test");
  std::vector<char> fixed(K.num_rows, 0);
  std::vector<double> g(K.num_rows, 0.0);
  for (std::size_t i = 0; i < f.dofs.size(); ++i) fixed[f.dofs[i]] = 1, g[f.dofs[i]] = f.values[i];
  std::vector<double> rhs(K.num_rows);
  std::iota(rhs.begin(), rhs.end(), 1.0);

  std::vector<double> want_rhs(rhs);
  const auto diagonal = [&](ordinal_t r) {
    for (kfem::offset_t k = K.row_map[r]; k < K.row_map[r + 1]; ++k)
      if (K.cols[k] == r) return K.vals[k];
    return 0.0;
  };
  for (ordinal_t r = 0; r < K.num_rows; ++r) {
    if (fixed[r]) {
      want_rhs[r] = diagonal(r) * g[r];
      continue;
    }
    for (kfem::offset_t k = K.row_map[r]; k < K.row_map[r + 1]; ++k) want_rhs[r] -= K.vals[k] * g[K.cols[k]];
  }
  for (bool lower : {false, true}) {
    const auto H = lower ? kfem::test::lower_of(K) : K;
    auto A = kfem::test::to_device<Mem>(H);
    const auto b = kfem::test::to_view<double, Mem>(rhs, "rhs");
    kfem::apply_dirichlet(TypeParam(), A.graph, A.values, b,
                          kfem::test::to_view<ordinal_t, Mem>(f.dofs, "fixed"),
                          kfem::test::to_view<double, Mem>(f.values, "values"));
    const auto vals = kfem::test::to_vector(A.values);
    const auto out = kfem::test::to_vector(b);
    for (ordinal_t r = 0; r < H.num_rows; ++r) {
      EXPECT_NEAR(out[r], want_rhs[r], 1e-12 * (1 + std::abs(want_rhs[r])))
          << "rhs " << r << (lower ? " lower" : "");
      for (kfem::offset_t k = H.row_map[r]; k < H.row_map[r + 1]; ++k) {
        const ordinal_t c = H.cols[k];
        const double expected =
            (fixed[r] || fixed[c]) && r != c ? 0.0 : H.vals[k];  // fixed rows keep their diagonal
        ASSERT_EQ(vals[k], expected) << "entry (" << r << ", " << c << ")" << (lower ? " lower" : "");
      }
    }
  }
}

// All values 0: the homogeneous overload's matrix and rhs, except the kept diagonal of fixed rows.
TYPED_TEST(ApplyDirichletValues, ZeroValuesMatchHomogeneousOffTheDiagonal) {
  using Mem = typename TypeParam::memory_space;
  const kfem::Mesh mesh = kfem::make_tri_box(5, 4, 1.0, 1.0);
  const auto K = kfem::test::laplace_p1(mesh);
  const auto f = kfem::fixed_dofs_by_name(mesh, kfem::vertex_dof_map(mesh), 1, {{"ymin", {0.0}}}, "test");
  std::vector<double> rhs(K.num_rows);
  std::iota(rhs.begin(), rhs.end(), -3.0);
  auto A1 = kfem::test::to_device<Mem>(K), A2 = kfem::test::to_device<Mem>(K);
  const auto b1 = kfem::test::to_view<double, Mem>(rhs, "b1"),
             b2 = kfem::test::to_view<double, Mem>(rhs, "b2");
  const auto fixed = kfem::test::to_view<ordinal_t, Mem>(f.dofs, "fixed");
  kfem::apply_dirichlet(TypeParam(), A1.graph, A1.values, b1, fixed);
  kfem::apply_dirichlet(TypeParam(), A2.graph, A2.values, b2, fixed,
                        kfem::test::to_view<double, Mem>(f.values, "v"));
  const auto v1 = kfem::test::to_vector(A1.values), v2 = kfem::test::to_vector(A2.values);
  for (ordinal_t r = 0; r < K.num_rows; ++r)
    for (kfem::offset_t k = K.row_map[r]; k < K.row_map[r + 1]; ++k)
      if (K.cols[k] == r && std::binary_search(f.dofs.begin(), f.dofs.end(), r)) {
        EXPECT_EQ(v1[k], 1.0);
        EXPECT_EQ(v2[k], K.vals[k]);
      } else {
        EXPECT_EQ(v1[k], v2[k]) << "entry " << k;
      }
  EXPECT_EQ(kfem::test::to_vector(b1), kfem::test::to_vector(b2));
}

// Solving the lifted system reproduces a linear potential at every node (P1 is exact for it),
// with the boundary values given per node by name, in full and in lower storage.
TYPED_TEST(ApplyDirichletValues, LiftedSolveIsExactForLinearField) {
  using Mem = typename TypeParam::memory_space;
  const kfem::Mesh mesh = square(8);
  const auto K = kfem::test::laplace_p1(mesh);
  const auto f =
      kfem::fixed_dofs_by_name(mesh, kfem::vertex_dof_map(mesh), 1, linear_on_boundary(mesh), "test");
  ASSERT_EQ(f.dofs.size(), std::size_t(4 * 8));
  for (bool lower : {false, true}) {
    auto A = kfem::test::to_device<Mem>(lower ? kfem::test::lower_of(K) : K);
    const Kokkos::View<double*, Mem> b("b", K.num_rows), x("x", K.num_rows);
    kfem::apply_dirichlet(TypeParam(), A.graph, A.values, b,
                          kfem::test::to_view<ordinal_t, Mem>(f.dofs, "fixed"),
                          kfem::test::to_view<double, Mem>(f.values, "values"));
    kfem::SolverOptions opts;
    opts.tolerance = 1e-14;
    const auto res = kfem::solve_csr(TypeParam(), A.graph, A.values, lower, b, x, opts);
    ASSERT_TRUE(res.converged) << (lower ? "lower" : "full");
    const auto u = kfem::test::to_vector(x);
    for (std::size_t n = 0; n < mesh.num_nodes(); ++n)
      EXPECT_NEAR(u[n], linear(mesh.nodes[n]), 1e-11) << "node " << n << (lower ? " lower" : " full");
  }
}

TYPED_TEST(ApplyDirichletValues, DetectsStorage) {
  using Mem = typename TypeParam::memory_space;
  const auto K = kfem::test::laplace_p1(kfem::make_tri_box(3, 3, 1.0, 1.0));
  EXPECT_FALSE(kfem::is_lower_storage(TypeParam(), kfem::test::to_device<Mem>(K).graph));
  EXPECT_TRUE(kfem::is_lower_storage(TypeParam(), kfem::test::to_device<Mem>(kfem::test::lower_of(K)).graph));
}
}  // namespace
