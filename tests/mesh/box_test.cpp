// Box generator, paper mesh sizes and the seeded distortion.
#include "kfem/mesh/box.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "kfem/core/error.hpp"
#include "kfem/mesh/validate.hpp"

namespace kfem {
namespace {
double total_volume(const HexMesh& mesh) {
  double v = 0;
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) v += element_volume(mesh, e);
  return v;
}

TEST(Box, PaperMeshCountsFromSpec) {
  const std::int64_t elements[4] = {110592, 262144, 1000000, 2097152};
  const std::int64_t nodes[4] = {120625, 279873, 1043001, 2167425};
  for (int i = 1; i <= 4; ++i) {
    const BoxSpec s = paper_mesh(i);
    EXPECT_EQ(box_num_elements(s), elements[i - 1]) << "mesh " << i;
    EXPECT_EQ(box_num_nodes(s), nodes[i - 1]) << "mesh " << i;
    EXPECT_EQ(s.lx, 16.0);
    EXPECT_EQ(s.ly, 2.0);
    EXPECT_EQ(s.lz, 2.0);
  }
}

TEST(Box, PaperMeshRejectsUnknownIndex) {
  EXPECT_THROW(paper_mesh(0), InputError);
  EXPECT_THROW(paper_mesh(5), InputError);
}

TEST(Box, PaperMesh1IsBuiltWithTheExpectedCountsAndVolume) {
  const HexMesh mesh = make_box(paper_mesh(1));
  EXPECT_EQ(mesh.num_elements(), 110592u);
  EXPECT_EQ(mesh.num_nodes(), 120625u);
  EXPECT_NEAR(total_volume(mesh), 16.0 * 2.0 * 2.0, 1e-9);
  EXPECT_NO_THROW(check_elements(mesh, "paper mesh 1"));
}

TEST(Box, NumberingFollowsTheSpecFormulas) {
  const BoxSpec s{3, 2, 4, 3.0, 1.0, 2.0};
  const HexMesh mesh = make_box(s);
  const auto id = [&](int i, int j, int k) { return i + (s.nx + 1) * (j + (s.ny + 1) * k); };
  EXPECT_EQ(mesh.nodes[id(2, 1, 3)], (std::array<double, 3>{2.0, 0.5, 1.5}));
  const auto& el = mesh.elements[1 + s.nx * (1 + s.ny * 2)];  // element (1,1,2)
  const std::array<ordinal_t, 8> expected{id(1, 1, 2), id(2, 1, 2), id(2, 2, 2), id(1, 2, 2),
                                          id(1, 1, 3), id(2, 1, 3), id(2, 2, 3), id(1, 2, 3)};
  EXPECT_EQ(el, expected);
  EXPECT_NEAR(total_volume(mesh), 6.0, 1e-12);
}

TEST(Box, RejectsBadSpecs) {
  EXPECT_THROW(make_box(BoxSpec{0, 1, 1, 1, 1, 1}), InputError);
  EXPECT_THROW(make_box(BoxSpec{1, 1, 1, -1, 1, 1}), InputError);
  EXPECT_THROW(make_box(BoxSpec{2000, 2000, 2000, 1, 1, 1}), InputError);  // > 2^31 nodes
}

TEST(Distort, KeepsElementsValidAndEndFacesPlanar) {
  const BoxSpec s{24, 4, 4, 16.0, 2.0, 2.0};
  const HexMesh original = make_box(s);
  for (double amplitude : {0.2, 0.28}) {
    HexMesh mesh = original;
    distort(mesh, amplitude, 42);
    EXPECT_NO_THROW(check_elements(mesh, "distorted box")) << "amplitude " << amplitude;
    EXPECT_NEAR(total_volume(mesh), 64.0, 64.0 * 0.05);
    std::size_t moved = 0;
    for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
      const double x = original.nodes[n][0];
      if (x == 0.0 || x == s.lx) {
        EXPECT_EQ(mesh.nodes[n][0], x) << "end-face node " << n;
      }
      const double h = s.lx / s.nx;
      for (int c = 0; c < 3; ++c) EXPECT_LE(std::abs(mesh.nodes[n][c] - original.nodes[n][c]), amplitude * h);
      moved += mesh.nodes[n] != original.nodes[n];
    }
    EXPECT_EQ(moved, mesh.num_nodes());
  }
}

TEST(Distort, IsDeterministicForASeed) {
  HexMesh a = make_box(BoxSpec{8, 3, 3, 8.0, 3.0, 3.0}), b = a, c = a;
  distort(a, 0.2, 7);
  distort(b, 0.2, 7);
  distort(c, 0.2, 8);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_NE(a.nodes, c.nodes);
  // Pins the portable RNG mapping: these bits must not change between standard libraries.
  EXPECT_EQ(a.nodes[10][0], 0x1.ad45a9e31d906p-1);
}

TEST(Distort, ZeroAmplitudeIsIdentityAndNegativeIsRejected) {
  const HexMesh original = make_box(BoxSpec{});
  HexMesh mesh = original;
  distort(mesh, 0.0, 1);
  EXPECT_EQ(mesh.nodes, original.nodes);
  EXPECT_THROW(distort(mesh, -0.1, 1), InputError);
}
}  // namespace
}  // namespace kfem
