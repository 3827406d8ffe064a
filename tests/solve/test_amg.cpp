// Solver amg (solve/amg.hpp): the constrained cantilever solved by hypre's BoomerAMG-preconditioned
// CG reaches the Jacobi-CG solution (both to 1e-10) in fewer iterations, from full CSR, lower CSR and
// block storage alike (host_matrix() gives every entry of each; the driver's test adds bsr-lower); an
// operator without an assembled matrix is refused in one line. And full_symmetric (sparsity/csr.hpp)
// rebuilds a matrix from its lower triangle exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "assembly/fixture.hpp"
#include "backends.hpp"
#include "kfem/core/error.hpp"
#include "kfem/problems/cantilever.hpp"
#include "kfem/problems/dirichlet.hpp"
#include "kfem/problems/tip_deflection.hpp"
#include "kfem/solve/bsr_operator.hpp"
#include "kfem/solve/solver.hpp"
#include "solve_helpers.hpp"

namespace {
using kfem::offset_t;
using kfem::ordinal_t;

TEST(FullSymmetric, RebuildsTheMatrixFromItsLowerTriangle) {
  const kfem::HostCsr<double> K =
      kfem::assemble_reference_hex8(kfem::test::distorted_beam(), kfem::test::steel());
  const kfem::HostCsr<double> F = kfem::full_symmetric(kfem::test::lower_of(K), true);
  EXPECT_EQ(F.row_map, K.row_map);
  EXPECT_EQ(F.cols, K.cols);
  ASSERT_EQ(F.vals.size(), K.vals.size());
  // The oracle's K is symmetric to rounding only: each mirrored entry is its lower twin exactly.
  for (ordinal_t r = 0; r < K.num_rows; ++r)
    for (offset_t k = K.row_map[r]; k < K.row_map[r + 1]; ++k) {
      const ordinal_t c = K.cols[k];
      const double want = c <= r ? K.vals[k] : F.vals[k];
      EXPECT_EQ(F.vals[k], want);
      EXPECT_NEAR(F.vals[k], K.vals[k], 1e-9 * std::abs(K.vals[k]) + 1e-6);
    }
  const kfem::HostCsr<double> same = kfem::full_symmetric(K, false);
  EXPECT_EQ(0, std::memcmp(same.vals.data(), K.vals.data(), sizeof(double) * K.vals.size()));
}

template <class Exec>
class Amg : public ::testing::Test {};
TYPED_TEST_SUITE(Amg, kfem::test::ExecSpaces, kfem::test::SpaceName);

TYPED_TEST(Amg, ReachesJacobiCgOnEveryAssembledStorage) {
  using Exec = TypeParam;
  using Mem = typename Exec::memory_space;
  using Device = Kokkos::Device<Exec, Mem>;
  using kfem::test::to_view;
  if (!kfem::amg_detail::available()) GTEST_SKIP() << "built without hypre";
  const kfem::Mesh mesh = kfem::test::distorted_beam(12, 3, 3);
  const kfem::HostCsr<double> K = kfem::assemble_reference_hex8(mesh, kfem::test::steel());
  const kfem::CantileverLoad load = kfem::cantilever_load(mesh, 1e6);
  const auto fixed = to_view<ordinal_t, Mem>(load.fixed_dofs, "fixed");
  const Kokkos::View<double*, Mem> zeros("zeros", load.fixed_dofs.size());
  const auto tip_nodes = to_view<ordinal_t, Mem>(load.tip_nodes, "tip");
  const auto A = kfem::test::to_device<Mem>(K);
  const auto b = to_view<double, Mem>(load.force, "rhs");
  kfem::apply_dirichlet(Exec(), A.graph, A.values, b, fixed, zeros);

  kfem::SolverOptions cg{kfem::SolverId{}, 1e-10, 20000, kfem::Preconditioner::jacobi, 3};
  kfem::SolverOptions amg = cg;
  amg.method = *kfem::solver_named("amg");
  Kokkos::View<double*, Mem> x_cg("x", K.num_rows);
  const kfem::SolveResult by_cg = kfem::solve_csr(Exec(), A.graph, A.values, false, b, x_cg, cg);
  ASSERT_TRUE(by_cg.converged);
  const double tip = kfem::tip_deflection(Exec(), x_cg, tip_nodes);
  const std::vector<double> u_cg = kfem::test::to_vector(x_cg);
  double u_max = 0;
  for (const double v : u_cg) u_max = std::max(u_max, std::abs(v));

  const auto check = [&](const kfem::SolveResult& r, const Kokkos::View<double*, Mem>& x, const char* what) {
    SCOPED_TRACE(what);
    EXPECT_STREQ(r.method, "amg");
    EXPECT_TRUE(r.converged);
    EXPECT_LE(r.relative_residual, 1e-10);
    EXPECT_LT(r.iterations, by_cg.iterations);  // fewer steps; how many fewer grows with the mesh
    EXPECT_GE(r.seconds, r.iterations_seconds);
    EXPECT_NEAR(kfem::tip_deflection(Exec(), x, tip_nodes), tip, 1e-7 * std::abs(tip));
    const std::vector<double> u = kfem::test::to_vector(x);
    double diff = 0;
    for (std::size_t i = 0; i < u.size(); ++i) diff = std::max(diff, std::abs(u[i] - u_cg[i]));
    EXPECT_LE(diff, 1e-6 * u_max);
  };
  {
    Kokkos::View<double*, Mem> x("x", K.num_rows);
    check(kfem::solve_csr(Exec(), A.graph, A.values, false, b, x, amg), x, "csr");
  }
  {
    const auto L = kfem::test::to_device<Mem>(kfem::test::lower_of(K));
    const auto bl = to_view<double, Mem>(load.force, "rhs");
    kfem::apply_dirichlet(Exec(), L.graph, L.values, bl, fixed, zeros);
    Kokkos::View<double*, Mem> x("x", K.num_rows);
    check(kfem::solve_csr(Exec(), L.graph, L.values, true, bl, x, amg), x, "csr-lower");
  }
  {
    const kfem::test::HostBsr B = kfem::test::to_blocks(kfem::to_host(A.graph, A.values));
    const auto g = kfem::test::to_device<Mem>(B.node).graph;
    const auto v = to_view<double, Mem>(B.blocks, "blocks");
    const Kokkos::View<double*, Device> x("x", K.num_rows);
    const auto r = kfem::solve(Exec(), kfem::BsrOperator<Exec, double>(g, 3, v),
                               Kokkos::View<const double*, Device>(b), x, amg);
    check(r, Kokkos::View<double*, Mem>(x), "bsr");
  }
}

// An operator without host_matrix() (here: the contract's bare minimum) is refused in one line.
struct Matrixless {
  using Vec = Kokkos::View<double*, Kokkos::Device<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>>;
  void apply(const Vec&, const Vec& y) const { Kokkos::deep_copy(y, 0.0); }
  void inverse_diagonal(const Kokkos::DefaultHostExecutionSpace&, const Vec& d) const {
    Kokkos::deep_copy(d, 1.0);
  }
};
TEST(AmgRefuses, AnOperatorWithoutAnAssembledMatrix) {
  kfem::SolverOptions amg;
  amg.method = *kfem::solver_named("amg");
  const Matrixless::Vec b("b", 3), x("x", 3);
  Kokkos::deep_copy(b, 1.0);
  try {
    kfem::solve(Kokkos::DefaultHostExecutionSpace(), Matrixless{},
                Kokkos::View<const double*, Matrixless::Vec::device_type>(b), x, amg);
    FAIL() << "no error";
  } catch (const kfem::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("solver amg needs an assembled matrix"), std::string::npos)
        << e.what();
  }
}
}  // namespace
