// The verification stage (kfem/pipeline/verify.hpp): the oracle's element-by-element products equal
// its assembled matrix times the vectors, whatever the thread count; and the default check (A x
// against them) passes the oracle's own matrix in double and float, full and lower storage, on every
// backend, and fails for one wrong value wherever it sits: random entries, a diagonal entry, the
// first (boundary) row and the last row, and a NaN.
#include "kfem/pipeline/verify.hpp"

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "backends.hpp"
#include "kfem/pipeline/model.hpp"

namespace kfem::test {
namespace {
using pipeline::MeshSpec;
using pipeline::Model;
using pipeline::Oracle;
using pipeline::Settings;
using pipeline::VerifyMethod;

struct Family {
  std::string name;
  MeshSpec spec;
  Settings settings;
};

std::vector<Family> families() {
  std::vector<Family> out;
  Settings s;
  s.distort = 0.2;  // no two elements alike
  MeshSpec hex;
  hex.name = "hex8 4x3x2", hex.box = BoxSpec{4, 3, 2, 4.0, 3.0, 2.0};
  out.push_back({"hex8", hex, s});
  MeshSpec prism = hex;
  prism.name = "prism 3x2x2 p=2", prism.cell = CellType::prism6, prism.box = BoxSpec{3, 2, 2, 3.0, 2.0, 2.0};
  Settings p2 = s;
  p2.order = 2;
  out.push_back({"prism", prism, p2});
  MeshSpec tri;
  tri.name = "tri 8x5", tri.cell = CellType::tri3, tri.box = BoxSpec{8, 5, 1, 8.0, 5.0, 1.0};
  Settings es = s;
  es.problem = "electrostatics";
  out.push_back({"tri3", tri, es});
  return out;
}

Model model_of(const Family& f) {
  return pipeline::build_model(f.spec, f.settings, std::nullopt);
}

double max_magnitude(const HostCsr<double>& K) {
  double m = 0;
  for (const double v : K.vals) m = std::max(m, std::abs(v));
  return m;
}

TEST(OracleProducts, EqualTheAssembledOracleTimesTheVectors) {
  for (const Family& f : families()) {
    SCOPED_TRACE(f.name);
    const Model model = model_of(f);
    Settings s = f.settings;
    s.verify = VerifyMethod::products;
    const Oracle o = pipeline::make_oracle(model, s, true);
    ASSERT_TRUE(o.products && o.matrix);
    const HostCsr<double>& K = *o.matrix;
    const double scale = max_magnitude(K);
    ASSERT_EQ(o.x.size(), o.products->y.size());
    for (std::size_t v = 0; v < o.x.size(); ++v)
      for (ordinal_t i = 0; i < K.num_rows; ++i) {
        double y = 0;
        for (offset_t p = K.row_map[i]; p < K.row_map[i + 1]; ++p) y += K.vals[p] * o.x[v][K.cols[p]];
        ASSERT_NEAR(o.products->y[v][i], y, 1e-13 * scale) << "row " << i;
      }
    for (ordinal_t i = 0; i < K.num_rows; ++i)
      for (offset_t p = K.row_map[i]; p < K.row_map[i + 1]; ++p)
        if (K.cols[p] == i) {
          EXPECT_NEAR(o.products->diagonal[i], K.vals[p], 1e-13 * scale);
        }
    for (const double xi : o.x[0]) ASSERT_TRUE(std::abs(xi) >= 0.5 && std::abs(xi) < 1.0);
  }
}

TEST(OracleProducts, SameBitsOnAnyThreadCount) {
  const Model model = model_of(families()[0]);
  const auto m = Isotropic<double>::from_young(200e9, 0.333);
  const auto x = check_vectors(ordinal_t(model.mesh.num_nodes()) * 3, 2, 7);
  const ReferenceProducts one = reference_products(model.mesh, m, x, 1);
  const ReferenceProducts three = reference_products(model.mesh, m, x, 3);
  const ReferenceProducts many = reference_products(model.mesh, m, x, 40);  // more threads than elements
  EXPECT_EQ(one.y, many.y);
  EXPECT_EQ(one.y, three.y);
  EXPECT_EQ(one.diagonal, three.diagonal);
}

template <class Space>
class Verification : public ::testing::Test {};
TYPED_TEST_SUITE(Verification, ExecSpaces, SpaceName);

// The oracle's matrix in S on Space, full or lower, checked as a point's matrix is; then one value
// wrong by `wrong` x max |K| at each of the positions, then a NaN.
template <class Space, class S>
void check_poisoned(const Oracle& o, bool lower, double wrong, const std::string& what) {
  SCOPED_TRACE(what + (lower ? ", lower" : ", full") + (std::is_same_v<S, float> ? ", float" : ", double"));
  using Mem = typename Space::memory_space;
  const HostCsr<double> K = lower ? o.lower() : *o.matrix;
  CsrGraph<Mem> A;
  A.num_rows = K.num_rows;
  A.row_map = Kokkos::View<offset_t*, Mem>("row_map", K.row_map.size());
  A.cols = Kokkos::View<ordinal_t*, Mem>("cols", K.cols.size());
  Kokkos::View<S*, Mem> values("values", K.vals.size());
  const auto hr = Kokkos::create_mirror_view(A.row_map);
  const auto hc = Kokkos::create_mirror_view(A.cols);
  const auto hv = Kokkos::create_mirror_view(values);
  for (std::size_t i = 0; i < K.row_map.size(); ++i) hr(i) = K.row_map[i];
  for (std::size_t p = 0; p < K.cols.size(); ++p) hc(p) = K.cols[p], hv(p) = S(K.vals[p]);
  Kokkos::deep_copy(A.row_map, hr);
  Kokkos::deep_copy(A.cols, hc);
  Kokkos::deep_copy(values, hv);
  const Space exec;
  const auto status = [&] {
    return pipeline::verification(exec, A, values, lower, o)["status"].template get<std::string>();
  };
  ASSERT_EQ(status(), "passed");

  // Where a wrong value may sit: 40 entries at random, a diagonal entry, the first row's first and
  // last entries (row 0: a corner node of the box, on its boundary), the last row's last entry.
  std::vector<offset_t> at;
  std::mt19937 gen(11);
  std::uniform_int_distribution<offset_t> any(0, offset_t(K.cols.size()) - 1);
  for (int t = 0; t < 40; ++t) at.push_back(any(gen));
  const ordinal_t mid = K.num_rows / 2;
  for (offset_t p = K.row_map[mid]; p < K.row_map[mid + 1]; ++p)
    if (K.cols[p] == mid) at.push_back(p);
  at.push_back(0);
  at.push_back(K.row_map[1] - 1);
  at.push_back(offset_t(K.cols.size()) - 1);
  const S delta = S(wrong * max_magnitude(K));
  for (const offset_t p : at) {
    const S keep = hv(p);
    Kokkos::deep_copy(Kokkos::subview(values, p), S(keep + delta));
    EXPECT_EQ(status(), "FAILED") << "entry " << p << " wrong by " << delta;
    Kokkos::deep_copy(Kokkos::subview(values, p), keep);
  }
  Kokkos::deep_copy(Kokkos::subview(values, at.back()), std::numeric_limits<S>::quiet_NaN());
  EXPECT_EQ(status(), "FAILED") << "a NaN";
}

TYPED_TEST(Verification, DefaultCheckCatchesOneWrongValueAnywhere) {
  for (const Family& f : families()) {
    const Model model = model_of(f);
    const Oracle o = pipeline::make_oracle(model, f.settings, true);  // products, and K to poison
    ASSERT_TRUE(o.products.has_value());
    for (const bool lower : {false, true}) {
      check_poisoned<TypeParam, double>(o, lower, 1e-8, f.name);
      check_poisoned<TypeParam, float>(o, lower, 1e-3, f.name);
    }
  }
}

TYPED_TEST(Verification, EntriesOnRequestAndSkippedAboveTheLimit) {
  const Family f = families()[0];
  const Model model = model_of(f);
  Settings s = f.settings;
  s.verify = VerifyMethod::entries;
  const Oracle entries = pipeline::make_oracle(model, s);
  EXPECT_TRUE(entries.matrix && !entries.products);
  using Mem = typename TypeParam::memory_space;
  const HostCsr<double>& K = *entries.matrix;
  CsrGraph<Mem> A;
  A.num_rows = K.num_rows;
  A.row_map = Kokkos::View<offset_t*, Mem>("row_map", K.row_map.size());
  A.cols = Kokkos::View<ordinal_t*, Mem>("cols", K.cols.size());
  Kokkos::View<double*, Mem> values("values", K.vals.size());
  Kokkos::deep_copy(A.row_map,
                    Kokkos::View<const offset_t*, Kokkos::HostSpace>(K.row_map.data(), K.row_map.size()));
  Kokkos::deep_copy(A.cols, Kokkos::View<const ordinal_t*, Kokkos::HostSpace>(K.cols.data(), K.cols.size()));
  Kokkos::deep_copy(values, Kokkos::View<const double*, Kokkos::HostSpace>(K.vals.data(), K.vals.size()));
  const auto v = pipeline::verification(TypeParam(), A, values, false, entries);
  EXPECT_EQ(v["status"], "passed");
  EXPECT_EQ(v["method"], "entries");
  EXPECT_EQ(v["same_pattern"], true);

  s.verify_limit = 10;  // 24 elements: no oracle
  const auto skipped = pipeline::verification(TypeParam(), A, values, false, pipeline::make_oracle(model, s));
  EXPECT_EQ(skipped["status"], "skipped");
}
}  // namespace
}  // namespace kfem::test
