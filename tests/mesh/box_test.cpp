// Box generators (hex, prism, tetrahedron, triangle), paper mesh sizes and the seeded distortion.
#include "kfem/mesh/box.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "kfem/core/error.hpp"
#include "kfem/mesh/validate.hpp"

namespace kfem {
namespace {
double total_volume(const Mesh& mesh) {
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
  const Mesh mesh = make_box(paper_mesh(1));
  EXPECT_EQ(mesh.num_elements(), 110592u);
  EXPECT_EQ(mesh.num_nodes(), 120625u);
  EXPECT_NEAR(total_volume(mesh), 16.0 * 2.0 * 2.0, 1e-9);
  EXPECT_NO_THROW(check_elements(mesh, "paper mesh 1"));
}

TEST(Box, NumberingFollowsTheSpecFormulas) {
  const BoxSpec s{3, 2, 4, 3.0, 1.0, 2.0};
  const Mesh mesh = make_box(s);
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
  EXPECT_THROW(make_prism_box(BoxSpec{1, 1, 0, 1, 1, 1}), InputError);
  EXPECT_THROW(make_prism_box(BoxSpec{1, 1, 1, 1, 1, 0}), InputError);
  EXPECT_THROW(make_tet_box(BoxSpec{1, 0, 1, 1, 1, 1}), InputError);
  EXPECT_THROW(make_tet_box(BoxSpec{1, 1, 1, 1, std::nan(""), 1}), InputError);
  // 6 * 800^3 = 3.07e9 tetrahedra exceed the 32-bit ids, while the 801^3 nodes and 2 * 800^3 prisms fit.
  EXPECT_EQ(box_count_error(BoxSpec{800, 800, 800, 1, 1, 1}, CellType::tet4),
            "3072000000 elements exceed the 32-bit limit of 2147483647 element ids");
  EXPECT_EQ(box_count_error(BoxSpec{800, 800, 800, 1, 1, 1}, CellType::prism6), "");
  EXPECT_THROW(make_tri_box(0, 1, 1, 1), InputError);
  EXPECT_THROW(make_tri_box(1, 1, 1, std::nan("")), InputError);
  EXPECT_THROW(make_tri_box(50000, 50000, 1, 1), InputError);  // > 2^31 nodes
}

// Node sets of a box: exactly the nodes on each face, ascending.
void expect_face_sets(const Mesh& mesh, double lx, double ly, double lz) {
  std::map<std::string, std::pair<int, double>> faces{
      {"xmin", {0, 0.0}}, {"xmax", {0, lx}}, {"ymin", {1, 0.0}}, {"ymax", {1, ly}}};
  if (mesh.dimension() == 3) faces.insert({{"zmin", {2, 0.0}}, {"zmax", {2, lz}}});
  EXPECT_EQ(mesh.node_sets.size(), faces.size());
  for (const auto& [name, face] : faces) {
    std::vector<ordinal_t> expected;
    for (std::size_t n = 0; n < mesh.num_nodes(); ++n)
      if (mesh.nodes[n][face.first] == face.second) expected.push_back(ordinal_t(n));
    EXPECT_EQ(mesh.node_sets.at(name), expected) << name;
  }
}

TEST(Box, EveryFamilyHasCountsVolumeOrientationAndFaceSets) {
  const BoxSpec s{5, 3, 4, 2.5, 1.5, 2.0};
  for (CellType cell : {CellType::hex8, CellType::prism6, CellType::tet4, CellType::tri3}) {
    SCOPED_TRACE(cell_name(cell));
    const Mesh mesh = make_box(s, cell);
    EXPECT_EQ(mesh.cell, cell);
    EXPECT_EQ(std::int64_t(mesh.num_elements()), box_num_elements(s, cell));
    EXPECT_EQ(std::int64_t(mesh.num_nodes()), box_num_nodes(s, cell));
    EXPECT_NO_THROW(check_elements(mesh, "box"));
    for (std::size_t e = 0; e < mesh.num_elements(); ++e) EXPECT_GT(element_volume(mesh, e), 0) << e;
    const bool flat = cell == CellType::tri3;
    EXPECT_NEAR(total_volume(mesh), flat ? 2.5 * 1.5 : 2.5 * 1.5 * 2.0, 1e-12);
    expect_face_sets(mesh, s.lx, s.ly, s.lz);
    for (const auto& el : mesh.elements)
      for (int a = mesh.nodes_per_element(); a < max_cell_vertices; ++a) EXPECT_EQ(el[a], -1);
  }
  EXPECT_EQ(box_num_elements(s, CellType::prism6), 2 * 5 * 3 * 4);
  EXPECT_EQ(box_num_elements(s, CellType::tri3), 2 * 5 * 3);
  EXPECT_EQ(box_num_nodes(s, CellType::tri3), 6 * 4);
  EXPECT_EQ(box_num_nodes(s, CellType::prism6), box_num_nodes(s));
  EXPECT_EQ(box_num_elements(s, CellType::tet4), 6 * 5 * 3 * 4);
  EXPECT_EQ(box_num_nodes(s, CellType::tet4), box_num_nodes(s));
}

TEST(Box, PrismsSplitEachHexAlongItsXyDiagonal) {
  const BoxSpec s{3, 2, 4, 3.0, 1.0, 2.0};
  const Mesh mesh = make_prism_box(s);
  const auto id = [&](int i, int j, int k) { return i + (s.nx + 1) * (j + (s.ny + 1) * k); };
  const std::size_t hex = 1 + s.nx * (1 + s.ny * 2);  // hex (1,1,2)
  EXPECT_EQ(mesh.elements[2 * hex],
            (std::array<ordinal_t, 8>{id(1, 1, 2), id(2, 1, 2), id(2, 2, 2), id(1, 1, 3), id(2, 1, 3),
                                      id(2, 2, 3), -1, -1}));
  EXPECT_EQ(mesh.elements[2 * hex + 1],
            (std::array<ordinal_t, 8>{id(1, 1, 2), id(2, 2, 2), id(1, 2, 2), id(1, 1, 3), id(2, 2, 3),
                                      id(1, 2, 3), -1, -1}));
  EXPECT_EQ(make_box(s).nodes, mesh.nodes);
  EXPECT_NEAR(element_volume(mesh, 2 * hex), 0.5 * 1.0 * 0.5 * 0.5, 1e-15);
}

TEST(Box, TetsSplitEachHexIntoSixAlongItsDiagonal) {
  const BoxSpec s{3, 2, 4, 3.0, 1.0, 2.0};
  const Mesh mesh = make_tet_box(s);
  EXPECT_EQ(mesh.cell, CellType::tet4);
  EXPECT_EQ(make_box(s).nodes, mesh.nodes);
  EXPECT_EQ(make_box(s, CellType::tet4).elements, mesh.elements);
  ASSERT_EQ(mesh.num_elements(), 6u * 3 * 2 * 4);
  const auto id = [&](int i, int j, int k) { return i + (s.nx + 1) * (j + (s.ny + 1) * k); };
  const std::size_t hex = 1 + s.nx * (1 + s.ny * 2);  // hex (1,1,2)
  EXPECT_EQ(mesh.elements[6 * hex],
            (std::array<ordinal_t, 8>{id(1, 1, 2), id(2, 1, 2), id(2, 2, 2), id(2, 2, 3), -1, -1, -1, -1}));
  for (int t = 0; t < 6; ++t) {
    const auto& el = mesh.elements[6 * hex + t];
    EXPECT_EQ(el[0], id(1, 1, 2)) << t;  // every tetrahedron runs along the diagonal
    EXPECT_EQ(el[3], id(2, 2, 3)) << t;
  }
  // All positively oriented, of one size, filling the box.
  const double cell = 3.0 / 3 * 1.0 / 2 * 2.0 / 4 / 6;
  for (std::size_t e = 0; e < mesh.num_elements(); ++e)
    EXPECT_NEAR(element_volume(mesh, e), cell, 1e-15) << e;
  EXPECT_NEAR(total_volume(mesh), 3.0 * 1.0 * 2.0, 1e-13);
}

// Conforming: every interior triangle is a face of exactly two tetrahedra, which lie on opposite
// sides of it, and every other face lies on the box's boundary, two per boundary square.
TEST(Box, TetsAreConforming) {
  const BoxSpec s{3, 2, 4, 3.0, 1.0, 2.0};
  const Mesh mesh = make_tet_box(s);
  constexpr int kFaces[4][4] = {{1, 2, 3, 0}, {0, 2, 3, 1}, {0, 1, 3, 2}, {0, 1, 2, 3}};  // face, opposite
  std::map<std::array<ordinal_t, 3>, std::vector<std::pair<std::size_t, int>>> faces;
  for (std::size_t e = 0; e < mesh.num_elements(); ++e)
    for (const auto& f : kFaces) {
      std::array<ordinal_t, 3> key{mesh.elements[e][f[0]], mesh.elements[e][f[1]], mesh.elements[e][f[2]]};
      std::sort(key.begin(), key.end());
      faces[key].push_back({e, f[3]});
    }
  const auto side = [&](const std::array<ordinal_t, 3>& f, ordinal_t v) {  // sign of the volume
    const auto &a = mesh.nodes[f[0]], &b = mesh.nodes[f[1]], &c = mesh.nodes[f[2]], &d = mesh.nodes[v];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
                 w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]},
                 r[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
    return r[0] * (u[1] * w[2] - u[2] * w[1]) + r[1] * (u[2] * w[0] - u[0] * w[2]) +
           r[2] * (u[0] * w[1] - u[1] * w[0]);
  };
  const auto on_boundary = [&](const std::array<ordinal_t, 3>& f) {
    for (int c = 0; c < 3; ++c) {
      const double extent = c == 0 ? s.lx : c == 1 ? s.ly : s.lz;
      for (double plane : {0.0, extent}) {
        bool all = true;
        for (ordinal_t v : f) all = all && mesh.nodes[v][c] == plane;
        if (all) return true;
      }
    }
    return false;
  };
  std::size_t boundary = 0;
  for (const auto& [f, users] : faces) {
    ASSERT_LE(users.size(), 2u);
    if (users.size() == 1) {
      EXPECT_TRUE(on_boundary(f)) << f[0] << " " << f[1] << " " << f[2];
      ++boundary;
      continue;
    }
    EXPECT_FALSE(on_boundary(f));
    const double a = side(f, mesh.elements[users[0].first][users[0].second]),
                 b = side(f, mesh.elements[users[1].first][users[1].second]);
    EXPECT_LT(a * b, 0) << users[0].first << " and " << users[1].first;
  }
  EXPECT_EQ(boundary, std::size_t(2 * 2 * (s.nx * s.ny + s.ny * s.nz + s.nx * s.nz)));
  EXPECT_EQ(faces.size() - boundary, (4 * mesh.num_elements() - boundary) / 2);
}

TEST(Box, TrianglesAreCounterClockwiseInThePlane) {
  const Mesh mesh = make_tri_box(4, 2, 2.0, 1.0);
  EXPECT_EQ(mesh.elements[2 * (1 + 4 * 1)], (std::array<ordinal_t, 8>{6, 7, 12, -1, -1, -1, -1, -1}));
  EXPECT_EQ(mesh.elements[2 * (1 + 4 * 1) + 1], (std::array<ordinal_t, 8>{6, 12, 11, -1, -1, -1, -1, -1}));
  for (const auto& x : mesh.nodes) EXPECT_EQ(x[2], 0.0);
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) EXPECT_DOUBLE_EQ(element_volume(mesh, e), 0.125);
}

TEST(Distort, KeepsElementsValidAndEndFacesPlanar) {
  const BoxSpec s{24, 4, 4, 16.0, 2.0, 2.0};
  const Mesh original = make_box(s);
  for (double amplitude : {0.2, 0.28}) {
    Mesh mesh = original;
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

// The documented safe amplitudes: 0.15 everywhere, and close to each family's bound.
TEST(Distort, KeepsEveryFamilyValid) {
  const BoxSpec s{12, 5, 4, 6.0, 2.5, 2.0};  // cubic cells: the tightest case of the bound
  for (CellType cell : {CellType::hex8, CellType::prism6, CellType::tet4, CellType::tri3}) {
    SCOPED_TRACE(cell_name(cell));
    const Mesh original = make_box(s, cell);
    const double bound = cell == CellType::tri3     ? 0.21
                         : cell == CellType::prism6 ? 0.17
                         : cell == CellType::tet4   ? 0.16
                                                    : 0.28;
    for (double amplitude : {0.15, bound})
      for (std::uint64_t seed : {1u, 2u, 3u, 42u}) {
        Mesh mesh = original;
        distort(mesh, amplitude, seed);
        EXPECT_NO_THROW(check_elements(mesh, "distorted")) << amplitude << " seed " << seed;
        std::size_t moved = 0;
        for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
          const double x = original.nodes[n][0];
          if (x == 0.0 || x == s.lx) {
            EXPECT_EQ(mesh.nodes[n][0], x);
          }
          if (cell == CellType::tri3) {
            EXPECT_EQ(mesh.nodes[n][2], 0.0);
          }
          for (int c = 0; c < 3; ++c)
            EXPECT_LE(std::abs(mesh.nodes[n][c] - original.nodes[n][c]), amplitude * 0.5);
          moved += mesh.nodes[n] != original.nodes[n];
        }
        EXPECT_EQ(moved, mesh.num_nodes());
        EXPECT_EQ(mesh.node_sets, original.node_sets);
      }
  }
}

TEST(Distort, IsDeterministicForASeed) {
  Mesh a = make_box(BoxSpec{8, 3, 3, 8.0, 3.0, 3.0}), b = a, c = a;
  distort(a, 0.2, 7);
  distort(b, 0.2, 7);
  distort(c, 0.2, 8);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_NE(a.nodes, c.nodes);
  // Pins the portable RNG mapping: these bits must not change between standard libraries.
  EXPECT_EQ(a.nodes[10][0], 0x1.ad45a9e31d906p-1);
}

TEST(Distort, ZeroAmplitudeIsIdentityAndNegativeIsRejected) {
  const Mesh original = make_box(BoxSpec{});
  Mesh mesh = original;
  distort(mesh, 0.0, 1);
  EXPECT_EQ(mesh.nodes, original.nodes);
  EXPECT_THROW(distort(mesh, -0.1, 1), InputError);
}
}  // namespace
}  // namespace kfem
