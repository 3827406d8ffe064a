// Element-by-element operators (EbE-v1, EbE-v2; coloured and atomic) against the assembled CSR
// after apply_dirichlet: the Dirichlet rhs, the product A x, the Jacobi diagonal and CG solutions,
// on tri3 electrostatics (non-homogeneous conditions) and prism p = 1, 2 elasticity (a clamp).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "assembly/fixture.hpp"
#include "backends.hpp"
#include "kfem/assembly/assembler.hpp"
#include "kfem/assembly/mapping/team_per_element.hpp"
#include "kfem/assembly/mapping/thread_per_element.hpp"
#include "kfem/assembly/race/atomic.hpp"
#include "kfem/assembly/target/csr_index.hpp"
#include "kfem/coloring/coloring.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/fe/family.hpp"
#include "kfem/fe/operator.hpp"
#include "kfem/mesh/box.hpp"
#include "kfem/mesh/renumber.hpp"
#include "kfem/problems/boundary_conditions.hpp"
#include "kfem/problems/dirichlet.hpp"
#include "kfem/solve/ebe_cg.hpp"
#include "kfem/solve/ebe_operator.hpp"
#include "kfem/solve/solver.hpp"
#include "solve/solve_helpers.hpp"

namespace kfem::test {
namespace {
template <class S>
constexpr double tolerance() {
  return std::is_same<S, float>::value ? 1e-5 : 1e-12;
}

// max |a - b| / max |b|: entries near zero are judged on the vector's scale.
template <class A, class B>
double relative_difference(const std::vector<A>& a, const std::vector<B>& b) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    diff = std::max(diff, std::abs(double(a[i]) - double(b[i])));
    scale = std::max(scale, std::abs(double(b[i])));
  }
  return diff / scale;
}

template <class S>
std::vector<double> matvec(const HostCsr<S>& A, const std::vector<S>& x) {
  std::vector<double> y(A.num_rows, 0.0);
  for (ordinal_t r = 0; r < A.num_rows; ++r)
    for (offset_t k = A.row_map[r]; k < A.row_map[r + 1]; ++k)
      y[r] += double(A.vals[k]) * double(x[A.cols[k]]);
  return y;
}

template <class S>
std::vector<double> diagonal(const HostCsr<S>& A) {
  std::vector<double> d(A.num_rows, 0.0);
  for (ordinal_t r = 0; r < A.num_rows; ++r)
    for (offset_t k = A.row_map[r]; k < A.row_map[r + 1]; ++k)
      if (A.cols[k] == r) d[r] = A.vals[k];
  return d;
}

template <class S>
std::vector<S> wiggle(std::size_t n, double phase) {  // deterministic, no structure
  std::vector<S> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = S(std::sin(1.37 * double(i) + phase));
  return v;
}

// One problem: the colored Problem, its family tables and operator, the conditions, a starting rhs,
// and the CSR reference (assembled, then apply_dirichlet).
template <class Exec, class Family, class S, class Op>
struct Case {
  using Mem = typename Exec::memory_space;
  Problem<Exec> p;
  fe::Reference<Family, S, Mem> ref;
  Op op;
  FixedDofs fixed;
  bool homogeneous;
  std::vector<S> rhs0;
  Kokkos::View<S*, Mem> values, rhs;  // constrained CSR system

  Case(const Exec& exec, const Mesh& mesh, const DofMap& dm, const fe::HostReference& href, const Op& o,
       FixedDofs f, bool homog, double rhs_scale)
      : p(make_family_problem(exec, mesh, dm, Op::components)),
        op(o),
        fixed(std::move(f)),
        homogeneous(homog) {
    set_coloring(exec, p, greedy_coloring(mesh));
    ref = fe::to_device<Family, S>(exec, href);
    rhs0 = wiggle<S>(p.num_dofs(), 0.5);
    for (auto& v : rhs0) v *= S(rhs_scale);
    ElementAssembler<Exec, Family, Op, mapping::TeamPerElement, race::Atomic, inputs::Family<target::Index>,
                     S>
        a(exec, p, ref, op);
    values = Kokkos::View<S*, Mem>("values", p.graph.dof.nnz());
    a.assemble(values);
    rhs = to_view<S, Mem>(rhs0, "rhs");
    if (homogeneous)
      apply_dirichlet(exec, p.graph.dof, values, rhs, dofs());
    else
      apply_dirichlet(exec, p.graph.dof, values, rhs, dofs(), prescribed());
    exec.fence();
  }
  Kokkos::View<const ordinal_t*, Mem> dofs() const { return to_view<ordinal_t, Mem>(fixed.dofs, "fixed"); }
  Kokkos::View<const S*, Mem> prescribed() const {
    return to_view<S, Mem>(std::vector<S>(fixed.values.begin(), fixed.values.end()), "prescribed");
  }
  // The EbE counterpart of the CSR apply_dirichlet above.
  void constrain_ebe(const Exec& exec, EbeOperator<Exec, S>& A, const Kokkos::View<S*, Mem>& b) const {
    if (homogeneous)
      A.apply_dirichlet(exec, b, dofs());
    else
      A.apply_dirichlet(exec, b, dofs(), prescribed());
  }
};

template <class Exec, class S>
struct Named {
  std::string name;
  std::unique_ptr<EbeOperator<Exec, S>> op;
  bool reproducible;  // plain adds in a fixed order (coloured, one thread per element or stored Ke)
  bool solve;         // CG too (the other mapping of each version adds nothing to it)
};

// Every variant: v1 (Ke from the team and the thread mapping), v2 (Ke recomputed by either), both races.
template <class Exec, class Family, class S, class Op>
std::vector<Named<Exec, S>> variants(const Exec& exec, const Case<Exec, Family, S, Op>& c) {
  using Team = mapping::TeamPerElement;
  using Thread = mapping::ThreadPerElement;
  std::vector<Named<Exec, S>> out;
  for (EbeRace race : {EbeRace::colored, EbeRace::atomic}) {
    const std::string r = race == EbeRace::colored ? " colored" : " atomic";
    const bool colored = race == EbeRace::colored;
    out.push_back({"v1 team" + r,
                   std::make_unique<EbeV1<Exec, Family, Op, S, Team>>(exec, c.p, c.ref, c.op, race), colored,
                   true});
    out.push_back({"v1 thread" + r,
                   std::make_unique<EbeV1<Exec, Family, Op, S, Thread>>(exec, c.p, c.ref, c.op, race),
                   colored, false});
    out.push_back({"v2 thread" + r,
                   std::make_unique<EbeV2<Exec, Family, Op, S, Thread>>(exec, c.p, c.ref, c.op, race),
                   colored, true});
    out.push_back({"v2 team" + r,
                   std::make_unique<EbeV2<Exec, Family, Op, S, Team>>(exec, c.p, c.ref, c.op, race), false,
                   false});
  }
  return out;
}

// Dirichlet rhs, product, diagonal (and, in double with `solve`, CG) of every variant against the CSR.
template <class Exec, class Family, class S, class Op>
void check(const Exec& exec, const Case<Exec, Family, S, Op>& c, bool solve = true) {
  using Mem = typename Exec::memory_space;
  const HostCsr<S> K = kfem::to_host(c.p.graph.dof, c.values);
  const std::vector<S> xh = wiggle<S>(K.num_rows, 0.1);
  const std::vector<double> want_y = matvec(K, xh), want_d = diagonal(K);
  const std::vector<S> want_rhs = to_vector(c.rhs);
  const auto x = to_view<S, Mem>(xh, "x");
  const Kokkos::View<S*, Mem> y("y", K.num_rows), d("d", K.num_rows);

  std::vector<double> csr_solution;
  SolverOptions opts;
  opts.tolerance = 1e-12;
  if (solve && std::is_same<S, double>::value) {
    const Kokkos::View<S*, Mem> u("u", K.num_rows);
    const SolveResult res = solve_csr(exec, c.p.graph.dof, c.values, false, c.rhs, u, opts);
    ASSERT_TRUE(res.converged);
    const auto uh = to_vector(u);
    csr_solution.assign(uh.begin(), uh.end());
  }

  for (auto& v : variants(exec, c)) {
    SCOPED_TRACE(v.name);
    auto& A = *v.op;
    const auto b = to_view<S, Mem>(c.rhs0, "b");
    c.constrain_ebe(exec, A, b);
    exec.fence();
    EXPECT_LE(relative_difference(to_vector(b), want_rhs), tolerance<S>());

    A.apply(exec, x, y);
    exec.fence();
    const auto got = to_vector(y);
    EXPECT_LE(relative_difference(got, want_y), tolerance<S>());
    if (v.reproducible) {
      A.apply(exec, x, y);
      exec.fence();
      const auto again = to_vector(y);
      EXPECT_EQ(0, std::memcmp(got.data(), again.data(), sizeof(S) * got.size()));
    }

    A.diagonal(exec, d);
    exec.fence();
    EXPECT_LE(relative_difference(to_vector(d), want_d), tolerance<S>());

    if (v.solve && !csr_solution.empty()) {
      const Kokkos::View<S*, Mem> u("u", K.num_rows);
      const SolveResult res = solve_ebe(exec, A, b, u, opts);
      EXPECT_TRUE(res.converged);
      EXPECT_LE(relative_difference(to_vector(u), csr_solution), 1e-8);
    }
  }
}

template <class Space>
class EbeOperators : public ::testing::Test {};
TYPED_TEST_SUITE(EbeOperators, ExecSpaces, SpaceName);

// A distorted, renumbered tri3 box, phi = 0 on xmin and 1 on xmax, a small charge density.
template <class Exec, class S>
void check_tri3(const Exec& exec) {
  Mesh mesh = make_tri_box(7, 5, 3.0, 2.0);
  distort(mesh, 0.15, 5);
  mesh = shuffle_elements(renumber_nodes(mesh, node_permutation(mesh, Renumbering::random, 3)), 9);
  const DofMap dm = vertex_dof_map(mesh);
  const double eps = 8.854e-12 * 3.9;
  const Case<Exec, fe::Tri3, S, fe::Electrostatics<S>> c(
      exec, mesh, dm, fe::host_reference(fe::Tri3{}), fe::Electrostatics<S>{S(eps)},
      fixed_dofs_by_name(mesh, dm, 1, {{"xmin", {0.0}}, {"xmax", {1.0}}}, "test"), false, eps);
  check(exec, c);
}

// Distorted prism boxes of order 1 and 2, clamped at xmin, a wiggly load.
template <class Exec, class S>
void check_prisms(const Exec& exec, bool homogeneous) {
  const Isotropic<double> m = steel();
  for (int order : {1, 2}) {
    SCOPED_TRACE("p = " + std::to_string(order));
    Mesh mesh =
        make_prism_box(order == 1 ? BoxSpec{3, 2, 1, 3.0, 1.0, 1.0} : BoxSpec{2, 1, 1, 2.0, 1.0, 1.0});
    distort(mesh, 0.15, 7);
    mesh = shuffle_elements(renumber_nodes(mesh, node_permutation(mesh, Renumbering::random, 11)), 13);
    const DofMap dm = lagrange_dof_map(mesh, order);
    const std::vector<double> clamp =
        homogeneous ? std::vector<double>{0, 0, 0} : std::vector<double>{1e-3, 0, -2e-3};
    const Case<Exec, fe::Lagrange, S, fe::Elasticity<S>> c(
        exec, mesh, dm, fe::host_reference(fe::Lagrange{}, CellType::prism6, order),
        fe::Elasticity<S>{Isotropic<S>{S(m.lambda), S(m.mu)}},
        fixed_dofs_by_name(mesh, dm, 3, {{"xmin", clamp}}, "test"), homogeneous, 1e6);
    check(exec, c, homogeneous);  // tri3 already solves with prescribed values: spare the launches
  }
}

TYPED_TEST(EbeOperators, Tri3ElectrostaticsDouble) {
  check_tri3<TypeParam, double>(TypeParam());
}
TYPED_TEST(EbeOperators, Tri3ElectrostaticsFloat) {
  check_tri3<TypeParam, float>(TypeParam());
}
TYPED_TEST(EbeOperators, PrismClampDouble) {
  check_prisms<TypeParam, double>(TypeParam(), true);
}
TYPED_TEST(EbeOperators, PrismClampFloat) {
  check_prisms<TypeParam, float>(TypeParam(), true);
}
TYPED_TEST(EbeOperators, PrismPrescribedDouble) {
  check_prisms<TypeParam, double>(TypeParam(), false);
}

// Device bytes per element for tri3 in double, next to amorim's EbE-v1 151 B and EbE-v2 79 B:
// v1 keeps Ke (9 x 8 B) and the DOF nodes (3 x 4 B), v2 the vertex coordinates (6 x 8 B) and nodes.
TYPED_TEST(EbeOperators, Tri3BytesPerElement) {
  using Exec = TypeParam;
  const Exec exec;
  const Mesh mesh = make_tri_box(4, 3, 2.0, 1.0);
  const DofMap dm = vertex_dof_map(mesh);
  Problem<Exec> p = make_family_problem(exec, mesh, dm, 1);
  set_coloring(exec, p, greedy_coloring(mesh));
  const auto ref = fe::to_device<fe::Tri3, double>(exec, fe::host_reference(fe::Tri3{}));
  const fe::Electrostatics<double> op{1.0};
  const EbeV1<Exec, fe::Tri3, fe::Electrostatics<double>, double> v1(exec, p, ref, op, EbeRace::colored);
  const EbeV2<Exec, fe::Tri3, fe::Electrostatics<double>, double> v2(exec, p, ref, op, EbeRace::atomic);
  EXPECT_EQ(v1.bytes_per_element(), 84.0);
  EXPECT_EQ(v2.bytes_per_element(), 60.0);
  EXPECT_EQ(v1.memory().dofs, sizeof(double) * p.num_dofs());
  EXPECT_EQ(v1.num_launches(), p.coloring.num_colors());
  EXPECT_EQ(v2.num_launches(), 1);
}
}  // namespace
}  // namespace kfem::test
