// Issue 15, the mesh part: cells listed twice, bodies without a Dirichlet condition (a singular
// system), Gmsh counts beyond the ids or the file, DOF graphs beyond the ids or the device memory.
// One table row per bad input (bad_input.hpp runs it); selected by `ctest -R bad_input`.
#include <array>
#include <string>
#include <vector>

#include "bad_input.hpp"
#include "kfem/core/error.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/mesh/box.hpp"
#include "model.hpp"

namespace {
using kfem::test::check_row;
using kfem::test::cube;
using kfem::test::KfemRunner;
using kfem::test::Row;

// cube("1", "8") (one hexahedron, lines as bad_input.hpp numbers them) with `from` replaced by `to`.
std::string cube_with(const std::string& from, const std::string& to) {
  std::string text = cube("1", "8");
  return text.replace(text.find(from), from.size(), to);
}

// cube("1", "8") with every coordinate 1 written as 1e100: the tip face's squared lengths overflow.
std::string huge_cube() {
  return cube_with("0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 1\n1 0 1\n1 1 1\n0 1 1\n",
                   "0 0 0\n1e100 0 0\n1e100 1e100 0\n0 1e100 0\n0 0 1e100\n1e100 0 1e100\n1e100 1e100 1e100\n"
                   "0 1e100 1e100\n");
}

// The cube's hexahedron again as element 2 (line 28), its vertices rotated within each face.
std::string hex_twice() {
  std::string text = cube_with("1 1 1 1\n3 1 5 1\n", "1 2 1 2\n3 1 5 2\n");
  return text.replace(text.find("$EndElements"), 0, "2 2 3 4 1 6 7 8 5\n");
}

// One cell block of Gmsh `type` (nodes tagged 1..N, cells 1..M), and the physical group "clamp"
// holding the nodes `clamp` as point elements.
std::string msh(int type, const std::vector<std::array<int, 3>>& nodes,
                const std::vector<std::vector<int>>& cells, const std::vector<int>& clamp) {
  const std::string n = std::to_string(nodes.size()), m = std::to_string(cells.size()),
                    total = std::to_string(cells.size() + clamp.size());
  std::string s =
      "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$PhysicalNames\n1\n0 1 \"clamp\"\n$EndPhysicalNames\n"
      "$Entities\n1 0 0 1\n1 0 0 0 1 1\n1 0 0 0 3 1 1 0 0\n$EndEntities\n$Nodes\n1 " +
      n + " 1 " + n + "\n3 1 0 " + n + "\n";
  for (std::size_t v = 1; v <= nodes.size(); ++v) s += std::to_string(v) + "\n";
  for (const auto& x : nodes)
    s += std::to_string(x[0]) + " " + std::to_string(x[1]) + " " + std::to_string(x[2]) + "\n";
  s += "$EndNodes\n$Elements\n2 " + total + " 1 " + total + "\n3 1 " + std::to_string(type) + " " + m + "\n";
  int tag = 0;
  for (const auto& cell : cells) {
    s += std::to_string(++tag);
    for (int v : cell) s += " " + std::to_string(v);
    s += "\n";
  }
  s += "0 1 15 " + std::to_string(clamp.size()) + "\n";
  for (int v : clamp) s += std::to_string(++tag) + " " + std::to_string(v) + "\n";
  return s + "$EndElements\n";
}

// Two unit hexahedra on x in [0, 1] and [2, 3]: two bodies; "clamp" is the x-min face of both.
std::string two_hexes() {
  std::vector<std::array<int, 3>> nodes;
  for (int x0 : {0, 2})
    for (int z : {0, 1})
      for (const auto& [x, y] : std::vector<std::array<int, 2>>{{0, 0}, {1, 0}, {1, 1}, {0, 1}})
        nodes.push_back({x0 + x, y, z});
  return msh(5, nodes, {{1, 2, 3, 4, 5, 6, 7, 8}, {9, 10, 11, 12, 13, 14, 15, 16}},
             {1, 4, 5, 8, 9, 12, 13, 16});
}

// Two prisms apart, the second with a face on x = 3 (the cantilever's tip plane); "clamp": the x-min
// face of the first only.
std::string two_prisms() {
  return msh(6,
             {{0, 0, 0},
              {1, 0, 0},
              {0, 1, 0},
              {0, 0, 1},
              {1, 0, 1},
              {0, 1, 1},
              {2, 0, 0},
              {3, 0, 0},
              {3, 1, 0},
              {2, 0, 1},
              {3, 0, 1},
              {3, 1, 1}},
             {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}}, {1, 3, 4, 6});
}

const std::string singular =
    "two.msh: 2 bodies (connected components); body 2 (1 element, e.g. element 1 at "
    "(2, 0, 0)) has no Dirichlet condition";

const std::vector<Row> rows = {
    // 2a: a hexahedron listed twice was assembled twice
    {"GmshHexahedronListedTwice",
     {{"dup.msh", hex_twice()}},
     "verify --mesh dup.msh",
     2,
     "dup.msh:28: elements 1 and 2 have the same nodes (1 2 3 4 5 6 7 8 and 2 3 4 1 6 7 8 5)"},

    // 2b: a second, unclamped body made CG run on a singular matrix
    {"SecondBodyNotClamped", {{"two.msh", two_hexes()}}, "run --mesh two.msh", 2, singular},
    {"SecondBodyNotClampedInABenchThatSolves",
     {{"two.msh", two_hexes()},
      {"d.yaml", "mesh: {size: two.msh}\nbench: {solve: true, warmup: 0, repetitions: 1}\n"}},
     "bench d.yaml --out .",
     2,
     singular},
    {"SecondPrismBodyNotClampedAtOrder2",
     {{"two.msh", two_prisms()}, {"d.yaml", "mesh: {size: two.msh}\nbc: {dirichlet: {clamp: [0, 0, 0]}}\n"}},
     "run d.yaml --order 2",
     2,
     "two.msh: 2 bodies (connected components); body 2 (1 element, e.g. element 1 at (2, 0, 0))"},

    // 2c: Gmsh counts: a block reserved its rows before its size was checked
    {"GmshElementBlockBeyondTheHeader",
     {{"bad.msh", cube_with("3 1 5 1\n", "3 1 5 2000000000\n")}},
     "verify --mesh bad.msh",
     2,
     "bad.msh:26: block of 2000000000 elements, but $Elements declares 1 elements"},
    {"GmshNodeCountBeyondTheIds",
     {{"bad.msh", cube_with("1 8 1 8\n", "1 3000000000 1 8\n")}},
     "verify --mesh bad.msh",
     2,
     "bad.msh:5: $Nodes declares 3000000000 nodes, more than kfem's 32-bit ids (ordinal_t) address "
     "(2147483647)"},
    // Issue 42: coordinates of 1e100 made the cantilever's loads NaN and CG stop at once, exit 1
    // with no word on why
    {"CoordinatesTooLargeForTheLoad",
     {{"big.msh", huge_cube()}},
     "run --mesh big.msh",
     2,
     "big.msh: the nodal loads are not finite (NaN): the tip face's area overflows at coordinates up to "
     "1e+100"},
    {"GmshNodeCountBeyondTheFile",
     {{"bad.msh", cube_with("1 8 1 8\n", "1 1000000000 1 8\n")}},
     "verify --mesh bad.msh",
     2,
     "bad.msh:5: $Nodes declares 1000000000 nodes, more than the rest of the file can hold"},
};

class bad_input_mesh : public ::testing::TestWithParam<Row> {};

TEST_P(bad_input_mesh, OneLineErrorAndNothingWritten) {
  check_row(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Table, bad_input_mesh, ::testing::ValuesIn(rows),
                         [](const ::testing::TestParamInfo<Row>& info) { return info.param.name; });

// The good counterparts: two bodies are fine without a solve, or with both clamped.
TEST(bad_input_mesh_counterparts, TwoBodiesWithoutASolveOrBothClamped) {
  KfemRunner k("TwoBodiesWithoutASolveOrBothClamped");
  k.write("two.msh", two_hexes());
  k.write("d.yaml", "mesh: {size: two.msh}\nbc: {dirichlet: {clamp: [0, 0, 0]}}\n");
  for (const char* args : {"run --mesh two.msh --no-solve", "run d.yaml"}) {
    const auto [code, out, err] = k.run(std::string(args) + " --repetitions 1 --warmup 0");
    EXPECT_EQ(code, 0) << args << "\n" << out << err;
  }
  k.keep = ::testing::Test::HasFailure();
}

std::string graph_error(const kfem::app::GraphCounts& counts, std::size_t free_bytes) {
  try {
    kfem::app::check_graph_size("big.msh", counts, free_bytes);
  } catch (const kfem::InputError& e) {
    return e.what();
  }
  return "";
}

// Counts no test can build: 3 x 800 M DOF nodes overflow the 32-bit DOF ids; a graph of a million
// hexahedra needs more than 100 MB.
TEST(bad_input_mesh_graph, DofIdsAndDeviceMemory) {
  EXPECT_EQ(graph_error({700000000, 800000000, 8, 3}, 0),
            "big.msh: 3 x 800000000 DOF nodes = 2400000000 DOFs, more than kfem's 32-bit DOF ids (ordinal_t) "
            "address (2147483647)");
  EXPECT_EQ(graph_error({700000000, 700000000, 8, 3}, 0), "");   // host: no memory query
  EXPECT_EQ(graph_error({700000000, 2000000000, 8, 1}, 0), "");  // one component: 2e9 DOFs fit
  const std::string memory = graph_error({1000000, 1030301, 8, 3}, std::size_t(100) << 20);
  EXPECT_NE(
      memory.find("big.msh: the DOF graph of 1000000 elements and 3 x 1030301 DOFs (8 DOF nodes per element) "
                  "needs at least "),
      std::string::npos)
      << memory;
  EXPECT_NE(memory.find("GiB of device memory, but 0.0977 GiB are free"), std::string::npos) << memory;
  EXPECT_EQ(graph_error({1000000, 1030301, 8, 3}, std::size_t(2) << 30), "");
}

// The DOF-node -> body map also covers prism DOF nodes of order 2 that are not mesh vertices: fixing
// only the second body's edge nodes still leaves the first one free.
TEST(bad_input_mesh_bodies, HigherOrderDofNodesBelongToTheirBody) {
  kfem::app::Model model;
  model.mesh = kfem::make_prism_box(kfem::BoxSpec{1, 1, 1, 1, 1, 1});
  kfem::Mesh second = model.mesh;
  for (auto& x : second.nodes) x[0] += 2;
  const auto shift = kfem::ordinal_t(model.mesh.num_nodes());
  model.mesh.nodes.insert(model.mesh.nodes.end(), second.nodes.begin(), second.nodes.end());
  for (auto el : second.elements) {
    for (int a = 0; a < 6; ++a) el[a] += shift;
    model.mesh.elements.push_back(el);
  }
  model.dofs = kfem::lagrange_dof_map(model.mesh, 2);
  const auto vertices = kfem::ordinal_t(model.mesh.num_nodes());
  std::vector<kfem::ordinal_t> fixed;  // DOF nodes past the vertices: edges of the first body first
  const kfem::ordinal_t edge_of_second = model.dofs.element(2)[6];
  ASSERT_GE(edge_of_second, vertices);
  fixed.push_back(3 * edge_of_second + 1);
  try {
    kfem::app::check_bodies_fixed(model, fixed, "prisms");
    ADD_FAILURE() << "no error";
  } catch (const kfem::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("prisms: 2 bodies (connected components); body 1 (2 elements, e.g. "
                                         "element 0 at (0, 0, 0)) has no Dirichlet condition"),
              std::string::npos)
        << e.what();
  }
  fixed.insert(fixed.begin(), 3 * model.dofs.element(0)[7]);
  EXPECT_NO_THROW(kfem::app::check_bodies_fixed(model, fixed, "prisms"));
  EXPECT_NO_THROW(kfem::app::check_bodies_fixed(model, {0, 3 * shift + 2}, "prisms"));
}
}  // namespace
