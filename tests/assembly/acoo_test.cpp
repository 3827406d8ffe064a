// a-COO assembly (amorim): without conditions the CSR is the DOF graph's, entry by entry, with the
// oracle's values; with Dirichlet it is the graph CSR + apply_dirichlet minus the zeroed entries, with
// the same rhs; the pool never overflows silently; every Ke entry is pushed once; reruns agree bitwise.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "assembly/fixture.hpp"
#include "backends.hpp"
#include "kfem/assembly/acoo/acoo_assembler.hpp"
#include "kfem/assembly/acoo/acoo_consolidate.hpp"
#include "kfem/assembly/acoo/acoo_lists.hpp"
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
  DofMap dm = prism_dof_map(mesh, order);
  return {std::move(mesh), std::move(dm), fe::host_reference(fe::Prism{}, order)};
}

// The operator and oracle of each family.
template <class Family, class S>
struct Physics {  // elasticity: hex8, prisms
  using Op = fe::Elasticity<S>;
  static Op op() { return Op{Isotropic<S>{S(steel().lambda), S(steel().mu)}}; }
  static HostCsr<double> oracle(const Case& c) {
    return std::is_same<Family, fe::Hex8>::value ? assemble_reference(c.mesh, steel())
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

template <class View>
bool bitwise_equal(const View& a, const View& b) {
  const auto x = to_vector(a), y = to_vector(b);
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), sizeof(x[0]) * x.size()) == 0;
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
  return r.times.pushed;
}

TYPED_TEST(Acoo, Tri3MatchesGraphCsr) {
  const Case c = tri3_case();
  EXPECT_EQ(48 * 9, (check_graph<TypeParam, fe::Tri3, double>(TypeParam(), c)));
  EXPECT_EQ(48 * 9, (check_graph<TypeParam, fe::Tri3, float>(TypeParam(), c)));
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
  EXPECT_EQ(4 * 18 * 18, (check_graph<TypeParam, fe::Prism, double>(TypeParam(), p1)));
  EXPECT_EQ(4 * 18 * 18, (check_graph<TypeParam, fe::Prism, float>(TypeParam(), p1)));
  EXPECT_EQ(4 * 54 * 54, (check_graph<TypeParam, fe::Prism, double>(TypeParam(), p2)));
  EXPECT_EQ(4 * 54 * 54, (check_graph<TypeParam, fe::Prism, float>(TypeParam(), p2)));
  EXPECT_EQ(4 * 54 * 54,
            (check_graph<TypeParam, fe::Prism, float, mapping::TeamPerElement>(TypeParam(), p2)));
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
    check_dirichlet<TypeParam, fe::Prism, float>(TypeParam(), prism_case(2), clamp_and_pull);
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
  {  // fixed DOFs 2 (no entries) and 3 take 7 and 8: row 0 lifts 4 * 8, row 3 keeps 6 - 1
    auto lists = acoo::make_lists<double>(exec, 5, n);
    push_all(lists);
    const auto rhs = to_view<double, Mem>({10, 20, 30, 40, 50}, "rhs");
    const acoo::Dirichlet<double, Mem> bc{to_view<ordinal_t, Mem>({2, 3}, "fixed"),
                                          to_view<double, Mem>({7, 8}, "g"), rhs};
    const auto A = acoo::consolidate(exec, lists, bc);
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
}  // namespace
}  // namespace kfem::test
