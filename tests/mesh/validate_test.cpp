// Element validity checks on in-memory meshes of every family: each failure must name the source
// and the element.
#include "kfem/mesh/validate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "kfem/core/error.hpp"
#include "kfem/mesh/box.hpp"

namespace kfem {
namespace {
// The message of the InputError check_elements throws ("" if it does not throw).
std::string check_error(const Mesh& mesh) {
  try {
    check_elements(mesh, "unit.msh");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void expect_mentions(const std::string& message, const std::string& fragment) {
  EXPECT_NE(message.find(fragment), std::string::npos)
      << "message: '" << message << "' lacks '" << fragment << "'";
}

TEST(CheckElements, AcceptsBoxes) {
  EXPECT_NO_THROW(check_elements(make_box(BoxSpec{}), "box"));
  EXPECT_NO_THROW(check_elements(make_box(BoxSpec{4, 1, 1, 4e6, 1e-3, 1e-3}), "aspect ratio 1e9"));
  EXPECT_NO_THROW(check_elements(make_box(BoxSpec{2, 2, 2, 1e-90, 1e-90, 1e-90}), "tiny box"));
}

TEST(CheckElements, NamesAnInvertedElement) {
  Mesh mesh = make_box(BoxSpec{3, 1, 1, 3, 1, 1});
  auto& el = mesh.elements[1];
  std::swap_ranges(el.begin(), el.begin() + 4, el.begin() + 4);  // top face below bottom
  const std::string message = check_error(mesh);
  expect_mentions(message, "unit.msh: element 1 (nodes 9 10 14 13 1 2 6 5)");
  expect_mentions(message, "inverted");
}

TEST(CheckElements, NamesAnElementWithCoincidentNodes) {
  Mesh mesh = make_box(BoxSpec{2, 1, 1, 2, 1, 1});
  mesh.elements[0][6] = mesh.elements[0][2];
  const std::string message = check_error(mesh);
  expect_mentions(message, "unit.msh: element 0");
  expect_mentions(message, "degenerate");
}

TEST(CheckElements, NamesAFlatElementEvenWhenRotated) {
  Mesh mesh = make_box(BoxSpec{1, 1, 1, 1, 1, 1});
  // Squash onto the plane x + y + z = 1.5 through a rotation-like map, so rounding leaves det J ~ 1e-17.
  for (auto& p : mesh.nodes) {
    const double s = (p[0] + p[1] + p[2] - 1.5) / 3;
    p = {p[0] - s, p[1] - s, p[2] - s};
  }
  const std::string message = check_error(mesh);
  expect_mentions(message, "unit.msh: element 0");
  expect_mentions(message, "degenerate");
}

TEST(CheckElements, NamesANodeOutOfRange) {
  Mesh mesh = make_box(BoxSpec{2, 1, 1, 2, 1, 1});
  mesh.elements[1][3] = 12;
  const std::string message = check_error(mesh);
  expect_mentions(message, "unit.msh: element 1");
  expect_mentions(message, "node 12 out of range [0, 12)");
  mesh.elements[1][3] = -1;
  expect_mentions(check_error(mesh), "node -1 out of range");
}

TEST(CheckElements, NamesANonFiniteCoordinate) {
  Mesh mesh = make_box(BoxSpec{2, 1, 1, 2, 1, 1});
  mesh.nodes[4][1] = std::numeric_limits<double>::quiet_NaN();
  expect_mentions(check_error(mesh), "unit.msh: node 4 has a non-finite coordinate");
  mesh.nodes[4][1] = std::numeric_limits<double>::infinity();
  expect_mentions(check_error(mesh), "unit.msh: node 4");
}

TEST(CheckElements, NamesAnElementWithAFoldedCorner) {
  Mesh mesh = make_box(BoxSpec{1, 1, 1, 1, 1, 1});
  mesh.nodes[mesh.elements[0][6]] = {-0.5, -0.5, -0.5};  // the top corner pushed through the element
  const std::string message = check_error(mesh);
  expect_mentions(message, "unit.msh: element 0");
  expect_mentions(message, "inverted");
}

TEST(ElementVolume, IsExactForParallelepipeds) {
  Mesh mesh = make_box(BoxSpec{1, 1, 1, 2, 3, 4});
  EXPECT_NEAR(element_volume(mesh, 0), 24.0, 1e-12);
  for (auto& p : mesh.nodes) p[0] += 0.5 * p[2];  // shear keeps the volume
  EXPECT_NEAR(element_volume(mesh, 0), 24.0, 1e-12);
}

constexpr ordinal_t X = -1;  // unused slot

Mesh one_triangle(std::array<double, 3> a, std::array<double, 3> b, std::array<double, 3> c) {
  Mesh mesh;
  mesh.cell = CellType::tri3;
  mesh.nodes = {a, b, c};
  mesh.elements = {{0, 1, 2, X, X, X, X, X}};
  return mesh;
}

Mesh one_prism() {
  Mesh mesh;
  mesh.cell = CellType::prism6;
  mesh.nodes = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
  mesh.elements = {{0, 1, 2, 3, 4, 5, X, X}};
  return mesh;
}

Mesh one_tet() {
  Mesh mesh;
  mesh.cell = CellType::tet4;
  mesh.nodes = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  mesh.elements = {{0, 1, 2, 3, X, X, X, X}};
  return mesh;
}

TEST(CheckElements, AcceptsTriangleAndPrismBoxesAtAnyScale) {
  for (double scale : {1.0, 1e-90, 1e90}) {
    EXPECT_NO_THROW(check_elements(make_tri_box(3, 2, 3 * scale, 2 * scale), "tri"));
    EXPECT_NO_THROW(
        check_elements(make_prism_box(BoxSpec{3, 2, 2, 3 * scale, 2 * scale, 1e-3 * scale}), "prism"));
  }
  EXPECT_NO_THROW(check_elements(make_tri_box(2, 2, 4e6, 1e-3), "aspect ratio 1e9"));
}

TEST(CheckElements, NamesAClockwiseTriangle) {
  const std::string message = check_error(one_triangle({0, 0, 0}, {0, 1, 0}, {1, 0, 0}));
  expect_mentions(message, "unit.msh: element 0 (nodes 0 1 2): signed area = -0.5");
  expect_mentions(message, "inverted element: clockwise in the xy plane");
}

TEST(CheckElements, NamesDegenerateTriangles) {
  expect_mentions(check_error(one_triangle({0, 0, 0}, {1, 1, 0}, {3, 3, 0})), "(degenerate element)");
  expect_mentions(check_error(one_triangle({0, 0, 0}, {1, 0, 0}, {0, 0, 0})), "(degenerate element)");
  // A needle: long edges 1e15 times its height, flat to every tolerance that matters.
  expect_mentions(check_error(one_triangle({0, 0, 0}, {1, -1e-15, 0}, {2, 0, 0})), "degenerate");
  // Rotated and flat: rounding leaves a tiny area of either sign.
  const std::string flat = check_error(one_triangle({0.1, 0.3, 0}, {0.7, 0.9, 0}, {1.9, 2.1, 0}));
  EXPECT_TRUE(flat.find("degenerate") != std::string::npos || flat.find("inverted") != std::string::npos)
      << flat;
  EXPECT_NO_THROW(
      check_elements(one_triangle({0, 0, 0}, {1, -1e-9, 0}, {2, 0, 0}), "a sharp but valid angle"));
}

TEST(CheckElements, NamesAnInvertedPrism) {
  Mesh mesh = one_prism();
  mesh.elements[0] = {0, 2, 1, 3, 5, 4, X, X};  // bottom triangle clockwise seen from the top
  const std::string message = check_error(mesh);
  expect_mentions(message,
                  "unit.msh: element 0 (nodes 0 2 1 3 5 4): det J = -1 at corner 0 (inverted element)");
  mesh.elements[0] = {3, 4, 5, 0, 1, 2, X, X};  // top below bottom
  expect_mentions(check_error(mesh), "inverted");
}

TEST(CheckElements, NamesDegenerateAndFoldedPrisms) {
  Mesh flat = one_prism();
  for (int v = 3; v < 6; ++v) flat.nodes[v][2] = 0;
  expect_mentions(check_error(flat), "(degenerate element)");
  Mesh collapsed = one_prism();
  collapsed.elements[0][4] = collapsed.elements[0][3];  // two top nodes coincide
  expect_mentions(check_error(collapsed), "degenerate");
  Mesh folded = one_prism();
  folded.nodes[4] = {-2, 0, 1};  // a top corner pushed through the opposite side
  const std::string message = check_error(folded);
  expect_mentions(message, "inverted");
  expect_mentions(message, "unit.msh: element 0");
}

TEST(CheckElements, AcceptsTetBoxesAtAnyScaleAndAspectRatio) {
  for (double scale : {1.0, 1e-90, 1e90})
    EXPECT_NO_THROW(
        check_elements(make_tet_box(BoxSpec{3, 2, 2, 3 * scale, 2 * scale, 1e-3 * scale}), "tet"));
  // Kuhn tetrahedra of a 1e6 x 1e-3 x 1e-3 cell are needles whose sharpest corner has a polar sine
  // of 1e-18: the least sharp corner decides.
  EXPECT_NO_THROW(check_elements(make_tet_box(BoxSpec{4, 1, 1, 4e6, 1e-3, 1e-3}), "aspect ratio 1e9"));
  EXPECT_NO_THROW(check_elements(one_tet(), "unit"));
}

TEST(CheckElements, NamesAnInvertedTet) {
  Mesh mesh = one_tet();
  mesh.elements[0] = {0, 2, 1, 3, X, X, X, X};  // 0 1 2 clockwise seen from vertex 3
  expect_mentions(check_error(mesh),
                  "unit.msh: element 0 (nodes 0 2 1 3): det J = -1 (inverted element: vertices 0 1 2 turn "
                  "clockwise seen from vertex 3)");
  mesh = one_tet();
  mesh.nodes[3] = {0.2, 0.3, -2};  // the apex pushed through the base
  expect_mentions(check_error(mesh), "det J = -2 (inverted element");
}

TEST(CheckElements, NamesDegenerateTets) {
  Mesh mesh = one_tet();
  mesh.nodes[3] = {0.4, 0.4, 0};  // in the base's plane
  expect_mentions(check_error(mesh), "unit.msh: element 0 (nodes 0 1 2 3): det J = 0 (degenerate element)");
  mesh = one_tet();
  mesh.elements[0][3] = 1;  // coincident vertices
  expect_mentions(check_error(mesh), "(degenerate element)");
  // Flat and rotated: the four points on the plane x + y + z = 1.5 up to rounding.
  mesh = one_tet();
  mesh.nodes = {{0.1, 0.7, 0.7}, {1.3, 0.1, 0.1}, {0.2, 1.1, 0.2}, {0.5, 0.5, 0.5}};
  for (auto& p : mesh.nodes) {
    const double s = (p[0] + p[1] + p[2] - 1.5) / 3;
    p = {p[0] - s, p[1] - s, p[2] - s};
  }
  const std::string flat = check_error(mesh);
  EXPECT_TRUE(flat.find("degenerate") != std::string::npos || flat.find("inverted") != std::string::npos)
      << flat;
  // A sliver: all four vertices within 1e-15 of one plane, flat at every corner.
  mesh = one_tet();
  mesh.nodes = {{0, 0, 0}, {1, 0, 1e-15}, {1, 1, 0}, {0, 1, 1e-15}};
  expect_mentions(check_error(mesh), "degenerate");
  // A needle 1e9 times longer than wide is thin, not flat.
  mesh = one_tet();
  mesh.nodes = {{0, 0, 0}, {1e9, 0, 0}, {1e9, 1, 0}, {1e9, 0, 1}};
  EXPECT_NO_THROW(check_elements(mesh, "needle"));
}

TEST(CheckElements, UnusedSlotsMustBeMinusOne) {
  Mesh mesh = one_triangle({0, 0, 0}, {1, 0, 0}, {0, 1, 0});
  mesh.elements[0][3] = 0;
  expect_mentions(check_error(mesh), "slot 3 of a tri3 element must be -1 (unused), found 0");
  mesh.elements[0][3] = X;
  mesh.elements[0][2] = 3;
  expect_mentions(check_error(mesh), "node 3 out of range [0, 3)");
}

TEST(ElementVolume, IsExactForTrianglesAndPrisms) {
  EXPECT_DOUBLE_EQ(element_volume(one_triangle({1, 1, 0}, {3, 1, 0}, {1, 4, 0}), 0), 3.0);
  EXPECT_DOUBLE_EQ(element_volume(one_triangle({1, 1, 0}, {1, 4, 0}, {3, 1, 0}), 0), -3.0);
  Mesh prism = one_prism();
  EXPECT_NEAR(element_volume(prism, 0), 0.5, 1e-15);
  for (auto& p : prism.nodes) p = {2 * p[0] + 0.3 * p[2], 3 * p[1], 4 * p[2]};  // shear and stretch
  EXPECT_NEAR(element_volume(prism, 0), 0.5 * 2 * 3 * 4, 1e-13);
  // A twisted prism (top triangle moved, turned and scaled): compare with a fine midpoint sum of
  // det J over the reference prism (x = u, y = (1 - u) v maps the unit square onto the triangle).
  prism = one_prism();
  prism.nodes[3] = {0.1, 0.2, 1.0};
  prism.nodes[4] = {1.3, 0.1, 1.2};
  prism.nodes[5] = {0.0, 1.4, 0.9};
  EXPECT_NO_THROW(check_elements(prism, "twisted"));
  const auto map = [&](double r, double s, double t) {
    const double N[6] = {(1 - r - s) * (1 - t), r * (1 - t), s * (1 - t), (1 - r - s) * t, r * t, s * t};
    std::array<double, 3> p{0, 0, 0};
    for (int a = 0; a < 6; ++a)
      for (int c = 0; c < 3; ++c) p[c] += N[a] * prism.nodes[a][c];
    return p;
  };
  double fine = 0;
  const int n = 40;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const double u = (i + 0.5) / n, v = (j + 0.5) / n, z = (k + 0.5) / n;
        const double x = u, y = (1 - u) * v,
                     h = 1e-3;  // the map is linear in each variable: exact differences
        double J[3][3];
        for (int c = 0; c < 3; ++c) {
          J[0][c] = (map(x + h, y, z)[c] - map(x - h, y, z)[c]) / (2 * h);
          J[1][c] = (map(x, y + h, z)[c] - map(x, y - h, z)[c]) / (2 * h);
          J[2][c] = (map(x, y, z + h)[c] - map(x, y, z - h)[c]) / (2 * h);
        }
        const double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
                           J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                           J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
        fine += det * (1 - u) / (double(n) * n * n);
      }
  EXPECT_NEAR(element_volume(prism, 0), fine, 1e-4);
}

TEST(ElementVolume, IsExactForTets) {
  Mesh mesh = one_tet();
  EXPECT_DOUBLE_EQ(element_volume(mesh, 0), 1.0 / 6);
  for (auto& p : mesh.nodes) p = {2 * p[0] + 0.3 * p[2] + 1, 3 * p[1] - 0.2 * p[0], 4 * p[2] + 5};
  EXPECT_NEAR(element_volume(mesh, 0), 2.0 * 3 * 4 / 6, 1e-14);  // an affine map scales by its det
  mesh.elements[0] = {1, 0, 2, 3, X, X, X, X};
  EXPECT_NEAR(element_volume(mesh, 0), -4.0, 1e-14);
  // Every even permutation of the vertices keeps the volume and the verdict.
  for (const auto& even : {std::array<ordinal_t, 4>{1, 2, 0, 3}, {0, 2, 3, 1}, {3, 2, 1, 0}, {2, 3, 0, 1}}) {
    Mesh turned = one_tet();
    for (int a = 0; a < 4; ++a) turned.elements[0][a] = even[a];
    EXPECT_DOUBLE_EQ(element_volume(turned, 0), 1.0 / 6);
    EXPECT_FALSE(element_defect(turned, 0));
  }
}

// ---- Elements listed twice ----

// mesh with element e appended again, its vertices rotated by `shift` within each group of `ring`
// (hex8: each face of 4, prism6: each triangle of 3, tri3: the triangle): still a valid element.
Mesh with_twin(Mesh mesh, std::size_t e, int ring, int shift) {
  auto twin = mesh.elements[e];
  for (int a = 0; a < mesh.nodes_per_element(); ++a)
    twin[a] = mesh.elements[e][a - a % ring + (a % ring + shift) % ring];
  mesh.elements.push_back(twin);
  return mesh;
}

TEST(DuplicateElements, NoneInBoxesOfEveryFamily) {
  EXPECT_FALSE(find_duplicate_elements(make_box(BoxSpec{3, 2, 2, 3, 2, 2})));
  EXPECT_FALSE(find_duplicate_elements(make_prism_box(BoxSpec{3, 2, 2, 3, 2, 2})));
  EXPECT_FALSE(find_duplicate_elements(make_tri_box(3, 2, 3, 2)));
  EXPECT_FALSE(find_duplicate_elements(make_tet_box(BoxSpec{3, 2, 2, 3, 2, 2})));
}

TEST(DuplicateElements, FoundInAnyVertexOrderForEveryFamily) {
  const Mesh hex = with_twin(make_box(BoxSpec{3, 2, 2, 3, 2, 2}), 5, 4, 1);
  EXPECT_EQ(find_duplicate_elements(hex), (std::pair<std::size_t, std::size_t>{5, 12}));
  const std::string message = check_error(hex);
  expect_mentions(message, "unit.msh: elements 5 and 12 have the same nodes (");
  expect_mentions(message, " and " + std::to_string(hex.elements[12][0]) + " ");
  const Mesh prism = with_twin(make_prism_box(BoxSpec{3, 2, 2, 3, 2, 2}), 7, 3, 2);
  EXPECT_EQ(find_duplicate_elements(prism), (std::pair<std::size_t, std::size_t>{7, 24}));
  expect_mentions(check_error(prism), "unit.msh: elements 7 and 24 have the same nodes");
  const Mesh tri = with_twin(make_tri_box(3, 2, 3, 2), 0, 3, 1);
  EXPECT_EQ(find_duplicate_elements(tri), (std::pair<std::size_t, std::size_t>{0, 12}));
  expect_mentions(check_error(tri), "unit.msh: elements 0 and 12 have the same nodes (0 1 5 and 1 5 0)");
  Mesh tet = make_tet_box(BoxSpec{3, 2, 2, 3, 2, 2});  // 72 tetrahedra
  const auto& v = tet.elements[40];
  tet.elements.push_back({v[1], v[2], v[0], v[3], X, X, X, X});  // an even permutation: still valid
  EXPECT_EQ(find_duplicate_elements(tet), (std::pair<std::size_t, std::size_t>{40, 72}));
  expect_mentions(check_error(tet), "unit.msh: elements 40 and 72 have the same nodes (");
}

TEST(DuplicateElements, NamesThePairWhoseLaterElementComesFirst) {
  Mesh mesh = make_tri_box(3, 2, 3, 2);        // 12 triangles
  mesh.elements.push_back(mesh.elements[9]);   // 12 = 9
  mesh.elements.push_back(mesh.elements[2]);   // 13 = 2
  mesh.elements.push_back(mesh.elements[9]);   // 14 = 9
  mesh.elements.push_back(mesh.elements[12]);  // 15 = 9
  EXPECT_EQ(find_duplicate_elements(mesh), (std::pair<std::size_t, std::size_t>{9, 12}));
  mesh.elements.erase(mesh.elements.begin() + 12);  // 12 = 2, 13 = 9, 14 = 9
  EXPECT_EQ(find_duplicate_elements(mesh), (std::pair<std::size_t, std::size_t>{2, 12}));
}

TEST(DuplicateElements, NeighboursSharingAllButOneVertexAreDistinct) {
  Mesh mesh = one_prism();
  mesh.nodes.push_back({1, 1, 1});
  mesh.elements.push_back({0, 1, 2, 3, 4, 6, X, X});  // differs from element 0 in its last vertex only
  EXPECT_FALSE(find_duplicate_elements(mesh));
}
}  // namespace
}  // namespace kfem
