// Jacobi-CG on a small constrained stiffness, checked by an independent host mat-vec; block Jacobi's
// inverse blocks and its solves against Jacobi's.
#include <gtest/gtest.h>

#include "backends.hpp"
#include "kfem/assembly/reference.hpp"
#include "kfem/mesh/box.hpp"
#include "kfem/problems/cantilever.hpp"
#include "kfem/problems/dirichlet.hpp"
#include "kfem/problems/tip_deflection.hpp"
#include "kfem/solve/block_jacobi.hpp"
#include "kfem/solve/solver.hpp"
#include "solve_helpers.hpp"

namespace {
using kfem::ordinal_t;

// The constrained 4x2x2 cantilever system, on the host and in Mem.
template <class Exec>
struct SmallSystem {
  using Mem = typename Exec::memory_space;
  kfem::HostCsr<double> K;  // after Dirichlet, copied back
  std::vector<double> rhs;
  kfem::test::DeviceCsr<Mem> A;
  Kokkos::View<double*, Mem> b;
  Kokkos::View<ordinal_t*, Mem> tip;

  SmallSystem() {
    const auto mesh = kfem::make_box({4, 2, 2, 4.0, 2.0, 2.0});
    K = kfem::assemble_reference_hex8(mesh, kfem::Isotropic<double>::from_young(200e9, 0.333));
    const auto load = kfem::cantilever_load(mesh, 1e6);
    A = kfem::test::to_device<Mem>(K);
    b = kfem::test::to_view<double, Mem>(load.force, "rhs");
    tip = kfem::test::to_view<ordinal_t, Mem>(load.tip_nodes, "tip");
    kfem::apply_dirichlet(Exec(), A.graph, A.values, b,
                          kfem::test::to_view<ordinal_t, Mem>(load.fixed_dofs, "fixed"));
    K.vals = kfem::test::to_vector(A.values);
    rhs = kfem::test::to_vector(b);
  }
};

template <class Exec>
class ConjugateGradient : public ::testing::Test {};
TYPED_TEST_SUITE(ConjugateGradient, kfem::test::ExecSpaces, kfem::test::SpaceName);

// Both recurrences: the classic one and Chronopoulos-Gear's single reduction.
kfem::SolverOptions recurrence(bool single_reduction) {
  kfem::SolverOptions opts;
  opts.method = *kfem::solver_named(single_reduction ? "cg-single-reduction" : "cg");
  return opts;
}

TYPED_TEST(ConjugateGradient, SolvesConstrainedStiffness) {
  for (const bool single : {false, true}) {
    SCOPED_TRACE(single ? "single reduction" : "classic");
    const SmallSystem<TypeParam> sys;
    Kokkos::View<double*, typename TypeParam::memory_space> x("x", sys.K.num_rows);
    kfem::SolverOptions opts = recurrence(single);
    opts.tolerance = 1e-10;
    const auto res = kfem::solve_csr(TypeParam(), sys.A.graph, sys.A.values, false, sys.b, x, opts);
    EXPECT_TRUE(res.converged);
    EXPECT_LE(res.relative_residual, opts.tolerance);
    EXPECT_GT(res.iterations, 0);
    EXPECT_LT(res.iterations, sys.K.num_rows);  // Jacobi-CG should need far fewer than n steps
    EXPECT_GE(res.seconds, 0.0);

    // True residual, independently: the recurrence residual may drift a little from it, hence 100x.
    const auto xh = kfem::test::to_vector(x);
    auto r = kfem::test::host_matvec(sys.K, xh);
    for (std::size_t i = 0; i < r.size(); ++i) r[i] = sys.rhs[i] - r[i];
    EXPECT_LE(kfem::test::norm2(r), 100 * opts.tolerance * kfem::test::norm2(sys.rhs));
    EXPECT_LT(kfem::tip_deflection(TypeParam(), x, sys.tip), 0.0);  // the load pushes the tip down
  }
}

// The two recurrences take the same steps in exact arithmetic: the same iteration count (give or
// take one at the tolerance's edge) and solutions that agree far below the tolerance.
TYPED_TEST(ConjugateGradient, SingleReductionFollowsClassic) {
  const SmallSystem<TypeParam> sys;
  std::vector<double> u[2];
  int iterations[2];
  for (const bool single : {false, true}) {
    Kokkos::View<double*, typename TypeParam::memory_space> x("x", sys.K.num_rows);
    kfem::SolverOptions opts = recurrence(single);
    opts.tolerance = 1e-12;
    const auto res = kfem::solve_csr(TypeParam(), sys.A.graph, sys.A.values, false, sys.b, x, opts);
    ASSERT_TRUE(res.converged);
    u[single] = kfem::test::to_vector(x);
    iterations[single] = res.iterations;
  }
  EXPECT_LE(std::abs(iterations[0] - iterations[1]), 1);
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < u[0].size(); ++i) {
    diff = std::max(diff, std::abs(u[0][i] - u[1][i]));
    scale = std::max(scale, std::abs(u[0][i]));
  }
  EXPECT_GT(scale, 0.0);
  EXPECT_LE(diff, 1e-9 * scale);
}

// Every solver of the registry (solver.hpp) solves the constrained stiffness to its tolerance from
// the same operator, and agrees with the classic CG's solution: a new solver is checked here as it
// is registered.
TYPED_TEST(ConjugateGradient, EverySolverMatchesClassicCg) {
  const SmallSystem<TypeParam> sys;
  const auto solved = [&](kfem::SolverId id) {
    Kokkos::View<double*, typename TypeParam::memory_space> x("x", sys.K.num_rows);
    kfem::SolverOptions opts;
    opts.method = id;
    opts.tolerance = 1e-12;
    const auto res = kfem::solve_csr(TypeParam(), sys.A.graph, sys.A.values, false, sys.b, x, opts);
    EXPECT_TRUE(res.converged) << kfem::name_of(id);
    EXPECT_EQ(std::string(res.method), kfem::name_of(id));
    EXPECT_GE(res.setup_seconds(), 0.0);
    return kfem::test::to_vector(x);
  };
  const std::vector<double> classic = solved(kfem::SolverId{});
  double scale = 0;
  for (const double v : classic) scale = std::max(scale, std::abs(v));
  ASSERT_GT(scale, 0.0);
  const auto entries = kfem::solver_entries();
  ASSERT_GE(entries.size(), 2u);
  for (const auto& [name, help] : entries) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(help.empty());
    const auto id = kfem::solver_named(name);
    ASSERT_TRUE(id);
    const std::vector<double> u = solved(*id);
    double diff = 0;
    for (std::size_t i = 0; i < u.size(); ++i) diff = std::max(diff, std::abs(u[i] - classic[i]));
    EXPECT_LE(diff, 1e-9 * scale);
  }
  EXPECT_FALSE(kfem::solver_named("gmres"));
}

TYPED_TEST(ConjugateGradient, ZeroRhsGivesZeroSolution) {
  const SmallSystem<TypeParam> sys;
  for (const bool single : {false, true}) {
    SCOPED_TRACE(single ? "single reduction" : "classic");
    Kokkos::View<double*, typename TypeParam::memory_space> b("b", sys.K.num_rows), x("x", sys.K.num_rows);
    Kokkos::deep_copy(x, 1.0);  // must be overwritten: CG starts from zero
    const auto res = kfem::solve_csr(TypeParam(), sys.A.graph, sys.A.values, false, b, x, recurrence(single));
    EXPECT_TRUE(res.converged);
    EXPECT_EQ(res.iterations, 0);
    for (double v : kfem::test::to_vector(x)) ASSERT_EQ(v, 0.0);
  }
}

TYPED_TEST(ConjugateGradient, ReportsIterationLimit) {
  const SmallSystem<TypeParam> sys;
  for (const bool single : {false, true}) {
    SCOPED_TRACE(single ? "single reduction" : "classic");
    Kokkos::View<double*, typename TypeParam::memory_space> x("x", sys.K.num_rows);
    kfem::SolverOptions opts = recurrence(single);
    opts.max_iterations = 3;
    const auto res = kfem::solve_csr(TypeParam(), sys.A.graph, sys.A.values, false, sys.b, x, opts);
    EXPECT_FALSE(res.converged);
    EXPECT_EQ(res.iterations, 3);
    EXPECT_GT(res.relative_residual, opts.tolerance);
  }
}

// A matrix that is not positive definite along the first direction stops either recurrence with
// converged = false and the offending curvature, instead of dividing by it.
TYPED_TEST(ConjugateGradient, StopsOnNegativeCurvature) {
  const SmallSystem<TypeParam> sys;
  for (const bool single : {false, true}) {
    SCOPED_TRACE(single ? "single reduction" : "classic");
    std::vector<double> negated = sys.K.vals;
    for (double& v : negated) v = -v;
    const auto values = kfem::test::to_view<double, typename TypeParam::memory_space>(negated, "negated");
    Kokkos::View<double*, typename TypeParam::memory_space> x("x", sys.K.num_rows);
    const auto res = kfem::solve_csr(TypeParam(), sys.A.graph, values, false, sys.b, x, recurrence(single));
    EXPECT_FALSE(res.converged);
    EXPECT_EQ(res.iterations, 0);
    EXPECT_LT(res.curvature, 0.0);
  }
}
// K(r, c) of a host CSR, 0 where the pattern has no entry.
double entry(const kfem::HostCsr<double>& K, ordinal_t r, ordinal_t c) {
  for (auto k = K.row_map[r]; k < K.row_map[r + 1]; ++k)
    if (K.cols[k] == c) return K.vals[k];
  return 0.0;
}

// Each inverse block (block_jacobi.hpp) times its node's 3 x 3 diagonal block of K is the identity,
// from full storage and from the lower triangle alike.
TYPED_TEST(ConjugateGradient, BlockJacobiInvertsEveryNodeBlock) {
  using Mem = typename TypeParam::memory_space;
  const SmallSystem<TypeParam> sys;
  const ordinal_t nodes = sys.K.num_rows / 3;
  for (const bool lower : {false, true}) {
    SCOPED_TRACE(lower ? "lower" : "full");
    const auto A = lower ? kfem::test::to_device<Mem>(kfem::test::lower_of(sys.K)) : sys.A;
    const Kokkos::View<double*, Mem> d("d", 9 * std::size_t(nodes));
    kfem::block_jacobi::from_csr<3>(TypeParam(), A.graph, A.values, lower, d);
    const std::vector<double> inv = kfem::test::to_vector(d);
    double worst = 0;
    for (ordinal_t n = 0; n < nodes; ++n)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          double p = 0;
          for (int k = 0; k < 3; ++k) p += inv[9 * n + 3 * i + k] * entry(sys.K, 3 * n + k, 3 * n + j);
          worst = std::max(worst, std::abs(p - (i == j ? 1.0 : 0.0)));
        }
    EXPECT_LE(worst, 1e-12);
  }
}

// A singular block keeps Jacobi's rule on its rows: 1 / A(r, r), 1 where that is 0.
TEST(BlockJacobi, SingularBlockFallsBackToTheDiagonal) {
  double a[3][3] = {{2, 0, 0}, {0, 0, 0}, {0, 0, 4}}, inv[3][3];
  kfem::block_jacobi::invert<3>(a, inv);
  const double want[3][3] = {{0.5, 0, 0}, {0, 1, 0}, {0, 0, 0.25}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(inv[i][j], want[i][j]) << i << ", " << j;
  double b[3][3] = {{0, 1, 0}, {1, 0, 0}, {0, 0, 2}}, binv[3][3];  // needs a row swap, not singular
  kfem::block_jacobi::invert<3>(b, binv);
  const double bwant[3][3] = {{0, 1, 0}, {1, 0, 0}, {0, 0, 0.5}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(binv[i][j], bwant[i][j]) << i << ", " << j;
}

// Block Jacobi solves the same system as Jacobi (both recurrences, full and lower storage) to the
// same solution; an operator without a block diagonal refuses it in one line.
TYPED_TEST(ConjugateGradient, BlockJacobiSolvesLikeJacobi) {
  using Mem = typename TypeParam::memory_space;
  const SmallSystem<TypeParam> sys;
  const auto lowered = kfem::test::to_device<Mem>(kfem::test::lower_of(sys.K));
  for (const bool single : {false, true}) {
    SCOPED_TRACE(single ? "single reduction" : "classic");
    kfem::SolverOptions opts = recurrence(single);
    opts.tolerance = 1e-12;
    Kokkos::View<double*, Mem> x("x", sys.K.num_rows), y("y", sys.K.num_rows), z("z", sys.K.num_rows);
    const auto jacobi = kfem::solve_csr(TypeParam(), sys.A.graph, sys.A.values, false, sys.b, x, opts);
    opts.preconditioner = kfem::Preconditioner::block_jacobi;
    opts.block = 3;
    const auto block = kfem::solve_csr(TypeParam(), sys.A.graph, sys.A.values, false, sys.b, y, opts);
    const auto block_lower =
        kfem::solve_csr(TypeParam(), lowered.graph, lowered.values, true, sys.b, z, opts);
    ASSERT_TRUE(jacobi.converged);
    ASSERT_TRUE(block.converged);
    ASSERT_TRUE(block_lower.converged);
    EXPECT_LE(std::abs(block.iterations - block_lower.iterations), 1);
    const auto u = kfem::test::to_vector(x), v = kfem::test::to_vector(y), w = kfem::test::to_vector(z);
    double diff = 0, scale = 0;
    for (std::size_t i = 0; i < u.size(); ++i) {
      diff = std::max({diff, std::abs(u[i] - v[i]), std::abs(u[i] - w[i])});
      scale = std::max(scale, std::abs(u[i]));
    }
    EXPECT_GT(scale, 0.0);
    EXPECT_LE(diff, 1e-9 * scale);
  }
}

// The operator contract's minimum (solver.hpp): no block diagonal, so block-jacobi is refused.
template <class Exec>
struct DiagonalOnly {
  using Vec = Kokkos::View<double*, Kokkos::Device<Exec, typename Exec::memory_space>>;
  kfem::CsrOperator<Exec, double> A;
  void apply(const Vec& x, const Vec& y) const { A.apply(x, y); }
  void inverse_diagonal(const Exec& exec, const Vec& d) const { A.inverse_diagonal(exec, d); }
};
TYPED_TEST(ConjugateGradient, BlockJacobiNeedsABlockDiagonal) {
  using Device = Kokkos::Device<TypeParam, typename TypeParam::memory_space>;
  const SmallSystem<TypeParam> sys;
  const DiagonalOnly<TypeParam> op{kfem::CsrOperator<TypeParam, double>(sys.A.graph, sys.A.values, false)};
  kfem::SolverOptions opts;
  opts.preconditioner = kfem::Preconditioner::block_jacobi;
  opts.block = 3;
  const Kokkos::View<double*, Device> x("x", sys.K.num_rows);
  EXPECT_THROW(kfem::solve(TypeParam(), op, Kokkos::View<const double*, Device>(sys.b), x, opts),
               kfem::InputError);
  opts.block = 1;  // one DOF a node: block Jacobi is Jacobi, which every operator has
  const auto res = kfem::solve(TypeParam(), op, Kokkos::View<const double*, Device>(sys.b), x, opts);
  EXPECT_TRUE(res.converged);
}
}  // namespace
