// Jacobi-CG on a small constrained stiffness, checked by an independent host mat-vec.
#include <gtest/gtest.h>

#include "backends.hpp"
#include "kfem/assembly/reference.hpp"
#include "kfem/mesh/box.hpp"
#include "kfem/problems/cantilever.hpp"
#include "kfem/problems/dirichlet.hpp"
#include "kfem/problems/tip_deflection.hpp"
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
}  // namespace
