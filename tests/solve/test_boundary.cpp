// Cantilever load spreading and device Dirichlet conditions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "backends.hpp"
#include "kfem/assembly/reference.hpp"
#include "kfem/core/error.hpp"
#include "kfem/mesh/box.hpp"
#include "kfem/problems/cantilever.hpp"
#include "kfem/problems/dirichlet.hpp"
#include "solve_helpers.hpp"

namespace {
using kfem::ordinal_t;

double sum_component(const std::vector<double>& force, int c) {
  double s = 0;
  for (std::size_t i = c; i < force.size(); i += 3) s += force[i];
  return s;
}

TEST(CantileverLoad, SumsToTotalForceInMinusZ) {
  for (double amplitude : {0.0, 0.2}) {  // the jitter makes tip faces of unequal area
    kfem::Mesh mesh = kfem::make_box({8, 3, 5, 8.0, 1.5, 2.5});
    kfem::distort(mesh, amplitude, 42);
    const double P = 1e6;
    const auto load = kfem::cantilever_load(mesh, P);
    ASSERT_EQ(load.force.size(), mesh.num_dofs());
    EXPECT_NEAR(sum_component(load.force, 2), -P, 1e-12 * P) << "amplitude " << amplitude;
    EXPECT_EQ(sum_component(load.force, 0), 0.0);
    EXPECT_EQ(sum_component(load.force, 1), 0.0);
    for (std::size_t n = 0; n < mesh.num_nodes(); ++n)
      if (load.force[3 * n + 2] != 0.0) {
        EXPECT_EQ(mesh.nodes[n][0], 8.0) << "loaded node " << n << " off the tip";
      }
  }
}

TEST(CantileverLoad, CornerEdgeInteriorRatios) {
  const kfem::BoxSpec s{4, 3, 4, 4.0, 3.0, 2.0};
  const auto mesh = kfem::make_box(s);
  const double P = 12.0;
  const auto load = kfem::cantilever_load(mesh, P);
  const double share = P / (s.ny * s.nz);  // equal faces
  for (ordinal_t k = 0; k <= s.nz; ++k)
    for (ordinal_t j = 0; j <= s.ny; ++j) {
      const ordinal_t n = s.nx + (s.nx + 1) * (j + (s.ny + 1) * k);
      const int faces_around = (j == 0 || j == s.ny ? 1 : 2) * (k == 0 || k == s.nz ? 1 : 2);  // 1 / 2 / 4
      EXPECT_DOUBLE_EQ(load.force[3 * n + 2], -0.25 * share * faces_around)
          << "tip node j=" << j << " k=" << k;
    }
}

TEST(CantileverLoad, ClampedAndTipNodes) {
  const kfem::BoxSpec s{5, 2, 3, 16.0, 2.0, 2.0};
  const auto mesh = kfem::make_box(s);
  const auto load = kfem::cantilever_load(mesh, 1.0);
  const std::size_t face_nodes = std::size_t(s.ny + 1) * (s.nz + 1);
  ASSERT_EQ(load.fixed_dofs.size(), 3 * face_nodes);
  EXPECT_TRUE(std::is_sorted(load.fixed_dofs.begin(), load.fixed_dofs.end()));
  for (ordinal_t d : load.fixed_dofs) EXPECT_EQ(mesh.nodes[d / 3][0], 0.0) << "fixed dof " << d;
  ASSERT_EQ(load.tip_nodes.size(), face_nodes);
  for (ordinal_t n : load.tip_nodes) EXPECT_EQ(mesh.nodes[n][0], 16.0) << "tip node " << n;
}

TEST(CantileverLoad, ThrowsWithoutTipFace) {
  kfem::Mesh mesh = kfem::make_box({1, 1, 1, 1.0, 1.0, 1.0});
  mesh.nodes[1][0] = 1.5;  // only one node left on the plane x = xmax
  EXPECT_THROW(kfem::cantilever_load(mesh, 1.0), kfem::InputError);
  EXPECT_THROW(kfem::cantilever_load(kfem::Mesh{}, 1.0), kfem::InputError);
}

template <class Exec>
class ApplyDirichlet : public ::testing::Test {};
TYPED_TEST_SUITE(ApplyDirichlet, kfem::test::ExecSpaces, kfem::test::SpaceName);

TYPED_TEST(ApplyDirichlet, ZeroesFixedRowsAndColumnsOnly) {
  using Mem = typename TypeParam::memory_space;
  const auto mesh = kfem::make_box({4, 2, 2, 4.0, 2.0, 2.0});
  const auto K = kfem::assemble_reference_hex8(mesh, kfem::Isotropic<double>::from_young(200e9, 0.333));
  const auto load = kfem::cantilever_load(mesh, 1e6);
  std::vector<double> rhs(load.force);
  std::iota(rhs.begin(), rhs.end(), 1.0);  // nonzero everywhere, so zeroing is visible

  const auto A = kfem::test::to_device<Mem>(K);
  const auto b = kfem::test::to_view<double, Mem>(rhs, "rhs");
  kfem::apply_dirichlet(TypeParam(), A.graph, A.values, b,
                        kfem::test::to_view<ordinal_t, Mem>(load.fixed_dofs, "fixed"));
  const auto vals = kfem::test::to_vector(A.values);
  const auto out = kfem::test::to_vector(b);

  std::vector<char> fixed(K.num_rows, 0);
  for (ordinal_t d : load.fixed_dofs) fixed[d] = 1;
  const auto at = [&](ordinal_t r, ordinal_t c) {  // value of (r, c) after the update
    const auto first = K.cols.begin() + K.row_map[r], last = K.cols.begin() + K.row_map[r + 1];
    const auto it = std::lower_bound(first, last, c);
    return it != last && *it == c ? vals[it - K.cols.begin()] : 0.0;
  };
  double scale = 0;  // the oracle's Ke sums need not be bit-symmetric, so symmetry is checked to rounding
  for (double v : K.vals) scale = std::max(scale, std::abs(v));
  for (ordinal_t r = 0; r < K.num_rows; ++r) {
    EXPECT_EQ(out[r], fixed[r] ? 0.0 : rhs[r]) << "rhs " << r;
    for (kfem::offset_t k = K.row_map[r]; k < K.row_map[r + 1]; ++k) {
      const ordinal_t c = K.cols[k];
      const double expected = (fixed[r] || fixed[c]) ? (r == c ? 1.0 : 0.0) : K.vals[k];
      ASSERT_EQ(vals[k], expected) << "entry (" << r << ", " << c << ")";
      ASSERT_NEAR(vals[k], at(c, r), 1e-14 * scale) << "asymmetric at (" << r << ", " << c << ")";
    }
  }
}

// Lower storage takes the same zeroing: each kept entry equals the full matrix's after Dirichlet.
TYPED_TEST(ApplyDirichlet, LowerStorageMatchesFullStorage) {
  using Mem = typename TypeParam::memory_space;
  kfem::Mesh mesh = kfem::make_box({5, 2, 3, 5.0, 2.0, 3.0});
  kfem::distort(mesh, 0.15, 3);
  const auto K = kfem::assemble_reference_hex8(mesh, kfem::Isotropic<double>::from_young(200e9, 0.333));
  const auto L = kfem::test::lower_of(K);
  const auto load = kfem::cantilever_load(mesh, 1e6);
  const auto fixed = kfem::test::to_view<ordinal_t, Mem>(load.fixed_dofs, "fixed");
  const auto constrain = [&](const kfem::HostCsr<double>& M) {
    const auto A = kfem::test::to_device<Mem>(M);
    const auto b = kfem::test::to_view<double, Mem>(load.force, "rhs");
    kfem::apply_dirichlet(TypeParam(), A.graph, A.values, b, fixed);
    return std::make_pair(kfem::test::to_vector(A.values), kfem::test::to_vector(b));
  };
  const auto [full_vals, full_rhs] = constrain(K);
  const auto [lower_vals, lower_rhs] = constrain(L);
  EXPECT_EQ(lower_rhs, full_rhs);
  std::vector<char> is_fixed(K.num_rows, 0);
  for (ordinal_t d : load.fixed_dofs) is_fixed[d] = 1;
  for (ordinal_t r = 0; r < K.num_rows; ++r)  // lower rows are prefixes of the sorted full rows
    for (kfem::offset_t k = L.row_map[r]; k < L.row_map[r + 1]; ++k) {
      const kfem::offset_t kf = K.row_map[r] + (k - L.row_map[r]);
      ASSERT_EQ(L.cols[k], K.cols[kf]);
      ASSERT_EQ(lower_vals[k], full_vals[kf]) << "entry (" << r << ", " << L.cols[k] << ")";
      if (is_fixed[r] || is_fixed[L.cols[k]]) {
        ASSERT_EQ(lower_vals[k], L.cols[k] == r ? 1.0 : 0.0);
      }
    }
}
}  // namespace
