// Gmsh MSH 4.1 reader and writer: round trips per cell family (physical groups included), files
// made by Gmsh itself, and one test per kind of bad input, each checking that the InputError names
// the file and the line, element or group.
#include "kfem/mesh/gmsh.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <map>
#include <sstream>
#include <vector>

#include "kfem/core/error.hpp"
#include "kfem/mesh/box.hpp"
#include "kfem/mesh/node_sets.hpp"
#include "kfem/mesh/renumber.hpp"
#include "kfem/mesh/validate.hpp"

namespace kfem {
namespace {
// A unit cube as Gmsh writes it: physical names, entities, two node blocks, a boundary quad,
// trailing node data. Line numbers are on the right; the tests below rely on them.
std::string cube_msh() {
  return "$MeshFormat\n"            // 1
         "4.1 0 8\n"                // 2
         "$EndMeshFormat\n"         // 3
         "$PhysicalNames\n"         // 4
         "1\n"                      // 5
         "3 1 \"solid\"\n"          // 6
         "$EndPhysicalNames\n"      // 7
         "$Entities\n"              // 8
         "0 0 1 1\n"                // 9
         "1 0 0 0 1 1 0 0 0\n"      // 10
         "1 0 0 0 1 1 1 1 1 1 1\n"  // 11
         "$EndEntities\n"           // 12
         "$Nodes\n"                 // 13
         "2 8 1 8\n"                // 14
         "2 1 0 4\n"                // 15
         "1\n2\n3\n4\n"             // 16-19
         "0 0 0\n"                  // 20
         "1 0 0\n"                  // 21
         "1 1 0\n"                  // 22
         "0 1 0\n"                  // 23
         "3 1 0 4\n"                // 24
         "5\n6\n7\n8\n"             // 25-28
         "0 0 1\n"                  // 29
         "1 0 1\n"                  // 30
         "1 1 1\n"                  // 31
         "0 1 1\n"                  // 32
         "$EndNodes\n"              // 33
         "$Elements\n"              // 34
         "2 2 1 2\n"                // 35
         "2 1 3 1\n"                // 36
         "1 1 2 3 4\n"              // 37
         "3 1 5 1\n"                // 38
         "2 1 2 3 4 5 6 7 8\n"      // 39
         "$EndElements\n"           // 40
         "$NodeData\n1\n\"T\"\n1\n0.0\n3\n0\n1\n1\n1 42\n$EndNodeData\n";
}

// cube_msh with the first occurrence of `from` replaced by `to`.
std::string cube_with(const std::string& from, const std::string& to) {
  std::string text = cube_msh();
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

class Gmsh : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           (std::string("kfem_mesh_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& text) {
    const std::string path = (dir_ / "input.msh").string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  // Reads `text` from a file and checks the error starts with "<path>:<line>: " and contains the fragments.
  void expect_error(const std::string& text, int line, std::initializer_list<std::string> fragments) {
    const std::string path = write(text);
    try {
      read_gmsh(path);
      ADD_FAILURE() << "no error, expected '" << *fragments.begin() << "'";
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(path + ":" + std::to_string(line) + ": ", 0), 0u) << message;
      for (const auto& fragment : fragments) EXPECT_NE(message.find(fragment), std::string::npos) << message;
    }
  }

  std::filesystem::path dir_;
};

TEST_F(Gmsh, ReadsAGmshStyleFile) {
  const Mesh mesh = read_gmsh(write(cube_msh()));
  EXPECT_EQ(mesh.cell, CellType::hex8);
  ASSERT_EQ(mesh.num_nodes(), 8u);
  ASSERT_EQ(mesh.num_elements(), 1u);
  EXPECT_EQ(mesh.elements[0], (std::array<ordinal_t, 8>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(mesh.nodes[6], (std::array<double, 3>{1, 1, 1}));
  // The volume's group; the boundary quad's surface carries none, so there is no node set.
  EXPECT_EQ(mesh.cell_sets, (std::map<std::string, std::vector<ordinal_t>>{{"solid", {0}}}));
  EXPECT_TRUE(mesh.node_sets.empty());
}

TEST_F(Gmsh, MapsNonContiguousAndSparseTags) {
  for (const std::string prefix : {"10", "1000000000000"}) {  // a flat table, then the hash map
    std::string text = cube_with("2 8 1 8\n", "2 8 1 " + prefix + "8\n");
    std::string hex = "2", quad = "1";
    for (char d = '1'; d <= '8'; ++d) {
      const std::string tag = prefix + d;
      text.replace(text.find("\n" + std::string(1, d) + "\n", text.find("$Nodes")), 3, "\n" + tag + "\n");
      hex += " " + tag;
      if (d <= '4') quad += " " + tag;
    }
    text.replace(text.find("2 1 2 3 4 5 6 7 8"), 17, hex);
    text.replace(text.find("1 1 2 3 4\n"), 9, quad);
    const Mesh mesh = read_gmsh(write(text));
    EXPECT_EQ(mesh.elements[0], (std::array<ordinal_t, 8>{0, 1, 2, 3, 4, 5, 6, 7})) << prefix;
  }
}

TEST_F(Gmsh, DropsNodesNoHexUses) {
  std::string text = cube_with("2 8 1 8\n", "2 9 1 9\n");
  text = text.replace(text.find("3 1 0 4\n5\n6\n7\n8\n"), 16, "3 1 0 5\n5\n6\n7\n8\n9\n");
  text = text.replace(text.find("\n0 1 1\n"), 7, "\n0 1 1\n5 5 5\n");
  const Mesh mesh = read_gmsh(write(text));
  EXPECT_EQ(mesh.num_nodes(), 8u);
}

TEST_F(Gmsh, ReadsParametricNodesAndCrlf) {
  std::string text = cube_with("3 1 0 4\n", "3 1 1 4\n");
  for (const std::string xyz : {"\n0 0 1\n", "\n1 0 1\n", "\n1 1 1\n", "\n0 1 1\n"})
    text.replace(text.find(xyz), 7, xyz.substr(0, 6) + " 0.1 0.2 0.3\n");
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const Mesh mesh = read_gmsh(write(crlf));
  EXPECT_EQ(mesh.nodes[7], (std::array<double, 3>{0, 1, 1}));
}

TEST_F(Gmsh, RoundTripIsBitExact) {
  Mesh distorted = make_box(BoxSpec{12, 5, 3, 1.1, 0.3, 0.7});
  distort(distorted, 0.25, 123);
  for (double scale : {1.0, 1e-90, 1e90}) {  // the extremes of the exponent range survive as well
    Mesh mesh = distorted;
    for (auto& p : mesh.nodes)
      for (double& x : p) x *= scale;
    const std::string path = (dir_ / "box.msh").string();
    write_gmsh(mesh, path);
    const Mesh back = read_gmsh(path);
    EXPECT_EQ(back.nodes, mesh.nodes) << scale;
    EXPECT_EQ(back.elements, mesh.elements) << scale;
  }
}

TEST_F(Gmsh, WriteToAMissingDirectoryNamesThePath) {
  const std::string path = (dir_ / "no" / "such" / "dir.msh").string();
  try {
    write_gmsh(make_box(BoxSpec{}), path);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST_F(Gmsh, MissingFile) {
  const std::string path = (dir_ / "absent.msh").string();
  try {
    read_gmsh(path);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ": cannot open file", 0), 0u) << e.what();
  }
}

TEST_F(Gmsh, MissingMeshFormat) {
  expect_error(cube_msh().substr(cube_msh().find("$PhysicalNames")), 1, {"missing $MeshFormat"});
}

TEST_F(Gmsh, WrongFormatVersion) {
  expect_error(cube_with("4.1 0 8", "2.2 0 8"), 2, {"unsupported MSH version 2.2"});
  expect_error(cube_with("4.1 0 8", "4.1 1 8"), 2, {"binary"});
}

TEST_F(Gmsh, TruncatedInsideNodes) {
  const std::string text = cube_msh();
  std::size_t cut = 0;
  for (int line = 0; line < 30; ++line) cut = text.find('\n', cut) + 1;
  expect_error(text.substr(0, cut), 30, {"unexpected end of file in $Nodes"});
}

TEST_F(Gmsh, TruncatedBeforeEndElements) {
  const std::string text = cube_msh();
  expect_error(text.substr(0, text.find("$EndElements")), 39, {"unexpected end of file in $Elements"});
}

TEST_F(Gmsh, TruncatedInsideASkippedSection) {
  const std::string text = cube_msh();
  expect_error(text.substr(0, text.find("$EndEntities")), 11, {"unexpected end of file in $Entities"});
}

TEST_F(Gmsh, TruncatedAfterNodes) {
  const std::string text = cube_msh();
  expect_error(text.substr(0, text.find("$Elements")), 33, {"missing $Elements section"});
}

TEST_F(Gmsh, MissingEndNodes) {
  expect_error(cube_with("$EndNodes\n", ""), 33, {"expected $EndNodes, found '$Elements'"});
}

TEST_F(Gmsh, UnsupportedElementType) {
  // Known Gmsh types are named; second-order ones get the hint to save linear cells.
  expect_error(
      cube_with("3 1 5 1\n2 1 2 3 4 5 6 7 8", "3 1 7 1\n2 1 2 3 4 5"), 38,
      {"unsupported element type 7 (5-node pyramid), a block of 1 element(s): kfem reads cells of types 2",
       "4 and 11"});
  expect_error(cube_with("3 1 5 1\n", "3 1 12 1\n"), 38,
               {"unsupported element type 12 (27-node hexahedron)", "Mesh.ElementOrder = 1"});
  expect_error(cube_with("3 1 5 1\n", "3 1 17 1\n"), 38,
               {"unsupported element type 17 (20-node hexahedron)"});
  expect_error(cube_with("3 1 5 1\n", "3 1 18 1\n"), 38, {"unsupported element type 18 (15-node prism)"});
  expect_error(cube_with("3 1 5 1\n", "3 1 13 1\n"), 38, {"unsupported element type 13 (18-node prism)"});
  expect_error(cube_with("3 1 5 1\n", "3 1 29 1\n"), 38,
               {"unsupported element type 29 (20-node tetrahedron)", "or 2 for 10-node tetrahedra"});
  expect_error(cube_with("3 1 5 1\n", "3 1 99 1\n"), 38,
               {"unsupported element type 99, a block of 1 element(s): kfem reads"});
}

TEST_F(Gmsh, UndefinedNode) {
  expect_error(cube_with("2 1 2 3 4 5 6 7 8", "2 1 2 3 4 5 6 7 99"), 39,
               {"element 2 references undefined node 99"});
}

TEST_F(Gmsh, NodeTagOutsideDeclaredRange) {
  expect_error(cube_with("\n7\n", "\n17\n"), 27, {"node tag 17 outside"});
}

TEST_F(Gmsh, DuplicateNodeTag) {
  expect_error(cube_with("\n7\n", "\n6\n"), 27, {"duplicate node tag 6"});
}

TEST_F(Gmsh, NanCoordinate) {
  expect_error(cube_with("\n1 1 1\n", "\n1 nan 1\n"), 31, {"coordinate 'nan' is not a finite number"});
}

TEST_F(Gmsh, InfiniteCoordinate) {
  expect_error(cube_with("\n1 1 1\n", "\n1 1e999 1\n"), 31, {"'1e999' is not a finite"});
}

TEST_F(Gmsh, MalformedNumbers) {
  expect_error(cube_with("\n0 1 0\n", "\n0 1 0x\n"), 23, {"malformed coordinate '0x'"});
  expect_error(cube_with("\n3\n4\n", "\n3\nfour\n"), 19, {"malformed node tag 'four'"});
  expect_error(cube_with("2 8 1 8\n", "2 8.5 1 8\n"), 14, {"malformed count '8.5'"});
}

TEST_F(Gmsh, WrongNodeCountInALine) {
  expect_error(cube_with("2 1 2 3 4 5 6 7 8", "2 1 2 3 4 5 6 7"), 39,
               {"expected 9 values (element tag and 8 node tags), found 8"});
  expect_error(cube_with("\n1 0 1\n", "\n1 0\n"), 30, {"expected 3 values (x y z), found 2"});
}

TEST_F(Gmsh, DeclaredCountsMustMatch) {
  expect_error(cube_with("2 2 1 2\n", "2 3 1 3\n"), 39, {"declares 3 elements but its blocks hold 2"});
}

TEST_F(Gmsh, NoCells) {
  std::string text = cube_with("2 1 3 1\n1 1 2 3 4\n3 1 5 1\n2 1 2 3 4 5 6 7 8\n", "0 1 15 1\n1 1\n");
  text.replace(text.find("2 2 1 2\n"), 8, "1 1 1 1\n");
  expect_error(text, 38, {"no cells", "type 15 (point)", "Mesh.SaveAll"});
  text = cube_with("3 1 5 1\n2 1 2 3 4 5 6 7 8\n", "3 1 5 0\n");
  text.replace(text.find("2 2 1 2\n"), 8, "2 1 1 1\n");
  expect_error(text, 39, {"no cells", "blocks of type 5 (8-node hexahedron) are empty"});
}

TEST_F(Gmsh, QuadrangleCellsAreRejected) {
  std::string text = cube_with("3 1 5 1\n2 1 2 3 4 5 6 7 8\n", "");
  text.replace(text.find("2 2 1 2\n"), 8, "1 1 1 1\n");
  expect_error(text, 36, {"unsupported cell type 3 (4-node quadrangle)", "triangles"});
}

TEST_F(Gmsh, InvertedElement) {
  expect_error(cube_with("2 1 2 3 4 5 6 7 8", "2 5 6 7 8 1 2 3 4"), 39,
               {"element 2 (nodes 5 6 7 8 1 2 3 4): det J = -0.125 at corner 0 (inverted element)"});
}

TEST_F(Gmsh, DegenerateElementWithCoincidentNodes) {
  expect_error(cube_with("2 1 2 3 4 5 6 7 8", "2 1 2 3 4 5 6 3 8"), 39,
               {"element 2 (nodes 1 2 3 4 5 6 3 8): det J = ", "at corner 2 (degenerate element)"});
}

TEST_F(Gmsh, FlatElement) {
  std::string text = cube_msh();
  for (const std::string xyz : {"\n0 0 1\n", "\n1 0 1\n", "\n1 1 1\n", "\n0 1 1\n"})
    text.replace(text.find(xyz), 7, xyz.substr(0, 5) + "0\n");
  expect_error(text, 39, {"degenerate"});
}

std::string fmt_xyz(const std::array<double, 3>& x) {
  std::ostringstream s;
  s.precision(17);
  s << x[0] << " " << x[1] << " " << x[2];
  return s.str();
}

// ---- Families, physical groups, files made by Gmsh ----

// A mesh file without groups: nodes tagged 1..N on one entity, one block of `type` cells.
// Line of node v's coordinates: 7 + N + v; line of cell e: 11 + 2N + e.
std::string simple_msh(const std::vector<std::array<double, 3>>& nodes, int dim, int type,
                       const std::vector<std::vector<int>>& cells) {
  const std::size_t n = nodes.size(), m = cells.size();
  std::string s = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n";
  s += "1 " + std::to_string(n) + " 1 " + std::to_string(n) + "\n";
  s += std::to_string(dim) + " 1 0 " + std::to_string(n) + "\n";
  for (std::size_t v = 1; v <= n; ++v) s += std::to_string(v) + "\n";
  for (const auto& x : nodes) s += fmt_xyz(x) + "\n";
  s += "$EndNodes\n$Elements\n1 " + std::to_string(m) + " 1 " + std::to_string(m) + "\n";
  s += std::to_string(dim) + " 1 " + std::to_string(type) + " " + std::to_string(m) + "\n";
  for (std::size_t e = 0; e < m; ++e) {
    s += std::to_string(e + 1);
    for (int v : cells[e]) s += " " + std::to_string(v);
    s += "\n";
  }
  return s + "$EndElements\n";
}

const std::vector<std::array<double, 3>> kUnitPrism{{0, 0, 0}, {1, 0, 0}, {0, 1, 0},
                                                    {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};

// Two triangles on the unit square with a named boundary curve and surface (line numbers right).
std::string square_msh() {
  return "$MeshFormat\n"          // 1
         "4.1 0 8\n"              // 2
         "$EndMeshFormat\n"       // 3
         "$PhysicalNames\n"       // 4
         "2\n"                    // 5
         "1 1 \"left wall\"\n"    // 6
         "2 2 \"plate\"\n"        // 7
         "$EndPhysicalNames\n"    // 8
         "$Entities\n"            // 9
         "0 1 1 0\n"              // 10
         "4 0 0 0 0 1 0 1 1 0\n"  // 11
         "1 0 0 0 1 1 0 1 2 0\n"  // 12
         "$EndEntities\n"         // 13
         "$Nodes\n"               // 14
         "1 4 1 4\n"              // 15
         "2 1 0 4\n"              // 16
         "1\n2\n3\n4\n"           // 17-20
         "0 0 0\n"                // 21
         "1 0 0\n"                // 22
         "1 1 0\n"                // 23
         "0 1 0\n"                // 24
         "$EndNodes\n"            // 25
         "$Elements\n"            // 26
         "2 3 1 3\n"              // 27
         "1 4 1 1\n"              // 28
         "1 4 1\n"                // 29
         "2 1 2 2\n"              // 30
         "2 1 2 3\n"              // 31
         "3 1 3 4\n"              // 32
         "$EndElements\n";        // 33
}

std::string square_with(const std::string& from, const std::string& to) {
  std::string text = square_msh();
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

void expect_same(const Mesh& a, const Mesh& b) {
  EXPECT_EQ(a.cell, b.cell);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.elements, b.elements);
  EXPECT_EQ(a.node_sets, b.node_sets);
  EXPECT_EQ(a.cell_sets, b.cell_sets);
}

double total_measure(const Mesh& mesh) {
  double v = 0;
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) v += element_volume(mesh, e);
  return v;
}

TEST_F(Gmsh, ReadsTrianglesWithPhysicalGroups) {
  const Mesh mesh = read_gmsh(write(square_msh()));
  EXPECT_EQ(mesh.cell, CellType::tri3);
  EXPECT_EQ(mesh.dimension(), 2);
  ASSERT_EQ(mesh.num_elements(), 2u);
  EXPECT_EQ(mesh.elements[1], (std::array<ordinal_t, 8>{0, 2, 3, -1, -1, -1, -1, -1}));
  EXPECT_EQ(mesh.node_sets.at("left wall"), (std::vector<ordinal_t>{0, 3}));
  EXPECT_EQ(mesh.cell_sets.at("plate"), (std::vector<ordinal_t>{0, 1}));
  EXPECT_EQ(named_node_set(mesh, "left wall", "square.msh"), (std::vector<ordinal_t>{0, 3}));
}

TEST_F(Gmsh, ReadsAPrism) {
  const Mesh mesh = read_gmsh(write(simple_msh(kUnitPrism, 3, 6, {{1, 2, 3, 4, 5, 6}})));
  EXPECT_EQ(mesh.cell, CellType::prism6);
  EXPECT_EQ(mesh.elements[0], (std::array<ordinal_t, 8>{0, 1, 2, 3, 4, 5, -1, -1}));
  EXPECT_DOUBLE_EQ(element_volume(mesh, 0), 0.5);
}

// Second-order triangles are boundary elements only: as 2D cells they are refused like quadrangles.
TEST_F(Gmsh, SixNodeTriangleCellsAreRejected) {
  expect_error(simple_msh({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0.5, 0, 0}, {0.5, 0.5, 0}, {0, 0.5, 0}}, 2, 9,
                          {{1, 2, 3, 4, 5, 6}}),
               22,
               {"unsupported cell type 9 (6-node triangle): 2D meshes must be 3-node triangles (type 2)"});
}

TEST_F(Gmsh, UnnamedGroupsAreNamedByTheirTag) {
  std::string text = cube_with("1 0 0 0 1 1 1 1 1 1 1\n", "1 0 0 0 1 1 1 1 7 1 1\n");
  text.replace(text.find("1 0 0 0 1 1 0 0 0\n"), 18, "1 0 0 0 1 1 0 1 3 0\n");  // boundary quad in group 3
  const std::string names = "$PhysicalNames\n1\n3 1 \"solid\"\n$EndPhysicalNames\n";
  text.erase(text.find(names), names.size());
  const Mesh mesh = read_gmsh(write(text));
  EXPECT_EQ(mesh.cell_sets.at("7"), std::vector<ordinal_t>{0});
  EXPECT_EQ(mesh.node_sets.at("3"), (std::vector<ordinal_t>{0, 1, 2, 3}));
}

TEST_F(Gmsh, RoundTripsEveryFamilyWithGroups) {
  Mesh tri = make_tri_box(5, 3, 2.0, 1.0);
  Mesh prism = make_prism_box(BoxSpec{3, 2, 2, 3.0, 2.0, 1.0});
  Mesh hex = make_box(BoxSpec{3, 2, 2, 3.0, 2.0, 1.0});
  Mesh tet = make_tet_box(BoxSpec{3, 2, 2, 3.0, 2.0, 1.0});
  for (Mesh* mesh : {&tri, &prism, &hex, &tet}) {
    SCOPED_TRACE(cell_name(mesh->cell));
    distort(*mesh, 0.15, 3);
    std::vector<ordinal_t> odd, first;
    for (ordinal_t e = 0; e < ordinal_t(mesh->num_elements()); ++e) {
      if (e % 2) odd.push_back(e);
      if (e < 4) first.push_back(e);
    }
    mesh->cell_sets = {{"odd cells", odd}, {"first", first}, {"all", {}}};  // overlapping, interleaved
    mesh->cell_sets["all"].resize(mesh->num_elements());
    for (std::size_t e = 0; e < mesh->num_elements(); ++e) mesh->cell_sets["all"][e] = ordinal_t(e);
    mesh->node_sets["corner"] = {0};
    const std::string path = (dir_ / "family.msh").string();
    write_gmsh(*mesh, path);
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
    expect_same(read_gmsh(path), *mesh);
    // Scattered sets after renumbering and shuffling still come back exactly.
    const Mesh scrambled =
        shuffle_elements(renumber_nodes(*mesh, node_permutation(*mesh, Renumbering::random, 5)), 6);
    write_gmsh(scrambled, path);
    expect_same(read_gmsh(path), scrambled);
  }
}

TEST_F(Gmsh, EmptySetsAreNotWritten) {
  Mesh mesh = make_tri_box(2, 2, 1.0, 1.0);
  mesh.node_sets["nothing"] = {};
  const std::string path = (dir_ / "empty.msh").string();
  write_gmsh(mesh, path);
  mesh.node_sets.erase("nothing");
  expect_same(read_gmsh(path), mesh);
}

TEST_F(Gmsh, WriterRejectsBadSetsBeforeCreatingTheFile) {
  const std::string path = (dir_ / "bad.msh").string();
  Mesh mesh = make_tri_box(2, 2, 1.0, 1.0);
  mesh.node_sets["unsorted"] = {3, 1};
  EXPECT_THROW(write_gmsh(mesh, path), std::invalid_argument);
  mesh.node_sets["unsorted"] = {1, 99};
  EXPECT_THROW(write_gmsh(mesh, path), std::invalid_argument);
  mesh.node_sets.erase("unsorted");
  mesh.cell_sets["quote\"d"] = {0};
  EXPECT_THROW(write_gmsh(mesh, path), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST_F(Gmsh, ReadsTheSquareGmshMade) {
  const Mesh mesh = read_gmsh(std::string(KFEM_TEST_DATA_DIR) + "/square.msh");
  EXPECT_EQ(mesh.cell, CellType::tri3);
  EXPECT_GT(mesh.num_elements(), 20u);
  EXPECT_NO_THROW(check_elements(mesh, "square.msh"));
  EXPECT_NEAR(total_measure(mesh), 2.0, 1e-12);
  const std::map<std::string, std::pair<int, double>> planes{
      {"left", {0, 0.0}}, {"right", {0, 2.0}}, {"bottom", {1, 0.0}}, {"top", {1, 1.0}}};
  for (const auto& [name, plane] : planes) {
    SCOPED_TRACE(name);
    std::vector<ordinal_t> on_plane;
    for (std::size_t v = 0; v < mesh.num_nodes(); ++v)
      if (mesh.nodes[v][plane.first] == plane.second) on_plane.push_back(ordinal_t(v));
    EXPECT_EQ(named_node_set(mesh, name, "square.msh"), on_plane);
  }
  ASSERT_EQ(mesh.node_sets.at("origin").size(), 1u);
  EXPECT_EQ(mesh.nodes[mesh.node_sets.at("origin")[0]], (std::array<double, 3>{0, 0, 0}));
  EXPECT_EQ(mesh.cell_sets.at("plate").size(), mesh.num_elements());
  for (const auto& x : mesh.nodes) EXPECT_EQ(x[2], 0.0);

  const std::string path = (dir_ / "square.msh").string();
  write_gmsh(mesh, path);
  expect_same(read_gmsh(path), mesh);
}

TEST_F(Gmsh, ReadsThePrismLayerGmshMade) {
  const Mesh mesh = read_gmsh(std::string(KFEM_TEST_DATA_DIR) + "/prism_layer.msh");
  EXPECT_EQ(mesh.cell, CellType::prism6);
  EXPECT_NO_THROW(check_elements(mesh, "prism_layer.msh"));
  EXPECT_NEAR(total_measure(mesh), 2.0, 1e-12);
  const std::map<std::string, std::pair<int, double>> planes{
      {"bottom", {2, 0.0}}, {"top", {2, 1.0}}, {"xmin", {0, 0.0}}, {"xmax", {0, 2.0}}};
  for (const auto& [name, plane] : planes) {
    SCOPED_TRACE(name);
    std::vector<ordinal_t> on_plane;
    for (std::size_t v = 0; v < mesh.num_nodes(); ++v)
      if (mesh.nodes[v][plane.first] == plane.second) on_plane.push_back(ordinal_t(v));
    EXPECT_EQ(mesh.node_sets.at(name), on_plane);
  }
  EXPECT_EQ(mesh.cell_sets.at("solid").size(), mesh.num_elements());
  // 2 layers of prisms: a third of the nodes in each of the planes z = 0, 0.5, 1.
  EXPECT_EQ(mesh.num_nodes() % 3, 0u);
  EXPECT_EQ(mesh.node_sets.at("bottom").size(), mesh.num_nodes() / 3);

  const std::string path = (dir_ / "prism_layer.msh").string();
  write_gmsh(mesh, path);
  expect_same(read_gmsh(path), mesh);
}

TEST_F(Gmsh, MixedCellTypes) {
  std::string text = cube_with("2 2 1 2\n", "3 3 1 3\n");
  text.replace(text.find("$EndElements"), 0, "3 1 6 1\n3 1 2 3 5 6 7\n");
  expect_error(text, 40, {"mixed cell types", "type 6 (6-node prism)", "type 5 (8-node hexahedron)"});
}

TEST_F(Gmsh, EmptyPhysicalGroup) {
  std::string text = cube_with("1\n3 1 \"solid\"\n", "2\n3 1 \"solid\"\n2 4 \"ghost\"\n");
  expect_error(text, 7, {"physical group 'ghost' (dimension 2, tag 4)", "empty group"});
}

TEST_F(Gmsh, BoundaryNodeThatNoCellUses) {
  // Node 5 joins the mesh, in the group of the left wall, but no triangle uses it.
  std::string text = square_with("1 4 1 4\n2 1 0 4\n1\n2\n3\n4\n", "1 5 1 5\n2 1 0 5\n1\n2\n3\n4\n5\n");
  text.replace(text.find("0 1 0\n$EndNodes"), 6, "0 1 0\n0 2 0\n");
  text.replace(text.find("2 3 1 3\n1 4 1 1\n1 4 1\n"), 21, "2 3 1 3\n1 4 1 1\n1 4 5\n");
  expect_error(text, 31,
               {"element 1 of physical group 'left wall' uses node 5, which is not a node of any cell"});
}

TEST_F(Gmsh, TwoDimensionalNodeOffThePlane) {
  expect_error(square_with("\n1 1 0\n", "\n1 1 0.25\n"), 23, {"node 3 has z = 0.25", "plane z = 0"});
}

TEST_F(Gmsh, InvertedTriangle) {
  expect_error(square_with("2 1 2 3\n", "2 1 3 2\n"), 31,
               {"element 2 (nodes 1 3 2): signed area = -0.5 (inverted element: clockwise in the xy plane)"});
}

TEST_F(Gmsh, DegenerateTriangle) {
  expect_error(simple_msh({{0, 0, 0}, {1, 1, 0}, {2, 2, 0}}, 2, 2, {{1, 2, 3}}), 17,
               {"element 1 (nodes 1 2 3): signed area = 0 (degenerate element)"});
}

TEST_F(Gmsh, InvertedPrism) {
  expect_error(simple_msh(kUnitPrism, 3, 6, {{1, 3, 2, 4, 6, 5}}), 23,
               {"element 1 (nodes 1 3 2 4 6 5): det J = -1 at corner 0 (inverted element)"});
}

TEST_F(Gmsh, FlatPrism) {
  auto nodes = kUnitPrism;
  for (int v = 3; v < 6; ++v) nodes[v][2] = 0;
  expect_error(simple_msh(nodes, 3, 6, {{1, 2, 3, 4, 5, 6}}), 23, {"element 1", "(degenerate element)"});
}

TEST_F(Gmsh, UndeclaredEntity) {
  expect_error(square_with("2 1 2 2\n", "2 9 2 2\n"), 30,
               {"entity 9 of dimension 2", "$Entities does not declare"});
}

TEST_F(Gmsh, ElementTypeOnAnEntityOfAnotherDimension) {
  expect_error(cube_with("3 1 5 1\n", "2 1 5 1\n"), 38, {"type 5 (8-node hexahedron) is 3D", "dimension 2"});
}

TEST_F(Gmsh, MalformedPhysicalNames) {
  expect_error(square_with("2 2 \"plate\"\n", "2 2 plate\n"), 7, {"double quotes"});
  expect_error(square_with("2 2 \"plate\"\n", "1 1 \"plate\"\n"), 7,
               {"second name for physical group 1 of dimension 1"});
  expect_error(square_with("2 2 \"plate\"\n", "2 \"plate\"\n"), 7, {"expected dimension, tag and \"name\""});
}

TEST_F(Gmsh, MalformedEntities) {
  expect_error(square_with("4 0 0 0 0 1 0 1 1 0\n", "4 0 0 0 0 1 0 2 1 0\n"), 11, {"bounding entity count"});
  expect_error(square_with("4 0 0 0 0 1 0 1 1 0\n", "4 0 0 0 0 1 0 1 1 0 7\n"), 11, {"expected 10 values"});
  expect_error(square_with("1 0 0 0 1 1 0 1 2 0\n", "1 0 0 0 1 1 0 5 2 0\n"), 12,
               {"physical tag count 5 out of range"});
  expect_error(
      square_with("0 1 1 0\n4 0 0 0 0 1 0 1 1 0\n", "0 2 1 0\n4 0 0 0 0 1 0 1 1 0\n4 0 0 0 0 1 0 0 0\n"), 12,
      {"duplicate entity 4 of dimension 1"});
}

TEST_F(Gmsh, NamedNodeSetErrors) {
  const Mesh mesh = read_gmsh(write(square_msh()));
  try {
    named_node_set(mesh, "right", "deck.yaml");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "deck.yaml: no physical group named 'right' in the mesh (known: left wall)");
  }
  try {
    named_node_set(mesh, "plate", "deck.yaml");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'plate' is a group of tri3 cells"), std::string::npos) << e.what();
  }
  Mesh emptied = mesh;
  emptied.node_sets["left wall"].clear();
  try {
    named_node_set(emptied, "left wall", "deck.yaml");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "deck.yaml: physical group 'left wall' is empty");
  }
}

// ---- Tetrahedra: 4-node, and 10-node read as their corners ----

// One tetrahedron as Gmsh 4.8 saves it at Mesh.ElementOrder = 2 (a tetrahedral volume on the
// points (0,0,0), (2,0,0), (0,1,0), (0,0,1), meshed coarsely; the volume and its face z = 0 in the
// physical groups "solid" and "base"): the mid-edge nodes are off the midpoints by Gmsh's rounding
// (~1e-12), and the boundary is a 6-node triangle. Line numbers on the right.
std::string tet10_msh() {
  return "$MeshFormat\n"                              // 1
         "4.1 0 8\n"                                  // 2
         "$EndMeshFormat\n"                           // 3
         "$PhysicalNames\n"                           // 4
         "2\n"                                        // 5
         "2 2 \"base\"\n"                             // 6
         "3 1 \"solid\"\n"                            // 7
         "$EndPhysicalNames\n"                        // 8
         "$Entities\n"                                // 9
         "4 6 4 1\n"                                  // 10
         "1 0 0 0 0 \n"                               // 11
         "2 2 0 0 0 \n"                               // 12
         "3 0 1 0 0 \n"                               // 13
         "4 0 0 1 0 \n"                               // 14
         "1 0 0 0 2 0 0 0 2 1 -2 \n"                  // 15
         "2 0 0 0 2 1 0 0 2 2 -3 \n"                  // 16
         "3 0 0 0 0 1 0 0 2 3 -1 \n"                  // 17
         "4 0 0 0 0 0 1 0 2 1 -4 \n"                  // 18
         "5 0 0 0 2 0 1 0 2 2 -4 \n"                  // 19
         "6 0 0 0 0 1 1 0 2 3 -4 \n"                  // 20
         "1 0 0 0 2 1 0 1 2 3 1 2 3 \n"               // 21
         "2 0 0 0 2 0 1 0 3 1 5 -4 \n"                // 22
         "3 0 0 0 0 1 1 0 3 -3 6 -4 \n"               // 23
         "4 0 0 0 2 1 1 0 3 2 6 -5 \n"                // 24
         "1 0 0 0 2 1 1 1 1 4 1 2 3 4 \n"             // 25
         "$EndEntities\n"                             // 26
         "$Nodes\n"                                   // 27
         "12 10 1 10\n"                               // 28
         "0 1 0 1\n"                                  // 29
         "1\n"                                        // 30
         "0 0 0\n"                                    // 31
         "0 2 0 1\n"                                  // 32
         "2\n"                                        // 33
         "2 0 0\n"                                    // 34
         "0 3 0 1\n"                                  // 35
         "3\n"                                        // 36
         "0 1 0\n"                                    // 37
         "0 4 0 1\n"                                  // 38
         "4\n"                                        // 39
         "0 0 1\n"                                    // 40
         "1 1 0 1\n"                                  // 41
         "5\n"                                        // 42
         "0.9999999999973436 0 0\n"                   // 43
         "1 2 0 1\n"                                  // 44
         "6\n"                                        // 45
         "1.00000000000266 0.4999999999986701 0\n"    // 46
         "1 3 0 1\n"                                  // 47
         "7\n"                                        // 48
         "0 0.5000000000013305 0\n"                   // 49
         "1 4 0 1\n"                                  // 50
         "8\n"                                        // 51
         "0 0 0.4999999999986718\n"                   // 52
         "1 5 0 1\n"                                  // 53
         "9\n"                                        // 54
         "1.00000000000266 0 0.4999999999986701\n"    // 55
         "1 6 0 1\n"                                  // 56
         "10\n"                                       // 57
         "0 0.5000000000013294 0.4999999999986707\n"  // 58
         "2 1 0 0\n"                                  // 59
         "3 1 0 0\n"                                  // 60
         "$EndNodes\n"                                // 61
         "$Elements\n"                                // 62
         "2 2 1 2\n"                                  // 63
         "2 1 9 1\n"                                  // 64
         "1 1 2 3 5 6 7 \n"                           // 65
         "3 1 11 1\n"                                 // 66
         "2 1 3 4 2 7 10 8 5 9 6 \n"                  // 67
         "$EndElements\n";                            // 68
}

std::string tet10_with(const std::string& from, const std::string& to) {
  std::string text = tet10_msh();
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// The same tetrahedron saved at Mesh.ElementOrder = 1: the same header, then these nodes and elements.
std::string tet4_msh() {
  const std::string text = tet10_msh();
  return text.substr(0, text.find("$Nodes")) +
         "$Nodes\n6 4 1 4\n"
         "0 1 0 1\n1\n0 0 0\n0 2 0 1\n2\n2 0 0\n0 3 0 1\n3\n0 1 0\n0 4 0 1\n4\n0 0 1\n"
         "2 1 0 0\n3 1 0 0\n$EndNodes\n"
         "$Elements\n2 2 1 2\n2 1 2 1\n1 1 2 3 \n3 1 4 1\n2 1 3 4 2 \n$EndElements\n";
}

const std::vector<std::array<double, 3>> kUnitTet{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

TEST_F(Gmsh, ReadsTheTetrahedronGmshMade) {
  const GmshMesh read = read_gmsh_with_order(write(tet4_msh()));
  const Mesh& mesh = read.mesh;
  EXPECT_EQ(read.order, 1);
  EXPECT_EQ(mesh.cell, CellType::tet4);
  EXPECT_EQ(mesh.nodes, (std::vector<std::array<double, 3>>{{0, 0, 0}, {2, 0, 0}, {0, 1, 0}, {0, 0, 1}}));
  ASSERT_EQ(mesh.num_elements(), 1u);
  EXPECT_EQ(mesh.elements[0], (std::array<ordinal_t, 8>{0, 2, 3, 1, -1, -1, -1, -1}));
  EXPECT_EQ(mesh.node_sets, (std::map<std::string, std::vector<ordinal_t>>{{"base", {0, 1, 2}}}));
  EXPECT_EQ(mesh.cell_sets, (std::map<std::string, std::vector<ordinal_t>>{{"solid", {0}}}));
  // Gmsh's orientation is kfem's: det J = (v1-v0).((v2-v0)x(v3-v0)) > 0.
  EXPECT_NO_THROW(check_elements(mesh, "tet4.msh"));
  EXPECT_DOUBLE_EQ(element_volume(mesh, 0), 1.0 / 3);
}

TEST_F(Gmsh, ReadsTheTet10GmshMadeAsItsCorners) {
  const GmshMesh read = read_gmsh_with_order(write(tet10_msh()));
  EXPECT_EQ(read.order, 2);
  // The mid-edge nodes are not mesh nodes: the mesh is the linear file's, node sets included (the
  // 6-node triangle's mid nodes, which no cell has as a corner, are not "unused boundary nodes").
  expect_same(read.mesh, read_gmsh(write(tet4_msh())));
  expect_same(read_gmsh(write(tet10_msh())), read.mesh);
  EXPECT_EQ(read.mesh.num_nodes(), 4u);
}

TEST_F(Gmsh, CurvedTet10IsRefused) {
  // Node 9 is the mid-edge node of edge 3-2, the file's nodes 2 (2,0,0) and 4 (0,0,1).
  expect_error(
      tet10_with("1.00000000000266 0 0.4999999999986701\n", "1 0.01 0.5\n"), 67,
      {"element 2: mid-edge node 9 lies 0.01 from the midpoint of its edge 2-4",
       "curved tet10 cells are not supported: kfem's P2 is straight-sided", "Mesh.SecondOrderLinear"});
  // Within 1e-6 of the edge's length (sqrt 5) it is straight.
  const Mesh mesh = read_gmsh(write(tet10_with("1.00000000000266 0 0.4999999999986701\n", "1 2e-6 0.5\n")));
  EXPECT_EQ(mesh.num_elements(), 1u);
  // A mid-edge node on the edge but not at its middle is refused as well (P2 would be distorted).
  expect_error(tet10_with("0.9999999999973436 0 0\n", "1.2 0 0\n"), 67,
               {"element 2: mid-edge node 5 lies 0.2 from the midpoint of its edge 2-1"});
}

TEST_F(Gmsh, Tet10NodesMustBeDefined) {
  expect_error(tet10_with("2 1 3 4 2 7 10 8 5 9 6 \n", "2 1 3 4 2 7 10 8 5 9 11\n"), 67,
               {"element 2 references undefined node 11"});
  expect_error(tet10_with("2 1 3 4 2 7 10 8 5 9 6 \n", "2 1 3 4 2 7 10 8 5 9\n"), 67,
               {"expected 11 values (element tag and 10 node tags), found 10"});
}

TEST_F(Gmsh, MixedTet4AndTet10) {
  std::string text = tet10_with("2 2 1 2\n", "3 3 1 3\n");
  text.replace(text.find("$EndElements"), 0, "3 1 4 1\n3 1 3 4 2\n");
  expect_error(text, 68,
               {"mixed cell types", "type 4 (4-node tetrahedron)", "cells of type 11 (10-node tetrahedron)"});
}

// Second-order lines and quadrangles are boundary elements too: only their corners join node sets.
TEST_F(Gmsh, SecondOrderBoundaryElementsGiveTheirCorners) {
  // A 3-node line on curve 1 (nodes 1, 2; mid node 5) in the unnamed group 3.
  std::string text = tet10_with("2 2 1 2\n", "3 3 1 3\n");
  text.replace(text.find("1 0 0 0 2 0 0 0 2 1 -2 \n"), 24, "1 0 0 0 2 0 0 1 3 2 1 -2\n");
  text.replace(text.find("2 1 9 1\n"), 0, "1 1 8 1\n3 1 2 5\n");
  GmshMesh read = read_gmsh_with_order(write(text));
  EXPECT_EQ(read.order, 2);
  EXPECT_EQ(read.mesh.node_sets.at("3"), (std::vector<ordinal_t>{0, 1}));
  EXPECT_EQ(read.mesh.node_sets.at("base"), (std::vector<ordinal_t>{0, 1, 2}));
  // 8- and 9-node quadrangles on the cube's boundary surface (group 3): the first four nodes.
  for (const std::string quad : {"2 1 16 1\n1 1 2 3 4 5 6 7 8\n", "2 1 10 1\n1 1 2 3 4 5 6 7 8 5\n"}) {
    std::string cube = cube_with("2 1 3 1\n1 1 2 3 4\n", quad);
    cube.replace(cube.find("1 0 0 0 1 1 0 0 0\n"), 18, "1 0 0 0 1 1 0 1 3 0\n");
    const Mesh mesh = read_gmsh(write(cube));
    EXPECT_EQ(mesh.node_sets.at("3"), (std::vector<ordinal_t>{0, 1, 2, 3})) << quad;
  }
  // A second-order boundary element whose corner no cell uses is still an error.
  text.replace(text.find("3 1 2 5\n"), 8, "3 1 5 2\n");
  expect_error(text, 65, {"element 3 of physical group '3' uses node 5, which is not a node of any cell"});
}

TEST_F(Gmsh, InvertedTetrahedron) {
  expect_error(simple_msh(kUnitTet, 3, 4, {{1, 3, 2, 4}}), 19,
               {"element 1 (nodes 1 3 2 4): det J = -1 (inverted element: vertices 0 1 2 turn clockwise seen "
                "from vertex 3)"});
  expect_error(tet10_with("2 1 3 4 2 7 10 8 5 9 6 \n", "2 1 4 3 2 8 10 7 5 6 9\n"), 67,
               {"element 2 (nodes 1 4 3 2): det J = -2 (inverted element"});
}

TEST_F(Gmsh, FlatTetrahedron) {
  expect_error(simple_msh({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}, 3, 4, {{1, 2, 3, 4}}), 19,
               {"element 1 (nodes 1 2 3 4): det J = 0 (degenerate element)"});
  expect_error(simple_msh(kUnitTet, 3, 4, {{1, 2, 3, 1}}), 19, {"element 1 (nodes 1 2 3 1)", "degenerate"});
}

TEST_F(Gmsh, DuplicateTetrahedron) {
  expect_error(simple_msh(kUnitTet, 3, 4, {{1, 2, 3, 4}, {2, 3, 1, 4}}), 20,
               {"elements 1 and 2 have the same nodes (1 2 3 4 and 2 3 1 4)"});
}

TEST_F(Gmsh, RoundTripsATetBoxBitExact) {
  Mesh mesh = make_tet_box(BoxSpec{4, 3, 2, 1.1, 0.3, 0.7});
  distort(mesh, 0.15, 9);
  const std::string path = (dir_ / "tets.msh").string();
  write_gmsh(mesh, path);
  const GmshMesh back = read_gmsh_with_order(path);
  EXPECT_EQ(back.order, 1);
  expect_same(back.mesh, mesh);
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\n3 1 4 144\n"), std::string::npos);  // one block of 6*4*3*2 type-4 cells
}

// ---- Cells listed twice, counts beyond the ids or the file ----

TEST_F(Gmsh, DuplicateHexahedronInAnotherVertexOrder) {
  std::string text = cube_with("2 2 1 2\n", "2 3 1 3\n");
  text.replace(text.find("3 1 5 1\n"), 8, "3 1 5 2\n");
  text.replace(text.find("$EndElements"), 0, "3 2 3 4 1 6 7 8 5\n");
  expect_error(text, 40, {"elements 2 and 3 have the same nodes (1 2 3 4 5 6 7 8 and 2 3 4 1 6 7 8 5)"});
}

TEST_F(Gmsh, DuplicateTriangleAndPrism) {
  std::string text = square_with("2 3 1 3\n", "2 4 1 4\n");
  text.replace(text.find("2 1 2 2\n"), 8, "2 1 2 3\n");
  text.replace(text.find("$EndElements"), 0, "7 3 1 2\n");
  expect_error(text, 33, {"elements 2 and 7 have the same nodes (1 2 3 and 3 1 2)"});
  expect_error(simple_msh(kUnitPrism, 3, 6, {{1, 2, 3, 4, 5, 6}, {2, 3, 1, 5, 6, 4}}), 24,
               {"elements 1 and 2 have the same nodes (1 2 3 4 5 6 and 2 3 1 5 6 4)"});
}

// A block may not hold more than its section header has left: the reader reserves a cell block's
// rows up front, and 2e9 of them would be 64 GB.
TEST_F(Gmsh, BlockLargerThanTheHeaderDeclares) {
  expect_error(
      cube_with("3 1 5 1\n", "3 1 5 2000000000\n"), 38,
      {"block of 2000000000 elements, but $Elements declares 2 elements and the blocks before hold 1"});
  expect_error(cube_with("2 1 0 4\n", "2 1 0 9\n"), 15,
               {"block of 9 nodes, but $Nodes declares 8 nodes and the blocks before hold 0"});
  expect_error(cube_with("3 1 0 4\n", "3 1 0 5\n"), 24, {"declares 8 nodes and the blocks before hold 4"});
}

TEST_F(Gmsh, CountsBeyondTheIdsOrTheFile) {
  expect_error(
      cube_with("2 8 1 8\n", "2 3000000000 1 8\n"), 14,
      {"$Nodes declares 3000000000 nodes, more than kfem's 32-bit ids (ordinal_t) address (2147483647)"});
  expect_error(cube_with("2 2 1 2\n", "2 1000000000000 1 2\n"), 35,
               {"$Elements declares 1000000000000 elements, more than kfem's 32-bit ids"});
  expect_error(cube_with("2 8 1 8\n", "2 1000000000 1 1000000000\n"), 14,
               {"$Nodes declares 1000000000 nodes, more than the rest of the file can hold"});
}
}  // namespace
}  // namespace kfem
