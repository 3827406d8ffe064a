// The pipeline's first two stages (kfem/pipeline): the model a box spec and settings build, and the
// set-up of a point on every backend: the steps a choice asks for and no others, the pattern and
// its lower triangle as the sparsity layer builds them, a valid colouring, the Morton launch order,
// and the host orders computed once per mesh.
#include "kfem/pipeline/setup.hpp"

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>

#include "backends.hpp"
#include "kfem/assembly/problem.hpp"
#include "kfem/assembly/strategies.hpp"
#include "kfem/coloring/coloring.hpp"
#include "kfem/mesh/morton.hpp"
#include "kfem/mesh/renumber.hpp"
#include "kfem/pipeline/model.hpp"
#include "kfem/sparsity/dof_graph.hpp"

namespace kfem::test {
namespace {
using pipeline::ColoringMethod;
using pipeline::MeshSpec;
using pipeline::Model;
using pipeline::SetupChoice;

Model box_model(int nx, int ny, int nz) {
  MeshSpec spec;
  spec.name = "box";
  spec.box = BoxSpec{nx, ny, nz, double(nx), double(ny), double(nz)};
  return pipeline::build_model(spec, pipeline::Settings{}, std::nullopt);
}

template <class View>
std::vector<typename View::non_const_value_type> host(const View& v) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return {h.data(), h.data() + h.extent(0)};
}

TEST(PipelineModel, BoxOfTheDefaultProblem) {
  const Model m = box_model(4, 3, 2);
  EXPECT_EQ(m.mesh.num_elements(), 24u);
  EXPECT_EQ(m.components, 3);  // elasticity, the settings' default problem
  EXPECT_EQ(m.dofs.num_nodes, 5 * 4 * 3);
  EXPECT_EQ(m.info["dofs"], 3 * 60);
  EXPECT_EQ(m.info["renumber"], "natural");
}

TEST(PipelineModel, RefusesAGraphTooLargeForTheDevice) {
  MeshSpec spec;
  spec.name = "box";
  spec.box = BoxSpec{8, 4, 4, 8.0, 4.0, 4.0};
  EXPECT_THROW(pipeline::build_model(spec, pipeline::Settings{}, std::size_t(1000)), InputError);
  EXPECT_NO_THROW(pipeline::build_model(spec, pipeline::Settings{}, std::size_t(0)));  // unknown: unchecked
}

TEST(MeshOrders, ComputedOnceAndAsTheMeshLayerGivesThem) {
  const Model m = box_model(6, 2, 2);
  const pipeline::MeshOrders orders;
  const Coloring& c = orders.greedy(m.mesh);
  EXPECT_EQ(&orders.greedy(m.mesh), &c);  // the memo, not a second colouring
  EXPECT_EQ(check_coloring(m.mesh, c), "");
}

template <class Exec>
class PipelineSetup : public ::testing::Test {};
TYPED_TEST_SUITE(PipelineSetup, ExecSpaces, SpaceName);

TYPED_TEST(PipelineSetup, TakesTheStepsTheChoiceAsksFor) {
  using Exec = TypeParam;
  const Exec exec;
  const Model m = box_model(4, 3, 2);
  SetupChoice graph_only;
  const auto g = pipeline::make_setup(exec, m.mesh, m.dofs, m.components, m.orders, graph_only);
  EXPECT_TRUE(g.times.contains("mesh_to_device_s"));
  EXPECT_TRUE(g.times.contains("graph_s"));
  for (const char* key : {"lower_graph_s", "coloring_s", "morton_order_s", "coloring_device_s"})
    EXPECT_FALSE(g.times.contains(key)) << key;
  const auto expected = build_dof_graph(exec, g.problem.dofs, m.dofs.num_nodes, m.components);
  EXPECT_EQ(host(g.problem.graph.dof.row_map), host(expected.dof.row_map));
  EXPECT_EQ(host(g.problem.graph.dof.cols), host(expected.dof.cols));
  EXPECT_EQ(g.problem.num_dofs(), 3 * 60);
  EXPECT_EQ(host(g.problem.natural).size(), 24u);

  SetupChoice none;  // a-COO and EbE: no pattern, the DOF count only
  none.pattern = false;
  const auto n = pipeline::make_setup(exec, m.mesh, m.dofs, m.components, m.orders, none);
  EXPECT_FALSE(n.times.contains("graph_s"));
  EXPECT_EQ(n.problem.num_dofs(), 3 * 60);
  EXPECT_EQ(n.problem.graph.dof.row_map.extent(0), 0u);
}

TYPED_TEST(PipelineSetup, LowerColouringAndLaunchOrder) {
  using Exec = TypeParam;
  const Exec exec;
  const Model m = box_model(4, 3, 2);
  for (const ColoringMethod method : {ColoringMethod::greedy, ColoringMethod::device}) {
    SetupChoice c = pipeline::csr_setup(MappingKind::sympairs, RaceKind::colored, method, true);
    EXPECT_TRUE(c.lower && c.coloring && !c.launch_order);  // coloured: the colours give the order
    c.time_colorings = true;
    const auto s = pipeline::make_setup(exec, m.mesh, m.dofs, m.components, m.orders, c);
    EXPECT_EQ(s.times["coloring_method"], method == ColoringMethod::device ? "device" : "greedy");
    EXPECT_TRUE(s.times.contains("coloring_greedy_s") && s.times.contains("coloring_device_s"));
    EXPECT_EQ(s.problem.graph.dof.cols.extent(0), 0u);  // lower storage keeps its own pattern only
    const auto rows = host(s.problem.lower.row_map);
    const auto cols = host(s.problem.lower.cols);
    for (std::size_t r = 0; r + 1 < rows.size(); ++r)
      for (auto k = rows[r]; k < rows[r + 1]; ++k) EXPECT_LE(cols[std::size_t(k)], ordinal_t(r));
    // The colours and their grouping are on the space (a device colouring has no host copy).
    const Coloring grouped = group_by_color(host(s.problem.colors));
    EXPECT_EQ(check_coloring(m.mesh, grouped), "");
    EXPECT_EQ(host(s.problem.by_color), grouped.order);
    EXPECT_EQ(s.problem.coloring.offsets, grouped.offsets);
    EXPECT_EQ(s.times["colors"], grouped.num_colors());
    EXPECT_EQ(s.times["coloring_found_by"], method == ColoringMethod::device ? "box parity" : "greedy");
  }
  const SetupChoice atomic =
      pipeline::csr_setup(MappingKind::pairs, RaceKind::atomic, ColoringMethod::greedy, true);
  EXPECT_TRUE(!atomic.lower && !atomic.coloring && atomic.launch_order);
  const auto s = pipeline::make_setup(exec, m.mesh, m.dofs, m.components, m.orders, atomic);
  EXPECT_EQ(host(s.problem.uncolored), morton_order(m.mesh));
  EXPECT_FALSE(
      pipeline::csr_setup(MappingKind::owner, RaceKind::none, ColoringMethod::greedy, true).launch_order);
}
// The device's Morton order is the host's, element for element, on meshes whose numbering says
// nothing of their geometry: distorted, nodes renumbered at random, elements shuffled.
// Points given one SharedPattern (the tuner's candidates) upload and build the pattern once per
// storage: the second full-storage point takes the first one's graph, a lower-storage point builds
// its own (and is then the one kept), and what is taken equals what would be built.
TYPED_TEST(PipelineSetup, SharesThePatternItWasGiven) {
  const TypeParam exec;
  const Model m = box_model(4, 3, 2);
  const pipeline::SharedPattern shared;
  SetupChoice full;
  full.share = &shared;
  const auto first = pipeline::make_setup(exec, m.mesh, m.dofs, m.components, m.orders, full);
  EXPECT_TRUE(first.times.contains("graph_s"));
  const auto second = pipeline::make_setup(exec, m.mesh, m.dofs, m.components, m.orders, full);
  EXPECT_FALSE(second.times.contains("graph_s"));
  EXPECT_FALSE(second.times.contains("mesh_to_device_s"));
  EXPECT_TRUE(second.times.value("pattern_shared", false));
  EXPECT_EQ(second.problem.graph.dof.cols.data(), first.problem.graph.dof.cols.data());
  EXPECT_EQ(second.problem.dofs.data(), first.problem.dofs.data());

  SetupChoice lower = full;
  lower.lower = true;
  const auto sym = pipeline::make_setup(exec, m.mesh, m.dofs, m.components, m.orders, lower);
  EXPECT_TRUE(sym.times.contains("lower_graph_s"));
  EXPECT_NE(sym.problem.lower.cols.data(), nullptr);
  const auto again = pipeline::make_setup(exec, m.mesh, m.dofs, m.components, m.orders, lower);
  EXPECT_EQ(again.problem.lower.cols.data(), sym.problem.lower.cols.data());

  SetupChoice alone;  // no SharedPattern: built anew, the same pattern
  const auto own = pipeline::make_setup(exec, m.mesh, m.dofs, m.components, m.orders, alone);
  EXPECT_NE(own.problem.graph.dof.cols.data(), first.problem.graph.dof.cols.data());
  EXPECT_EQ(host(own.problem.graph.dof.cols), host(first.problem.graph.dof.cols));
  EXPECT_EQ(host(own.problem.graph.dof.row_map), host(second.problem.graph.dof.row_map));
}

TYPED_TEST(PipelineSetup, MortonOrderOnTheBackendIsTheHosts) {
  using Exec = TypeParam;
  for (const CellType cell : {CellType::hex8, CellType::prism6, CellType::tri3}) {
    MeshSpec spec;
    spec.name = "box", spec.cell = cell;
    spec.box = BoxSpec{9, 5, cell == CellType::tri3 ? 1 : 4, 9.0, 5.0, 4.0};
    pipeline::Settings settings;
    settings.distort = 0.3, settings.renumber = Renumbering::random, settings.seed = 5;
    if (cell == CellType::tri3) settings.problem = "electrostatics";
    const Model m = pipeline::build_model(spec, settings, std::nullopt);
    const Mesh shuffled = shuffle_elements(m.mesh, 9);
    const auto d = to_device(Exec(), shuffled);
    EXPECT_EQ(host(morton::order(Exec(), d.coords, d.conn, shuffled.nodes_per_element())),
              morton_order(shuffled))
        << cell_name(cell);
  }
}
}  // namespace
}  // namespace kfem::test
