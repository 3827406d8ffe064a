// Gmsh MSH 4.1 reader and writer: round trips, real-file features, and one test per kind of bad
// input, each checking that the InputError names the file and the line or element.
#include "kfem/mesh/gmsh.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>

#include "kfem/core/error.hpp"
#include "kfem/mesh/box.hpp"

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
  const HexMesh mesh = read_gmsh(write(cube_msh()));
  ASSERT_EQ(mesh.num_nodes(), 8u);
  ASSERT_EQ(mesh.num_elements(), 1u);
  EXPECT_EQ(mesh.elements[0], (std::array<ordinal_t, 8>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(mesh.nodes[6], (std::array<double, 3>{1, 1, 1}));
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
    const HexMesh mesh = read_gmsh(write(text));
    EXPECT_EQ(mesh.elements[0], (std::array<ordinal_t, 8>{0, 1, 2, 3, 4, 5, 6, 7})) << prefix;
  }
}

TEST_F(Gmsh, DropsNodesNoHexUses) {
  std::string text = cube_with("2 8 1 8\n", "2 9 1 9\n");
  text = text.replace(text.find("3 1 0 4\n5\n6\n7\n8\n"), 16, "3 1 0 5\n5\n6\n7\n8\n9\n");
  text = text.replace(text.find("\n0 1 1\n"), 7, "\n0 1 1\n5 5 5\n");
  const HexMesh mesh = read_gmsh(write(text));
  EXPECT_EQ(mesh.num_nodes(), 8u);
}

TEST_F(Gmsh, ReadsParametricNodesAndCrlf) {
  std::string text = cube_with("3 1 0 4\n", "3 1 1 4\n");
  for (const std::string xyz : {"\n0 0 1\n", "\n1 0 1\n", "\n1 1 1\n", "\n0 1 1\n"})
    text.replace(text.find(xyz), 7, xyz.substr(0, 6) + " 0.1 0.2 0.3\n");
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const HexMesh mesh = read_gmsh(write(crlf));
  EXPECT_EQ(mesh.nodes[7], (std::array<double, 3>{0, 1, 1}));
}

TEST_F(Gmsh, RoundTripIsBitExact) {
  HexMesh distorted = make_box(BoxSpec{12, 5, 3, 1.1, 0.3, 0.7});
  distort(distorted, 0.25, 123);
  for (double scale : {1.0, 1e-90, 1e90}) {  // the extremes of the exponent range survive as well
    HexMesh mesh = distorted;
    for (auto& p : mesh.nodes)
      for (double& x : p) x *= scale;
    const std::string path = (dir_ / "box.msh").string();
    write_gmsh(mesh, path);
    const HexMesh back = read_gmsh(path);
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
  expect_error(cube_with("3 1 5 1\n2 1 2 3 4 5 6 7 8", "3 1 4 1\n2 1 2 3 4"), 38,
               {"unsupported element type 4"});
  expect_error(cube_with("3 1 5 1\n", "3 1 12 1\n"), 38, {"unsupported element type 12"});
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

TEST_F(Gmsh, NoHexahedra) {
  std::string text = cube_with("3 1 5 1\n2 1 2 3 4 5 6 7 8\n", "");
  text.replace(text.find("2 2 1 2\n"), 8, "1 1 1 1\n");
  expect_error(text, 38, {"no hexahedra"});
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
}  // namespace
}  // namespace kfem
