// a-COO assembly (amorim): without conditions the CSR is the DOF graph's, entry by entry, with the
// oracle's values; with Dirichlet it is the graph CSR + apply_dirichlet minus the zeroed entries, with
// the same rhs; the pool never overflows silently; every Ke entry is pushed once; reruns agree bitwise,
// and so do the two row mappings of the consolidation (thread and team per row, forced on every
// backend), including the fallback to thread where a row does not fit the team scratch.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "assembly/fixture.hpp"
#include "backends.hpp"
#include "kfem/assembly/acoo/acoo_assembler.hpp"
#include "kfem/assembly/acoo/acoo_consolidate.hpp"
#include "kfem/assembly/acoo/acoo_lists.hpp"
#include "kfem/assembly/family_data.hpp"
#include "kfem/assembly/lanes.hpp"
#include "kfem/assembly/mapping/team_per_element.hpp"
#include "kfem/assembly/mapping/thread_per_element.hpp"
#include "kfem/core/error.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/fe/family.hpp"
#include "kfem/fe/operator.hpp"
#include "kfem/mesh/box.hpp"
#include "kfem/mesh/renumber.hpp"
#include "kfem/problems/boundary_conditions.hpp"
#include "kfem/problems/dirichlet.hpp"
#include "solve/solve_helpers.hpp"

namespace kfem::test {
namespace {
template <class Space>
class Acoo : public ::testing::Test {};
TYPED_TEST_SUITE(Acoo, ExecSpaces, SpaceName);

template <class S>
constexpr double tolerance() {
  return std::is_same<S, float>::value ? 1e-5 : 1e-12;
}

constexpr double permittivity = 8.854e-12 * 3.9;

struct Case {
  Mesh mesh;
  DofMap dm;
  fe::HostReference href;
};

// Small distorted, renumbered and shuffled meshes, offset from the origin.
Case tri3_case() {
  Mesh mesh = make_tri_box(6, 4, 3.0, 2.0);
  distort(mesh, 0.15, 5);
  for (auto& x : mesh.nodes) x[0] += 40.0;
  mesh = shuffle_elements(renumber_nodes(mesh, node_permutation(mesh, Renumbering::random, 3)), 9);
  DofMap dm = vertex_dof_map(mesh);
  return {std::move(mesh), std::move(dm), fe::host_reference(fe::Tri3{})};
}
Case hex8_case() {
  Mesh mesh = distorted_beam(3, 2, 2);
  DofMap dm = vertex_dof_map(mesh);
  return {std::move(mesh), std::move(dm), fe::host_reference(fe::Hex8{})};
}
Case prism_case(int order) {
  Mesh mesh = make_prism_box(BoxSpec{2, 1, 1, 2.0, 1.0, 1.0});
  distort(mesh, 0.15, 7);
  for (auto& x : mesh.nodes) x[0] += 40.0, x[2] -= 25.0;
  mesh = shuffle_elements(renumber_nodes(mesh, node_permutation(mesh, Renumbering::random, 11)), 13);
  DofMap dm = lagrange_dof_map(mesh, order);
  return {std::move(mesh), std::move(dm), fe::host_reference(fe::Lagrange{}, CellType::prism6, order)};
}

// The operator and oracle of each family.
template <class Family, class S>
struct Physics {  // elasticity: hex8, prisms
  using Op = fe::Elasticity<S>;
  static Op op() { return Op{Isotropic<S>{S(steel().lambda), S(steel().mu)}}; }
  static HostCsr<double> oracle(const Case& c) {
    return std::is_same<Family, fe::Hex8>::value ? assemble_reference_hex8(c.mesh, steel())
                                                 : assemble_reference_elasticity(c.mesh, c.dm, steel());
  }
};
template <class S>
struct Physics<fe::Tri3, S> {
  using Op = fe::Electrostatics<S>;
  static Op op() { return Op{S(permittivity)}; }
  static HostCsr<double> oracle(const Case& c) {
    return assemble_reference_electrostatics(c.mesh, permittivity);
  }
};

template <class Exec, class Family, class S, class Mapping = mapping::ThreadPerElement>
using AcooFor = AcooAssembler<Exec, Family, typename Physics<Family, S>::Op, S, Mapping>;

template <class T>
bool bitwise_equal(const std::vector<T>& x, const std::vector<T>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), sizeof(T) * x.size()) == 0;
}
template <class View>
bool bitwise_equal(const View& a, const View& b) {
  return bitwise_equal(to_vector(a), to_vector(b));
}

// Same row map, columns and value bits (a and b: anything with .graph and .values).
template <class A, class B>
void expect_same_csr(const A& a, const B& b) {
  EXPECT_EQ(to_vector(a.graph.row_map), to_vector(b.graph.row_map));
  EXPECT_EQ(to_vector(a.graph.cols), to_vector(b.graph.cols));
  EXPECT_TRUE(bitwise_equal(a.values, b.values));
}

// p's Ke entries pushed onto fresh lists the way AcooAssembler pushes them, for consolidate() itself.
template <class Exec, class Family, class S, class Mapping>
acoo::Lists<S, typename Exec::memory_space> pushed_lists(
    const Exec& exec, const Problem<Exec>& p,
    const fe::Reference<Family, S, typename Exec::memory_space>& ref) {
  using Layout = typename Mapping::layout;
  using P = Physics<Family, S>;
  const auto els =
      make_family_elements<Family, S, Layout>(exec, p.mesh.coords, p.mesh.conn, p.dofs, p.natural, ref);
  const auto where =
      target::DofPairs<Layout, typename Exec::memory_space>::make(exec, els.nodes, P::Op::components);
  auto lists = acoo::make_lists<S>(
      exec, p.num_dofs(),
      acoo::pool_nodes_for(els.num_elements, int(els.nodes.extent(1)), P::Op::components));
  Mapping{}.launch(exec, family_inputs(els, where), P::op(), 0, els.num_elements, lists.push());
  return lists;
}

// Each row mapping forced on freshly pushed lists (another push order) gives want's CSR bit for bit
// and, under conditions (bc, its rhs starting as rhs0), want_rhs bit for bit.
template <class Exec, class Family, class S, class Mapping, class Want>
void check_row_mappings(const Exec& exec, const Problem<Exec>& p,
                        const fe::Reference<Family, S, typename Exec::memory_space>& ref, const Want& want,
                        acoo::Dirichlet<S, typename Exec::memory_space> bc = {},
                        const std::vector<S>& rhs0 = {}, const std::vector<S>& want_rhs = {}) {
  for (const acoo::RowMapping rows : {acoo::RowMapping::thread, acoo::RowMapping::team}) {
    SCOPED_TRACE(rows == acoo::RowMapping::team ? "team per row" : "thread per row");
    auto lists = pushed_lists<Exec, Family, S, Mapping>(exec, p, ref);
    if (bc.active()) bc.rhs = to_view<S, typename Exec::memory_space>(rhs0, "rhs");
    acoo::ConsolidateTimes t;
    const auto got = acoo::consolidate(exec, lists, bc, &t, {rows});
    EXPECT_EQ(t.rows, rows);  // these rows fit the team scratch
    EXPECT_GT(t.longest_row, 0);
    EXPECT_DOUBLE_EQ(t.consolidate_s, t.lengths_s + t.gather_s + t.sort_s);
    expect_same_csr(got, want);
    if (bc.active()) {
      EXPECT_TRUE(bitwise_equal(to_vector(bc.rhs), want_rhs));
    }
  }
}

// (1) + (4): the a-COO CSR is the graph's pattern with the oracle's values, every Ke entry is
// pushed once, and a second run gives the same bits. Returns the entries pushed.
template <class Exec, class Family, class S, class Mapping = mapping::ThreadPerElement>
offset_t check_graph(const Exec& exec, const Case& c) {
  using P = Physics<Family, S>;
  const Problem<Exec> p = make_family_problem(exec, c.mesh, c.dm, P::Op::components);
  const auto ref = fe::to_device<Family, S>(exec, c.href);
  const AcooFor<Exec, Family, S, Mapping> a(exec, p, ref, P::op());
  const auto r = a.assemble();
  EXPECT_EQ(to_vector(r.graph.row_map), to_vector(p.graph.dof.row_map));
  EXPECT_EQ(to_vector(r.graph.cols), to_vector(p.graph.dof.cols));
  const MatrixDiff d = compare(kfem::to_host(r.graph, r.values), P::oracle(c));
  EXPECT_TRUE(d.same_pattern);
  EXPECT_LE(d.max_rel, tolerance<S>());

  const offset_t per_element = offset_t(c.dm.nodes_per_element) * P::Op::components;
  const offset_t ne = p.num_elements();
  EXPECT_EQ(r.times.pushed, ne * per_element * per_element);
  EXPECT_EQ(r.times.pool_nodes, r.times.pushed);
  EXPECT_EQ(r.times.elements, ne);
  EXPECT_EQ(r.times.retries, 0);
  const std::size_t node_bytes = acoo::Lists<S, typename Exec::memory_space>::bytes_per_node;
  EXPECT_EQ(r.times.storage_bytes, p.num_dofs() * sizeof(acoo::link_t) +
                                       std::size_t(r.times.pushed) * node_bytes + sizeof(offset_t));
  EXPECT_GT(r.times.storage_bytes_per_element(), 0.0);
  EXPECT_GE(r.times.insert_s, 0.0);
  EXPECT_GE(r.times.consolidate_s, 0.0);
  EXPECT_GE(r.times.csr_s, 0.0);

  const auto again = a.assemble();  // list order may differ; the (column, value) sort fixes the sums
  EXPECT_TRUE(bitwise_equal(r.values, again.values));
  check_row_mappings<Exec, Family, S, Mapping>(exec, p, ref, r);
  return r.times.pushed;
}

TYPED_TEST(Acoo, Tri3MatchesGraphCsr) {
  const Case c = tri3_case();
  EXPECT_EQ(48 * 9, (check_graph<TypeParam, fe::Tri3, double>(TypeParam(), c)));
  EXPECT_EQ(48 * 9, (check_graph<TypeParam, fe::Tri3, float>(TypeParam(), c)));
}

// The size where a-COO stopped finishing on a GPU with Kokkos 4.6 (a capacitor of 156,250
// triangles): 160,000 triangles, 80,601 rows, through the same checks as the small meshes.
TYPED_TEST(Acoo, Tri3OfCapacitorSizeMatchesGraphCsr) {
  Mesh mesh = make_tri_box(400, 200, 3.0, 2.0);
  DofMap dm = vertex_dof_map(mesh);
  const Case c{std::move(mesh), std::move(dm), fe::host_reference(fe::Tri3{})};
  EXPECT_EQ(160000 * 9, (check_graph<TypeParam, fe::Tri3, double>(TypeParam(), c)));
  EXPECT_EQ(160000 * 9, (check_graph<TypeParam, fe::Tri3, float>(TypeParam(), c)));
}

TYPED_TEST(Acoo, Hex8MatchesGraphCsr) {
  const Case c = hex8_case();
  EXPECT_EQ(12 * 24 * 24, (check_graph<TypeParam, fe::Hex8, double>(TypeParam(), c)));
  EXPECT_EQ(12 * 24 * 24, (check_graph<TypeParam, fe::Hex8, float>(TypeParam(), c)));
  EXPECT_EQ(12 * 24 * 24,
            (check_graph<TypeParam, fe::Hex8, double, mapping::TeamPerElement>(TypeParam(), c)));
}

TYPED_TEST(Acoo, PrismMatchesGraphCsr) {
  const Case p1 = prism_case(1), p2 = prism_case(2);
  EXPECT_EQ(4 * 18 * 18, (check_graph<TypeParam, fe::Lagrange, double>(TypeParam(), p1)));
  EXPECT_EQ(4 * 18 * 18, (check_graph<TypeParam, fe::Lagrange, float>(TypeParam(), p1)));
  EXPECT_EQ(4 * 54 * 54, (check_graph<TypeParam, fe::Lagrange, double>(TypeParam(), p2)));
  EXPECT_EQ(4 * 54 * 54, (check_graph<TypeParam, fe::Lagrange, float>(TypeParam(), p2)));
  EXPECT_EQ(4 * 54 * 54,
            (check_graph<TypeParam, fe::Lagrange, float, mapping::TeamPerElement>(TypeParam(), p2)));
}

// (2): graph CSR (the a-COO's own unconstrained values, checked above) + apply_dirichlet, with the
// entries it zeroes dropped, against the a-COO with the conditions: same pattern, same bits, same
// rhs; for prescribed values and for the homogeneous overload.
template <class Exec, class Family, class S>
void check_dirichlet(const Exec& exec, const Case& c, const std::vector<DirichletCondition>& conditions) {
  using Mem = typename Exec::memory_space;
  using P = Physics<Family, S>;
  const int C = P::Op::components;
  const Problem<Exec> p = make_family_problem(exec, c.mesh, c.dm, C);
  const auto ref = fe::to_device<Family, S>(exec, c.href);
  const AcooFor<Exec, Family, S> a(exec, p, ref, P::op());
  const auto plain = a.assemble();

  const FixedDofs fx = fixed_dofs_by_name(c.mesh, c.dm, C, conditions, "acoo test");
  ASSERT_FALSE(fx.dofs.empty());
  const auto fixed = to_view<ordinal_t, Mem>(fx.dofs, "fixed");
  const auto values = to_view<S, Mem>(std::vector<S>(fx.values.begin(), fx.values.end()), "fixed_values");
  std::vector<char> is_fixed(p.num_dofs(), 0);
  for (ordinal_t d : fx.dofs) is_fixed[d] = 1;
  std::vector<S> rhs0(p.num_dofs());
  for (std::size_t i = 0; i < rhs0.size(); ++i) rhs0[i] = S(1 + int(i % 5)) * S(C == 1 ? 1e-10 : 1e8);

  for (const bool homogeneous : {false, true}) {
    SCOPED_TRACE(homogeneous ? "homogeneous" : "prescribed values");
    const Kokkos::View<S*, Mem> want_values("want_values", plain.values.extent(0));
    Kokkos::deep_copy(want_values, plain.values);
    const auto want_rhs = to_view<S, Mem>(rhs0, "want_rhs");
    if (homogeneous)
      apply_dirichlet(exec, p.graph.dof, want_values, want_rhs, fixed);
    else
      apply_dirichlet(exec, p.graph.dof, want_values, want_rhs, fixed, values);
    exec.fence();
    HostCsr<S> want = kfem::to_host(p.graph.dof, want_values), kept;
    kept.num_rows = want.num_rows;
    kept.row_map.push_back(0);
    for (ordinal_t r = 0; r < want.num_rows; ++r) {
      for (offset_t k = want.row_map[r]; k < want.row_map[r + 1]; ++k) {
        const ordinal_t col = want.cols[k];
        if ((is_fixed[r] || is_fixed[col]) && col != r) continue;  // eliminated
        kept.cols.push_back(col);
        kept.vals.push_back(want.vals[k]);
      }
      kept.row_map.push_back(offset_t(kept.cols.size()));
    }

    const auto rhs = to_view<S, Mem>(rhs0, "rhs");
    typename AcooFor<Exec, Family, S>::Conditions bc{fixed, homogeneous ? Kokkos::View<S*, Mem>() : values,
                                                     rhs};
    const auto r = a.assemble(bc);
    const HostCsr<S> got = kfem::to_host(r.graph, r.values);
    EXPECT_EQ(got.row_map, kept.row_map);
    EXPECT_EQ(got.cols, kept.cols);
    ASSERT_EQ(got.vals.size(), kept.vals.size());
    EXPECT_EQ(0, std::memcmp(got.vals.data(), kept.vals.data(), sizeof(S) * got.vals.size()));
    // The same lift sums in the same order; the tolerance only absorbs a contracted multiply-add.
    const auto got_rhs = to_vector(rhs), exp_rhs = to_vector(want_rhs);
    double scale = 0;
    for (S x : exp_rhs) scale = std::max(scale, double(std::abs(x)));
    for (std::size_t i = 0; i < got_rhs.size(); ++i)
      ASSERT_NEAR(got_rhs[i], exp_rhs[i], 1e-3 * tolerance<S>() * scale) << "rhs " << i;
    check_row_mappings<Exec, Family, S, mapping::ThreadPerElement>(exec, p, ref, r, bc, rhs0, got_rhs);
  }
}

TYPED_TEST(Acoo, DirichletMatchesApplyDirichlet) {
  const std::vector<DirichletCondition> potentials = {{"xmin", {1.0}}, {"xmax", {-0.5}}};
  const std::vector<DirichletCondition> clamp_and_pull = {{"xmin", {0.0, 0.0, 0.0}},
                                                          {"xmax", {1e-3, -2e-3, 5e-4}}};
  {
    SCOPED_TRACE("tri3");
    check_dirichlet<TypeParam, fe::Tri3, double>(TypeParam(), tri3_case(), potentials);
    check_dirichlet<TypeParam, fe::Tri3, float>(TypeParam(), tri3_case(), potentials);
  }
  {
    SCOPED_TRACE("hex8");
    check_dirichlet<TypeParam, fe::Hex8, double>(TypeParam(), hex8_case(), clamp_and_pull);
  }
  {
    SCOPED_TRACE("prism p=2");
    check_dirichlet<TypeParam, fe::Lagrange, float>(TypeParam(), prism_case(2), clamp_and_pull);
  }
}

// (3): a pool smaller than the pushes is an InputError naming its size and the pushes; the
// assembler stays usable, and PoolOverflow::grow redoes the insertion in a large enough pool.
TYPED_TEST(Acoo, PoolOverflowIsAnInputError) {
  using Exec = TypeParam;
  const Exec exec;
  const Case c = hex8_case();
  const Problem<Exec> p = make_family_problem(exec, c.mesh, c.dm, 3);
  const auto ref = fe::to_device<fe::Hex8, double>(exec, c.href);
  const auto op = Physics<fe::Hex8, double>::op();
  const AcooFor<Exec, fe::Hex8, double> small(exec, p, ref, op, AcooOptions{1000});
  try {
    small.assemble();
    ADD_FAILURE() << "no error for a pool of 1000 nodes";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("pool of 1000 nodes"), std::string::npos) << what;
    EXPECT_NE(what.find(std::to_string(12 * 576)), std::string::npos) << what;
  }
  const auto full = AcooFor<Exec, fe::Hex8, double>(exec, p, ref, op).assemble();
  const AcooFor<Exec, fe::Hex8, double> grows(exec, p, ref, op, AcooOptions{1000, PoolOverflow::grow});
  const auto r = grows.assemble();
  EXPECT_EQ(r.times.retries, 1);
  EXPECT_EQ(r.times.pool_nodes, 12 * 576);
  EXPECT_TRUE(bitwise_equal(full.values, r.values));
  EXPECT_EQ(to_vector(full.graph.cols), to_vector(r.graph.cols));
}

// Hand-made pushes: duplicates in any order, an empty row, a fixed row without its diagonal.
template <class Mem>
struct PushTriples {
  acoo::Push<double, Mem> push;
  Kokkos::View<const ordinal_t*, Mem> rows, cols;
  Kokkos::View<const double*, Mem> vals;
  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    push.access()(target::DofPair{rows(i), cols(i)}, vals(i));
  }
};

TYPED_TEST(Acoo, ConsolidatesHandPushedLists) {
  using Exec = TypeParam;
  using Mem = typename Exec::memory_space;
  const Exec exec;
  const std::vector<ordinal_t> rows = {0, 0, 0, 0, 1, 1, 3, 3, 3, 4, 4};
  const std::vector<ordinal_t> cols = {0, 1, 0, 3, 1, 0, 3, 0, 3, 4, 0};
  const std::vector<double> vals = {1, 2, 3, 4, 5, 2, 6, 4, -1, 9, 1};
  const int n = int(rows.size());
  const auto push_all = [&](acoo::Lists<double, Mem>& l) {
    Kokkos::parallel_for(
        "test::push", Kokkos::RangePolicy<Exec>(exec, 0, n),
        PushTriples<Mem>{l.push(), to_view<ordinal_t, Mem>(rows, "r"), to_view<ordinal_t, Mem>(cols, "c"),
                         to_view<double, Mem>(vals, "v")});
  };
  using acoo::RowMapping;
  // Every row mapping, and team with no scratch to spare (the fallback to thread per row).
  for (const acoo::ConsolidateOptions o :
       {acoo::ConsolidateOptions{}, {RowMapping::thread}, {RowMapping::team}, {RowMapping::team, 0}}) {
    SCOPED_TRACE(int(o.rows) * 10 + (o.team_scratch_limit > 0));
    // fixed DOFs 2 (no entries) and 3 take 7 and 8: row 0 lifts 4 * 8, row 3 keeps 6 - 1
    auto lists = acoo::make_lists<double>(exec, 5, n);
    push_all(lists);
    const auto rhs = to_view<double, Mem>({10, 20, 30, 40, 50}, "rhs");
    const acoo::Dirichlet<double, Mem> bc{to_view<ordinal_t, Mem>({2, 3}, "fixed"),
                                          to_view<double, Mem>({7, 8}, "g"), rhs};
    acoo::ConsolidateTimes t;
    const auto A = acoo::consolidate(exec, lists, bc, &t, o);
    const bool team =
        o.team_scratch_limit > 0 &&
        (o.rows == RowMapping::team || (o.rows == RowMapping::automatic && !lanes::in_turn<Exec>));
    EXPECT_EQ(t.rows, team ? RowMapping::team : RowMapping::thread);
    EXPECT_EQ(t.rows_per_team, team ? (lanes::in_turn<Exec> ? 1 : 4) : 0);
    EXPECT_EQ(t.longest_row, 4);
    EXPECT_EQ(lists.capacity(), 0);  // released
    EXPECT_EQ(to_vector(A.graph.row_map), (std::vector<offset_t>{0, 2, 4, 5, 6, 8}));
    EXPECT_EQ(to_vector(A.graph.cols), (std::vector<ordinal_t>{0, 1, 0, 1, 2, 3, 0, 4}));
    EXPECT_EQ(to_vector(A.values), (std::vector<double>{4, 2, 2, 5, 1, 5, 1, 9}));
    EXPECT_EQ(to_vector(rhs), (std::vector<double>{-22, 20, 7, 40, 50}));
  }
  {  // one node short: the overflow is caught at consolidation
    auto lists = acoo::make_lists<double>(exec, 5, n - 1);
    push_all(lists);
    EXPECT_EQ(acoo::claimed(exec, lists), n);
    EXPECT_THROW(acoo::consolidate(exec, lists), InputError);
  }
}

// Long rows (600 and 4000 pushes: few columns, values of many magnitudes, +0 and -0, NaNs) and an
// empty row. Every row mapping gives the host's sums: each column's pushes added in ascending value
// order, NaN last. team packs as many rows a team as the scratch holds (1 on host backends) and falls
// back to thread per row when the longest row does not fit, by default or under an injected limit.
TYPED_TEST(Acoo, LongRowsMatchAcrossRowMappings) {
  using Exec = TypeParam;
  using Mem = typename Exec::memory_space;
  using acoo::RowMapping;
  const Exec exec;
  std::vector<ordinal_t> rows, cols;
  std::vector<double> vals;
  const auto add_row = [&](ordinal_t r, int n, int width) {
    for (int i = 0; i < n; ++i) {
      const int k = (i * 7919) % 101;
      rows.push_back(r);
      cols.push_back(ordinal_t(i * 37 % width));
      vals.push_back(k == 0 ? -0.0 : k == 1 ? 0.0 : std::ldexp(double(k - 50), i % 7 * 9 - 30));
    }
  };
  add_row(0, 600, 53);
  add_row(1, 40, 7);
  add_row(3, 1, 2);
  for (const int i : {5, 5 + 3 * 53, 5 + 7 * 53, 600 + 5})  // amid row 0's column 26; in row 1's column 3
    vals[i] = std::numeric_limits<double>::quiet_NaN();

  for (const bool longer : {false, true}) {
    SCOPED_TRACE(longer ? "with a row of 4000" : "longest row 600");
    if (longer) add_row(4, 4000, 101);
    const int n = int(rows.size());
    HostCsr<double> want;  // the host's consolidation
    want.num_rows = 5;
    want.row_map.push_back(0);
    for (ordinal_t r = 0; r < 5; ++r) {
      std::vector<std::pair<ordinal_t, double>> row;
      for (int i = 0; i < n; ++i)
        if (rows[i] == r) row.emplace_back(cols[i], vals[i]);
      std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) {
        return a.first < b.first || (a.first == b.first && (a.second < b.second ||
                                                            (std::isnan(b.second) && !std::isnan(a.second))));
      });
      for (std::size_t i = 0; i < row.size();) {
        const ordinal_t c = row[i].first;
        double sum = 0;
        for (; i < row.size() && row[i].first == c; ++i) sum += row[i].second;
        want.cols.push_back(c);
        want.vals.push_back(sum);
      }
      want.row_map.push_back(offset_t(want.cols.size()));
    }

    const std::size_t row600 = 2 * 600 * sizeof(acoo::detail::Entry<double>);
    const acoo::ConsolidateOptions thread{RowMapping::thread};
    std::vector<acoo::ConsolidateOptions> options = {thread, {RowMapping::team}};
    if (!longer) options.push_back({RowMapping::team, row600 - 1});  // row 0 just misses the limit
    std::vector<double> thread_values;
    for (const acoo::ConsolidateOptions& o : options) {
      SCOPED_TRACE(int(o.rows) * 1000000 + int(o.team_scratch_limit));
      auto lists = acoo::make_lists<double>(exec, 5, n);
      Kokkos::parallel_for(
          "test::push", Kokkos::RangePolicy<Exec>(exec, 0, n),
          PushTriples<Mem>{lists.push(), to_view<ordinal_t, Mem>(rows, "r"),
                           to_view<ordinal_t, Mem>(cols, "c"), to_view<double, Mem>(vals, "v")});
      acoo::ConsolidateTimes t;
      const auto A = acoo::consolidate(exec, lists, {}, &t, o);
      EXPECT_EQ(t.longest_row, longer ? 4000 : 600);
      const bool team = o.rows == RowMapping::team && !longer && o.team_scratch_limit >= row600;
      EXPECT_EQ(t.rows, team ? RowMapping::team : RowMapping::thread);
      EXPECT_EQ(t.rows_per_team, team ? (lanes::in_turn<Exec> ? 1 : 2) : 0);  // 40 or 48 KB / 18.75 KB
      const HostCsr<double> got = kfem::to_host(A.graph, A.values);
      EXPECT_EQ(got.row_map, want.row_map);
      EXPECT_EQ(got.cols, want.cols);
      ASSERT_EQ(got.vals.size(), want.vals.size());
      for (std::size_t k = 0; k < got.vals.size(); ++k) {  // a device NaN may carry another payload
        if (!(std::isnan(got.vals[k]) && std::isnan(want.vals[k]))) {
          ASSERT_EQ(0, std::memcmp(&got.vals[k], &want.vals[k], sizeof(double))) << "entry " << k;
        }
      }
      if (o.rows == RowMapping::thread)
        thread_values = got.vals;
      else
        EXPECT_TRUE(bitwise_equal(got.vals, thread_values));  // NaN bits too, on one backend
    }
  }
}
}  // namespace
}  // namespace kfem::test
