// Element validity checks on in-memory meshes: each failure must name the source and the element.
#include "kfem/mesh/validate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "kfem/core/error.hpp"
#include "kfem/mesh/box.hpp"

namespace kfem {
namespace {
// The message of the InputError check_elements throws ("" if it does not throw).
std::string check_error(const HexMesh& mesh) {
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
  HexMesh mesh = make_box(BoxSpec{3, 1, 1, 3, 1, 1});
  auto& el = mesh.elements[1];
  std::swap_ranges(el.begin(), el.begin() + 4, el.begin() + 4);  // top face below bottom
  const std::string message = check_error(mesh);
  expect_mentions(message, "unit.msh: element 1 (nodes 9 10 14 13 1 2 6 5)");
  expect_mentions(message, "inverted");
}

TEST(CheckElements, NamesAnElementWithCoincidentNodes) {
  HexMesh mesh = make_box(BoxSpec{2, 1, 1, 2, 1, 1});
  mesh.elements[0][6] = mesh.elements[0][2];
  const std::string message = check_error(mesh);
  expect_mentions(message, "unit.msh: element 0");
  expect_mentions(message, "degenerate");
}

TEST(CheckElements, NamesAFlatElementEvenWhenRotated) {
  HexMesh mesh = make_box(BoxSpec{1, 1, 1, 1, 1, 1});
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
  HexMesh mesh = make_box(BoxSpec{2, 1, 1, 2, 1, 1});
  mesh.elements[1][3] = 12;
  const std::string message = check_error(mesh);
  expect_mentions(message, "unit.msh: element 1");
  expect_mentions(message, "node 12 out of range [0, 12)");
  mesh.elements[1][3] = -1;
  expect_mentions(check_error(mesh), "node -1 out of range");
}

TEST(CheckElements, NamesANonFiniteCoordinate) {
  HexMesh mesh = make_box(BoxSpec{2, 1, 1, 2, 1, 1});
  mesh.nodes[4][1] = std::numeric_limits<double>::quiet_NaN();
  expect_mentions(check_error(mesh), "unit.msh: node 4 has a non-finite coordinate");
  mesh.nodes[4][1] = std::numeric_limits<double>::infinity();
  expect_mentions(check_error(mesh), "unit.msh: node 4");
}

TEST(CheckElements, NamesAnElementWithAFoldedCorner) {
  HexMesh mesh = make_box(BoxSpec{1, 1, 1, 1, 1, 1});
  mesh.nodes[mesh.elements[0][6]] = {-0.5, -0.5, -0.5};  // the top corner pushed through the element
  const std::string message = check_error(mesh);
  expect_mentions(message, "unit.msh: element 0");
  expect_mentions(message, "inverted");
}

TEST(ElementVolume, IsExactForParallelepipeds) {
  HexMesh mesh = make_box(BoxSpec{1, 1, 1, 2, 3, 4});
  EXPECT_NEAR(element_volume(mesh, 0), 24.0, 1e-12);
  for (auto& p : mesh.nodes) p[0] += 0.5 * p[2];  // shear keeps the volume
  EXPECT_NEAR(element_volume(mesh, 0), 24.0, 1e-12);
}
}  // namespace
}  // namespace kfem
