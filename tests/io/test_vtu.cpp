// VTU export: well-formed XML (checked by a small tag-matching parser), right counts, arrays and
// VTK cell types and node orders for every family, and the generic writer with Lagrange wedges.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "kfem/core/error.hpp"
#include "kfem/io/vtu.hpp"
#include "kfem/mesh/box.hpp"

namespace fs = std::filesystem;

namespace {
struct Element {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::string text;  // character data directly inside
};

// Just enough XML to validate our own output: prolog, nested elements with quoted attributes,
// text. Fails the test on mismatched/unclosed tags, duplicate or unquoted attributes, stray
// '<' or '&', or content after the root. Returns elements in document order.
std::vector<Element> parse_xml(const std::string& s) {
  std::vector<Element> out;
  std::vector<std::size_t> open;  // indices into out
  std::size_t i = 0;
  bool root_closed = false;
  auto fail = [&](const std::string& why) {
    ADD_FAILURE() << "malformed XML at offset " << i << ": " << why;
    return std::vector<Element>{};
  };
  if (s.rfind("<?xml", 0) == 0) i = s.find("?>") + 2;
  while (i < s.size()) {
    if (s[i] != '<') {
      const std::size_t j = s.find('<', i);
      const std::string text = s.substr(i, j - i);
      if (text.find('&') != std::string::npos || text.find('>') != std::string::npos)
        return fail("bad text char");
      if (open.empty()) {
        if (text.find_first_not_of(" \t\r\n") != std::string::npos) return fail("text outside root");
      } else {
        out[open.back()].text += text;
      }
      if (j == std::string::npos) break;
      i = j;
      continue;
    }
    const std::size_t close = s.find('>', i);
    if (close == std::string::npos) return fail("unterminated tag");
    std::string tag = s.substr(i + 1, close - i - 1);
    if (tag.find('<') != std::string::npos) return fail("'<' inside a tag");
    if (!tag.empty() && tag[0] == '/') {
      if (open.empty() || out[open.back()].name != tag.substr(1))
        return fail("mismatched </" + tag.substr(1) + ">");
      open.pop_back();
      root_closed = open.empty();
    } else {
      if (root_closed) return fail("second root element");
      const bool self_closing = !tag.empty() && tag.back() == '/';
      if (self_closing) tag.pop_back();
      std::istringstream ts(tag);
      Element e;
      ts >> e.name;
      if (e.name.empty()) return fail("empty tag name");
      std::string rest;
      std::getline(ts, rest, '\0');
      std::size_t p = 0;
      while ((p = rest.find_first_not_of(" \t\r\n", p)) != std::string::npos) {
        const std::size_t eq = rest.find('=', p);
        if (eq == std::string::npos || eq + 1 >= rest.size() || rest[eq + 1] != '"')
          return fail("unquoted attribute");
        const std::size_t end = rest.find('"', eq + 2);
        if (end == std::string::npos) return fail("unterminated attribute");
        if (!e.attrs.emplace(rest.substr(p, eq - p), rest.substr(eq + 2, end - eq - 2)).second)
          return fail("duplicate attribute");
        p = end + 1;
      }
      out.push_back(e);
      if (!self_closing) open.push_back(out.size() - 1);
    }
    i = close + 1;
  }
  if (!open.empty()) return fail("unclosed <" + out[open.back()].name + ">");
  if (!root_closed) return fail("no root element");
  return out;
}

template <class T>
std::vector<T> numbers(const std::string& text) {
  std::istringstream in(text);
  std::vector<T> v;
  for (T x; in >> x;) v.push_back(x);
  return v;
}

const Element* find_array(const std::vector<Element>& doc, const std::string& name) {
  for (const auto& e : doc)
    if (e.name == "DataArray" && e.attrs.count("Name") && e.attrs.at("Name") == name) return &e;
  return nullptr;
}

// A 2 x 1 x 1 box of unit hexes, Gmsh/VTK node order.
kfem::Mesh two_hexes() {
  kfem::Mesh m;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 3; ++x) m.nodes.push_back({0.5 * x, 1.0 * y, 1.0 * z});
  auto id = [](int x, int y, int z) { return x + 3 * y + 6 * z; };
  for (int x = 0; x < 2; ++x)
    m.elements.push_back({id(x, 0, 0), id(x + 1, 0, 0), id(x + 1, 1, 0), id(x, 1, 0), id(x, 0, 1),
                          id(x + 1, 0, 1), id(x + 1, 1, 1), id(x, 1, 1)});
  return m;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class Vtu : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kfem_vtu_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};
}  // namespace

TEST_F(Vtu, WellFormedWithCountsAndDisplacement) {
  const auto mesh = two_hexes();
  std::vector<double> u(3 * mesh.num_nodes());
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = 1e-3 * static_cast<double>(i) - 0.01;
  const auto path = dir_ / "m.vtu";
  kfem::write_vtu(path.string(), mesh, u);
  EXPECT_FALSE(fs::exists(dir_ / "m.vtu.tmp"));

  const auto doc = parse_xml(slurp(path));
  ASSERT_FALSE(doc.empty());
  EXPECT_EQ(doc[0].name, "VTKFile");
  EXPECT_EQ(doc[0].attrs.at("type"), "UnstructuredGrid");
  const Element* piece = nullptr;
  for (const auto& e : doc)
    if (e.name == "Piece") piece = &e;
  ASSERT_NE(piece, nullptr);
  EXPECT_EQ(piece->attrs.at("NumberOfPoints"), "12");
  EXPECT_EQ(piece->attrs.at("NumberOfCells"), "2");

  const auto* disp = find_array(doc, "displacement");
  ASSERT_NE(disp, nullptr);
  EXPECT_EQ(disp->attrs.at("NumberOfComponents"), "3");
  EXPECT_EQ(numbers<double>(disp->text), u);  // shortest round-trip formatting reads back exactly

  const auto* conn = find_array(doc, "connectivity");
  ASSERT_NE(conn, nullptr);
  std::vector<long> expected_conn;
  for (const auto& el : mesh.elements) expected_conn.insert(expected_conn.end(), el.begin(), el.end());
  EXPECT_EQ(numbers<long>(conn->text), expected_conn);
  EXPECT_EQ(numbers<long>(find_array(doc, "offsets")->text), (std::vector<long>{8, 16}));
  EXPECT_EQ(numbers<int>(find_array(doc, "types")->text), (std::vector<int>{12, 12}));

  // Points: the one DataArray without a Name, 3 * 12 coordinates.
  for (const auto& e : doc) {
    if (e.name == "DataArray" && !e.attrs.count("Name")) {
      EXPECT_EQ(numbers<double>(e.text).size(), 36u);
    }
  }
}

TEST_F(Vtu, EmptyDisplacementOmitsPointData) {
  const auto path = dir_ / "bare.vtu";
  kfem::write_vtu(path.string(), two_hexes(), {});
  const std::string text = slurp(path);
  EXPECT_EQ(text.find("PointData"), std::string::npos);
  EXPECT_FALSE(parse_xml(text).empty());
}

TEST_F(Vtu, BadArgumentsAndUnwritablePath) {
  const auto mesh = two_hexes();
  EXPECT_THROW(kfem::write_vtu((dir_ / "a.vtu").string(), mesh, std::vector<double>(5)),
               std::invalid_argument);
  auto broken = mesh;
  broken.elements[1][7] = 99;
  EXPECT_THROW(kfem::write_vtu((dir_ / "b.vtu").string(), broken, {}), std::invalid_argument);

  const auto missing = dir_ / "no" / "dir" / "m.vtu";
  EXPECT_THROW(kfem::write_vtu(missing.string(), mesh, {}), kfem::InputError);
  EXPECT_FALSE(fs::exists(missing));
  fs::create_directory(dir_ / "occupied.vtu");
  EXPECT_THROW(kfem::write_vtu((dir_ / "occupied.vtu").string(), mesh, {}), kfem::InputError);
  EXPECT_FALSE(fs::exists(dir_ / "occupied.vtu.tmp"));
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& f : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 1u);  // only the directory we created
}

namespace {
const Element* find_element(const std::vector<Element>& doc, const std::string& name) {
  for (const auto& e : doc)
    if (e.name == name) return &e;
  return nullptr;
}
}  // namespace

TEST_F(Vtu, TrianglesAndPrismsUseVtkTypesAndOrder) {
  const auto tri = kfem::make_tri_box(2, 1, 2.0, 1.0);
  kfem::write_vtu((dir_ / "tri.vtu").string(), tri, {});
  auto doc = parse_xml(slurp(dir_ / "tri.vtu"));
  ASSERT_FALSE(doc.empty());
  EXPECT_EQ(numbers<int>(find_array(doc, "types")->text), (std::vector<int>(4, 5)));
  EXPECT_EQ(numbers<long>(find_array(doc, "offsets")->text), (std::vector<long>{3, 6, 9, 12}));
  EXPECT_EQ(numbers<long>(find_array(doc, "connectivity")->text),
            (std::vector<long>{0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4}));

  // VTK_WEDGE's base triangle turns the other way: Gmsh (0 1 2 3 4 5) is written (0 2 1 3 5 4).
  const auto prism = kfem::make_prism_box(kfem::BoxSpec{1, 1, 1, 1.0, 1.0, 1.0});
  kfem::write_vtu((dir_ / "prism.vtu").string(), prism, std::vector<double>(3 * prism.num_nodes(), 0.5));
  doc = parse_xml(slurp(dir_ / "prism.vtu"));
  ASSERT_FALSE(doc.empty());
  EXPECT_EQ(numbers<int>(find_array(doc, "types")->text), (std::vector<int>{13, 13}));
  EXPECT_EQ(numbers<long>(find_array(doc, "offsets")->text), (std::vector<long>{6, 12}));
  std::vector<long> expected;
  for (const auto& el : prism.elements)
    for (int a : {0, 2, 1, 3, 5, 4}) expected.push_back(el[a]);
  EXPECT_EQ(numbers<long>(find_array(doc, "connectivity")->text), expected);
  // With that order, VTK's wedge (0,0,0) (0,1,0) (1,0,0) at the bottom has its base normal
  // pointing down, away from the top face, as VTK requires.
  const auto& first = expected;
  const auto& p = prism.nodes;
  const double nz = (p[first[1]][0] - p[first[0]][0]) * (p[first[2]][1] - p[first[0]][1]) -
                    (p[first[2]][0] - p[first[0]][0]) * (p[first[1]][1] - p[first[0]][1]);
  EXPECT_LT(nz, 0);
  EXPECT_GT(p[first[3]][2], p[first[0]][2]);
}

TEST_F(Vtu, ScalarFieldOnAMesh) {
  const auto mesh = two_hexes();
  std::vector<double> t(mesh.num_nodes());
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = 0.1 * static_cast<double>(i) + 1e-300;
  kfem::write_vtu((dir_ / "t.vtu").string(), mesh, "temperature", 1, t);
  const auto doc = parse_xml(slurp(dir_ / "t.vtu"));
  ASSERT_FALSE(doc.empty());
  EXPECT_EQ(find_element(doc, "PointData")->attrs.at("Scalars"), "temperature");
  const auto* field = find_array(doc, "temperature");
  ASSERT_NE(field, nullptr);
  EXPECT_EQ(field->attrs.at("NumberOfComponents"), "1");
  EXPECT_EQ(numbers<double>(field->text), t);
  EXPECT_THROW(kfem::write_vtu((dir_ / "u.vtu").string(), mesh, "u", 2, std::vector<double>(24)),
               std::invalid_argument);
  EXPECT_THROW(kfem::write_vtu((dir_ / "u.vtu").string(), mesh, "u", 3, t), std::invalid_argument);
  EXPECT_FALSE(fs::exists(dir_ / "u.vtu"));
}

// One quadratic Lagrange wedge (18 points, in the order the caller gives) with two fields.
TEST_F(Vtu, GenericWriterWithALagrangeWedge) {
  std::vector<std::array<double, 3>> points;
  for (int i = 0; i < 18; ++i) points.push_back({0.1 * i, 0.01 * i * i, 1.0 - 0.05 * i});
  kfem::VtuCells cells{kfem::vtk_lagrange_wedge, 18, {}};
  for (int i = 0; i < 18; ++i) cells.connectivity.push_back(17 - i);
  std::vector<double> scalar(18), vector(54);
  for (int i = 0; i < 54; ++i) vector[i] = -0.5 * i;
  for (int i = 0; i < 18; ++i) scalar[i] = i * i;
  const auto path = dir_ / "wedge.vtu";
  kfem::write_vtu(path.string(), points, cells, {{"p", 1, scalar}, {"u", 3, vector}});
  EXPECT_FALSE(fs::exists(dir_ / "wedge.vtu.tmp"));
  const auto doc = parse_xml(slurp(path));
  ASSERT_FALSE(doc.empty());
  EXPECT_EQ(find_element(doc, "Piece")->attrs.at("NumberOfPoints"), "18");
  EXPECT_EQ(find_element(doc, "Piece")->attrs.at("NumberOfCells"), "1");
  EXPECT_EQ(find_element(doc, "PointData")->attrs.at("Scalars"), "p");
  EXPECT_EQ(find_element(doc, "PointData")->attrs.at("Vectors"), "u");
  EXPECT_EQ(numbers<double>(find_array(doc, "p")->text), scalar);
  EXPECT_EQ(numbers<double>(find_array(doc, "u")->text), vector);
  EXPECT_EQ(find_element(doc, "CellData")->attrs.at("HigherOrderDegrees"), "HigherOrderDegrees");
  EXPECT_EQ(numbers<int>(find_array(doc, "HigherOrderDegrees")->text), (std::vector<int>{2, 2, 2}));
  EXPECT_EQ(numbers<int>(find_array(doc, "types")->text), std::vector<int>{73});
  EXPECT_EQ(numbers<long>(find_array(doc, "offsets")->text), std::vector<long>{18});
  std::vector<long> conn(cells.connectivity.begin(), cells.connectivity.end());
  EXPECT_EQ(numbers<long>(find_array(doc, "connectivity")->text), conn);
}

TEST_F(Vtu, GenericWriterRejectsBadInput) {
  const std::vector<std::array<double, 3>> points(8, {0, 0, 0});
  const auto path = (dir_ / "bad.vtu").string();
  const auto rejects = [&](const kfem::VtuCells& cells, const std::vector<kfem::VtuField>& fields) {
    EXPECT_THROW(kfem::write_vtu(path, points, cells, fields), std::invalid_argument);
  };
  const std::vector<kfem::ordinal_t> hex{0, 1, 2, 3, 4, 5, 6, 7};
  rejects({kfem::vtk_hexahedron, 6, {0, 1, 2, 3, 4, 5}}, {});         // a hexahedron has 8 nodes
  rejects({kfem::vtk_lagrange_wedge, 7, {0, 1, 2, 3, 4, 5, 6}}, {});  // no uniform order
  rejects({kfem::vtk_hexahedron, 8, {0, 1, 2}}, {});                  // not a whole cell
  rejects({kfem::vtk_hexahedron, 8, {0, 1, 2, 3, 4, 5, 6, 8}}, {});   // point out of range
  rejects({0, 8, hex}, {});
  rejects({kfem::vtk_hexahedron, 8, hex}, {{"a", 2, std::vector<double>(16)}});
  rejects({kfem::vtk_hexahedron, 8, hex}, {{"a", 1, std::vector<double>(9)}});
  rejects({kfem::vtk_hexahedron, 8, hex},
          {{"a", 1, std::vector<double>(8)}, {"a", 1, std::vector<double>(8)}});
  rejects({kfem::vtk_hexahedron, 8, hex}, {{"a<b", 1, std::vector<double>(8)}});
  rejects({kfem::vtk_hexahedron, 8, hex}, {{"", 1, std::vector<double>(8)}});
  EXPECT_FALSE(fs::exists(path));
  kfem::write_vtu(path, points, {kfem::vtk_hexahedron, 8, hex}, {});
  EXPECT_TRUE(fs::exists(path));
}
