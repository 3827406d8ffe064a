// The guided tour's exercise (docs/tour/10-your-mapping.md): the solution's mapping against each
// family's serial oracle, with every race handling that suits an element-centric mapping, on every
// enabled backend; and the begin file, which builds and runs but assembles nothing yet.
#include <gtest/gtest.h>

#include "assembly/fixture.hpp"
#include "backends.hpp"
#include "exercise/my_mapping.hpp"
#include "kfem/assembly/assembler.hpp"
#include "kfem/assembly/race/atomic.hpp"
#include "kfem/assembly/race/colored.hpp"
#include "kfem/assembly/race/scatter.hpp"
#include "kfem/assembly/target/csr_index.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/mesh/box.hpp"
#include "solutions/pair_per_lane.hpp"

namespace kfem::test {
namespace {
template <class Space>
class Exercise : public ::testing::Test {};
TYPED_TEST_SUITE(Exercise, ExecSpaces, SpaceName);

// One assembly with Mapping x Race into the full pattern, from a poisoned array.
template <class Mapping, class Race, class Exec, class Family, class Op>
HostCsr<double> assemble_with(const Exec& exec, const Problem<Exec>& p, const fe::HostReference& href,
                              const Op& op) {
  const auto ref = fe::to_device<Family, double>(exec, href);
  ElementAssembler<Exec, Family, Op, Mapping, Race, inputs::Family<target::Index>, double> a(exec, p, ref,
                                                                                             op);
  Kokkos::View<double*, typename Exec::memory_space> values("values", p.graph.dof.nnz());
  Kokkos::deep_copy(values, -12345.0);
  a.assemble(values);
  exec.fence();
  return kfem::to_host(p.graph.dof, values);
}

template <class Family, class Exec, class Op>
void check_solution(const Exec& exec, const Mesh& mesh, const DofMap& dm, const fe::HostReference& href,
                    const Op& op, const HostCsr<double>& oracle) {
  Problem<Exec> p = make_family_problem(exec, mesh, dm, Op::components);
  set_coloring(exec, p, greedy_coloring(mesh));
  for (const HostCsr<double>& got :
       {assemble_with<tour::PairPerLane, race::Atomic, Exec, Family>(exec, p, href, op),
        assemble_with<tour::PairPerLane, race::Colored, Exec, Family>(exec, p, href, op),
        assemble_with<tour::PairPerLane, race::Scatter, Exec, Family>(exec, p, href, op)}) {
    const MatrixDiff d = compare(got, oracle);
    EXPECT_TRUE(d.same_pattern);
    EXPECT_LE(d.max_rel, 1e-12);
  }
}

TYPED_TEST(Exercise, SolutionMatchesHex8Oracle) {
  const Mesh mesh = distorted_beam(3, 2, 2);
  const fe::Elasticity<double> op{steel()};
  check_solution<fe::Hex8>(TypeParam(), mesh, vertex_dof_map(mesh), fe::host_reference(fe::Hex8{}), op,
                           assemble_reference_hex8(mesh, steel()));
}

TYPED_TEST(Exercise, SolutionMatchesTri3Oracle) {
  Mesh mesh = make_tri_box(6, 4, 3.0, 2.0);
  distort(mesh, 0.15, 5);
  const double eps = 8.854e-12 * 3.9;
  check_solution<fe::Tri3>(TypeParam(), mesh, vertex_dof_map(mesh), fe::host_reference(fe::Tri3{}),
                           fe::Electrostatics<double>{eps}, assemble_reference_electrostatics(mesh, eps));
}

TYPED_TEST(Exercise, SolutionMatchesPrismOracle) {
  const Mesh mesh = distorted_prism_box(2);
  const DofMap dm = lagrange_dof_map(mesh, 2);
  check_solution<fe::Lagrange>(TypeParam(), mesh, dm, fe::host_reference(fe::Lagrange{}, CellType::prism6, 2),
                               fe::Elasticity<double>{steel()},
                               assemble_reference_elasticity(mesh, dm, steel()));
}

// The begin file builds and runs; until its kernel is written every value stays zero.
TYPED_TEST(Exercise, BeginFileRunsAndAssemblesNothingYet) {
  const TypeParam exec;
  const Mesh mesh = distorted_beam(2, 1, 1);
  const Problem<TypeParam> p = make_family_problem(exec, mesh, vertex_dof_map(mesh), 3);
  const HostCsr<double> got = assemble_with<tour::MyMapping, race::Atomic, TypeParam, fe::Hex8>(
      exec, p, fe::host_reference(fe::Hex8{}), fe::Elasticity<double>{steel()});
  ASSERT_FALSE(got.vals.empty());
  for (double v : got.vals) ASSERT_EQ(v, 0.0);
}
}  // namespace
}  // namespace kfem::test
