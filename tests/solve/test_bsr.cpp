// Block storage (sparsity/bsr.hpp) against the CSR of the same matrix: both block SpMV kernels
// against Kokkos Kernels' spmv, the Dirichlet conditions on blocks against those on CSR (the blocks
// expanded, bit for bit), and CG on BsrOperator against CG on the CSR of the constrained cantilever;
// lower block storage likewise against lower CSR storage.
#include <gtest/gtest.h>

#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "assembly/fixture.hpp"
#include "backends.hpp"
#include "kfem/problems/cantilever.hpp"
#include "kfem/problems/dirichlet.hpp"
#include "kfem/problems/tip_deflection.hpp"
#include "kfem/solve/bsr_operator.hpp"
#include "kfem/solve/solver.hpp"
#include "kfem/sparsity/bsr.hpp"
#include "solve_helpers.hpp"

namespace {
using kfem::offset_t;
using kfem::ordinal_t;

// Lower block storage of the same matrix: the blocks with node column <= node row, a diagonal
// block's entries above its diagonal zero (bsr.hpp).
using kfem::test::HostBsr;
using kfem::test::to_blocks;
HostBsr lower_blocks(const HostBsr& b) {
  HostBsr l;
  l.node.num_rows = b.node.num_rows;
  l.node.row_map.push_back(0);
  for (ordinal_t n = 0; n < b.node.num_rows; ++n) {
    for (offset_t k = b.node.row_map[n]; k < b.node.row_map[n + 1]; ++k) {
      const ordinal_t m = b.node.cols[k];
      if (m > n) continue;
      l.node.cols.push_back(m);
      for (int c = 0; c < 3; ++c)
        for (int d = 0; d < 3; ++d) l.blocks.push_back(m == n && d > c ? 0.0 : b.blocks[9 * k + 3 * c + d]);
    }
    l.node.row_map.push_back(offset_t(l.node.cols.size()));
  }
  return l;
}

template <class Exec>
class Bsr : public ::testing::Test {};
TYPED_TEST_SUITE(Bsr, kfem::test::ExecSpaces, kfem::test::SpaceName);

TYPED_TEST(Bsr, SpmvKernelsMatchKokkosKernels) {
  using Exec = TypeParam;
  using Mem = typename Exec::memory_space;
  using Device = Kokkos::Device<Exec, Mem>;
  using Matrix = KokkosSparse::CrsMatrix<double, ordinal_t, Device, void, offset_t>;
  using kfem::test::to_view;
  const kfem::Mesh mesh = kfem::test::distorted_beam();
  const kfem::HostCsr<double> K = kfem::assemble_reference_hex8(mesh, kfem::test::steel());
  const HostBsr B = to_blocks(K);
  ASSERT_EQ(B.blocks.size(), std::size_t(K.nnz()));
  const auto full = kfem::test::to_device<Mem>(K);
  const Matrix mat("K", K.num_rows, full.values,
                   typename Matrix::StaticCrsGraphType(full.graph.cols, full.graph.row_map));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  std::vector<double> xh(K.num_rows);
  for (double& v : xh) v = uni(rng);
  const Kokkos::View<double*, Device> x = to_view<double, Mem>(xh, "x"), y("y", K.num_rows);
  KokkosSparse::spmv("N", 1.0, mat, x, 0.0, y);
  const std::vector<double> expected = kfem::test::to_vector(y);
  const auto node = kfem::test::to_device<Mem>(B.node).graph;
  const auto blocks = to_view<double, Mem>(B.blocks, "blocks");
  for (const auto kernel :
       {kfem::BsrSpmvKernel::rows, kfem::BsrSpmvKernel::lanes, kfem::BsrSpmvKernel::automatic}) {
    Kokkos::deep_copy(y, std::nan(""));
    kfem::bsr_spmv<Exec, double>(Exec(), node, 3, blocks, x, y, kernel);
    const std::vector<double> got = kfem::test::to_vector(y);
    double diff = 0, scale = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
      diff = std::max(diff, std::abs(got[i] - expected[i])), scale = std::max(scale, std::abs(expected[i]));
    EXPECT_LE(diff, 1e-13 * scale) << "kernel " << int(kernel);
  }
  // The operator's two block SpMVs, kfem's and Kokkos Kernels' BsrMatrix on the same arrays.
  for (const auto how : {kfem::BsrApply::automatic, kfem::BsrApply::kfem, kfem::BsrApply::kokkos_kernels}) {
    Kokkos::deep_copy(y, std::nan(""));
    kfem::BsrOperator<Exec, double>(node, 3, blocks, how).apply(x, y);
    const std::vector<double> got = kfem::test::to_vector(y);
    double diff = 0, scale = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
      diff = std::max(diff, std::abs(got[i] - expected[i])), scale = std::max(scale, std::abs(expected[i]));
    EXPECT_LE(diff, 1e-13 * scale) << "BsrApply " << int(how);
  }
  // The expansion is the inverse of to_blocks: the CSR values, entry for entry.
  Kokkos::View<double*, Mem> expanded("expanded", K.nnz());
  kfem::expand_blocks<Exec, double>(Exec(), node, full.graph, 3, blocks, expanded);
  const std::vector<double> e = kfem::test::to_vector(expanded);
  EXPECT_EQ(0, std::memcmp(e.data(), K.vals.data(), sizeof(double) * e.size()));
}

// Dirichlet on blocks leaves the values Dirichlet on CSR leaves (expanded, bit for bit) and the same
// right-hand side; CG on BsrOperator then reaches CG on CSR's solution and tip.
TYPED_TEST(Bsr, ConstrainedCantileverSolvesLikeCsr) {
  using Exec = TypeParam;
  using Mem = typename Exec::memory_space;
  using kfem::test::to_view;
  const kfem::Mesh mesh = kfem::test::distorted_beam(8, 3, 3);
  const kfem::HostCsr<double> K = kfem::assemble_reference_hex8(mesh, kfem::test::steel());
  const kfem::CantileverLoad load = kfem::cantilever_load(mesh, 1e6);
  const auto fixed = to_view<ordinal_t, Mem>(load.fixed_dofs, "fixed");
  const Kokkos::View<double*, Mem> zeros("zeros", load.fixed_dofs.size());
  const kfem::SolverOptions opts{kfem::SolverId{}, 1e-10, 10000};
  const auto tip_nodes = to_view<ordinal_t, Mem>(load.tip_nodes, "tip");

  const auto A = kfem::test::to_device<Mem>(K);
  const auto b_csr = to_view<double, Mem>(load.force, "rhs");
  kfem::apply_dirichlet(Exec(), A.graph, A.values, b_csr, fixed, zeros);
  Kokkos::View<double*, Mem> x_csr("x", K.num_rows);
  const kfem::SolveResult csr = kfem::solve_csr(Exec(), A.graph, A.values, false, b_csr, x_csr, opts);

  const HostBsr B = to_blocks(K);
  const auto node = kfem::test::to_device<Mem>(B.node).graph;
  const auto blocks = to_view<double, Mem>(B.blocks, "blocks");
  const auto b_bsr = to_view<double, Mem>(load.force, "rhs");
  kfem::apply_dirichlet_blocks(Exec(), node, 3, blocks, b_bsr, fixed, zeros);
  Kokkos::View<double*, Mem> expanded("expanded", K.nnz());
  kfem::expand_blocks<Exec, double>(Exec(), node, A.graph, 3, blocks, expanded);
  const std::vector<double> e = kfem::test::to_vector(expanded), c = kfem::test::to_vector(A.values);
  EXPECT_EQ(0, std::memcmp(e.data(), c.data(), sizeof(double) * e.size()));
  const std::vector<double> rb = kfem::test::to_vector(b_bsr), rc = kfem::test::to_vector(b_csr);
  EXPECT_EQ(0, std::memcmp(rb.data(), rc.data(), sizeof(double) * rb.size()));

  using Device = Kokkos::Device<Exec, Mem>;
  const Kokkos::View<double*, Device> x_bsr("x", K.num_rows);
  const kfem::SolveResult bsr = kfem::solve(Exec(), kfem::BsrOperator<Exec, double>(node, 3, blocks),
                                            Kokkos::View<const double*, Device>(b_bsr), x_bsr, opts);
  ASSERT_TRUE(csr.converged);
  ASSERT_TRUE(bsr.converged);
  const double tip_csr = kfem::tip_deflection(Exec(), x_csr, tip_nodes);
  const double tip_bsr = kfem::tip_deflection(Exec(), Kokkos::View<double*, Mem>(x_bsr), tip_nodes);
  EXPECT_LT(tip_csr, 0.0);
  EXPECT_LE(std::abs(tip_bsr - tip_csr), 1e-9 * std::abs(tip_csr));
  EXPECT_NEAR(bsr.iterations, csr.iterations, 2);

  // Block Jacobi from the blocks against block Jacobi from the CSR (block_jacobi.hpp): the same
  // inverse blocks, so the same steps and the same solution.
  kfem::SolverOptions block_opts = opts;
  block_opts.preconditioner = kfem::Preconditioner::block_jacobi;
  block_opts.block = 3;
  Kokkos::View<double*, Mem> y_csr("y", K.num_rows);
  const kfem::SolveResult csr_block =
      kfem::solve_csr(Exec(), A.graph, A.values, false, b_csr, y_csr, block_opts);
  const Kokkos::View<double*, Device> y_bsr("y", K.num_rows);
  const kfem::SolveResult bsr_block =
      kfem::solve(Exec(), kfem::BsrOperator<Exec, double>(node, 3, blocks),
                  Kokkos::View<const double*, Device>(b_bsr), y_bsr, block_opts);
  ASSERT_TRUE(csr_block.converged);
  ASSERT_TRUE(bsr_block.converged);
  EXPECT_NEAR(bsr_block.iterations, csr_block.iterations, 2);
  const double tip_block = kfem::tip_deflection(Exec(), Kokkos::View<double*, Mem>(y_bsr), tip_nodes);
  EXPECT_LE(std::abs(tip_block - tip_csr), 1e-9 * std::abs(tip_csr));
}

// Lower block storage against lower CSR storage of the constrained cantilever: the expansion is the
// lower CSR's values bit for bit, before and after the Dirichlet conditions (on blocks and on CSR),
// bsr_symmetric_spmv is the full product, and CG with Jacobi and block Jacobi reaches the same tip.
TYPED_TEST(Bsr, LowerBlocksMatchLowerCsr) {
  using Exec = TypeParam;
  using Mem = typename Exec::memory_space;
  using Device = Kokkos::Device<Exec, Mem>;
  using kfem::test::to_view;
  const kfem::Mesh mesh = kfem::test::distorted_beam(8, 3, 3);
  const kfem::HostCsr<double> K = kfem::assemble_reference_hex8(mesh, kfem::test::steel());
  const kfem::HostCsr<double> KL = kfem::test::lower_of(K);
  const HostBsr BL = lower_blocks(to_blocks(K));
  const auto L = kfem::test::to_device<Mem>(KL);
  const auto node = kfem::test::to_device<Mem>(BL.node).graph;
  const auto blocks = to_view<double, Mem>(BL.blocks, "blocks");
  const auto expanded_equals = [&](const Kokkos::View<double*, Mem>& want) {
    Kokkos::View<double*, Mem> e("expanded", KL.nnz());
    kfem::expand_blocks<Exec, double>(Exec(), node, L.graph, 3, blocks, e, true);
    const std::vector<double> got = kfem::test::to_vector(e), w = kfem::test::to_vector(want);
    return got.size() == w.size() && std::memcmp(got.data(), w.data(), sizeof(double) * got.size()) == 0;
  };
  EXPECT_TRUE(expanded_equals(L.values));

  std::mt19937 rng(11);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  std::vector<double> xh(K.num_rows);
  for (double& v : xh) v = uni(rng);
  const std::vector<double> expected = kfem::test::host_matvec(K, xh);
  const Kokkos::View<double*, Device> x = to_view<double, Mem>(xh, "x"), y("y", K.num_rows);
  Kokkos::deep_copy(y, std::nan(""));
  kfem::BsrOperator<Exec, double>(node, 3, blocks, kfem::BsrApply::kfem, true).apply(x, y);
  const std::vector<double> got = kfem::test::to_vector(y);
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    diff = std::max(diff, std::abs(got[i] - expected[i])), scale = std::max(scale, std::abs(expected[i]));
  EXPECT_LE(diff, 1e-13 * scale);
  EXPECT_THROW((kfem::BsrOperator<Exec, double>(node, 3, blocks, kfem::BsrApply::kokkos_kernels, true)),
               std::invalid_argument);

  const kfem::CantileverLoad load = kfem::cantilever_load(mesh, 1e6);
  const auto fixed = to_view<ordinal_t, Mem>(load.fixed_dofs, "fixed");
  const Kokkos::View<double*, Mem> zeros("zeros", load.fixed_dofs.size());
  const auto b_csr = to_view<double, Mem>(load.force, "rhs"), b_bsr = to_view<double, Mem>(load.force, "rhs");
  kfem::apply_dirichlet(Exec(), L.graph, L.values, b_csr, fixed, zeros);
  kfem::apply_dirichlet_blocks(Exec(), node, 3, blocks, b_bsr, fixed, zeros, true);
  EXPECT_TRUE(expanded_equals(L.values));
  const std::vector<double> rb = kfem::test::to_vector(b_bsr), rc = kfem::test::to_vector(b_csr);
  EXPECT_EQ(0, std::memcmp(rb.data(), rc.data(), sizeof(double) * rb.size()));

  const auto tip_nodes = to_view<ordinal_t, Mem>(load.tip_nodes, "tip");
  for (const auto pre : {kfem::Preconditioner::jacobi, kfem::Preconditioner::block_jacobi}) {
    kfem::SolverOptions opts{kfem::SolverId{}, 1e-10, 10000, pre, 3};
    Kokkos::View<double*, Mem> x_csr("x", K.num_rows);
    const kfem::SolveResult csr = kfem::solve_csr(Exec(), L.graph, L.values, true, b_csr, x_csr, opts);
    const Kokkos::View<double*, Device> x_bsr("x", K.num_rows);
    const kfem::SolveResult bsr =
        kfem::solve(Exec(), kfem::BsrOperator<Exec, double>(node, 3, blocks, kfem::BsrApply::kfem, true),
                    Kokkos::View<const double*, Device>(b_bsr), x_bsr, opts);
    ASSERT_TRUE(csr.converged);
    ASSERT_TRUE(bsr.converged);
    EXPECT_NEAR(bsr.iterations, csr.iterations, 2);
    const double tip_csr = kfem::tip_deflection(Exec(), x_csr, tip_nodes);
    const double tip_bsr = kfem::tip_deflection(Exec(), Kokkos::View<double*, Mem>(x_bsr), tip_nodes);
    EXPECT_LT(tip_csr, 0.0);
    EXPECT_LE(std::abs(tip_bsr - tip_csr), 1e-9 * std::abs(tip_csr)) << int(pre);
  }
}
}  // namespace
