// Element colourings: greedy (host) and Kokkos Kernels (device) must be valid, grouped
// consistently, and the checker must name the two elements of a conflict.
#include "kfem/coloring/coloring.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "assembly/fixture.hpp"
#include "backends.hpp"
#include "kfem/coloring/device_coloring.hpp"
#include "kfem/mesh/incidence.hpp"
#include "kfem/mesh/renumber.hpp"

namespace kfem::test {
namespace {
struct Case {
  std::string name;
  Mesh mesh;
};
std::vector<Case> meshes() {
  return {{"box_2x2x2", make_box(BoxSpec{2, 2, 2, 1.0, 1.0, 1.0})},
          {"box_7x4x3", make_box(BoxSpec{7, 4, 3, 7.0, 4.0, 3.0})},
          {"box_16x2x2", make_box(BoxSpec{})},
          {"distorted_beam", distorted_beam()},
          {"distorted_beam_8x6x5", distorted_beam(8, 6, 5)}};
}

// offsets/order form a counting sort of `color`: a permutation, ascending within each colour,
// and (for colourings we produce) no empty colour.
void expect_grouped(const Coloring& c) {
  ASSERT_GE(c.num_colors(), 1);
  EXPECT_EQ(c.offsets.front(), 0);
  EXPECT_EQ(std::size_t(c.offsets.back()), c.color.size());
  std::vector<ordinal_t> sorted = c.order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<ordinal_t> iota(c.color.size());
  std::iota(iota.begin(), iota.end(), 0);
  EXPECT_EQ(sorted, iota) << "order is not a permutation of the elements";
  for (int k = 0; k < c.num_colors(); ++k) {
    EXPECT_LT(c.offsets[k], c.offsets[k + 1]) << "colour " << k << " is empty";
    for (ordinal_t p = c.offsets[k]; p < c.offsets[k + 1]; ++p) {
      EXPECT_EQ(c.color[c.order[p]], k) << "position " << p;
      if (p > c.offsets[k]) {
        EXPECT_LT(c.order[p - 1], c.order[p]) << "colour " << k << " not ascending";
      }
    }
  }
}

TEST(GreedyColoring, ValidAndGrouped) {
  for (const Case& c : meshes()) {
    SCOPED_TRACE(c.name);
    const Coloring col = greedy_coloring(c.mesh);
    EXPECT_EQ(check_coloring(c.mesh, col), "");
    expect_grouped(col);
    EXPECT_LE(col.num_colors(), 27);  // an element touches at most 26 others in a hex grid
  }
}

// Runs of consecutive elements coloured as units (hex8 `batch` on a CPU): the colour is constant
// along a run, and two runs of one colour share no node.
TEST(GreedyColoring, RunsAreUnits) {
  for (const Case& c : meshes())
    for (const ordinal_t run : {2, 8, 64}) {
      SCOPED_TRACE(c.name + ", runs of " + std::to_string(run));
      const Coloring col = greedy_coloring(c.mesh, run);
      expect_grouped(col);
      for (std::size_t e = 0; e < col.color.size(); ++e) EXPECT_EQ(col.color[e], col.color[e / run * run]);
      const NodeIncidence inc = node_incidence(c.mesh);
      for (std::size_t n = 0; n < c.mesh.num_nodes(); ++n)
        for (offset_t i = inc.start[n]; i < inc.start[n + 1]; ++i)
          for (offset_t j = i + 1; j < inc.start[n + 1]; ++j) {
            const ordinal_t a = inc.elements[i], b = inc.elements[j];
            if (a / run != b / run) {
              EXPECT_NE(col.color[a], col.color[b]) << "elements " << a << ", " << b << ", node " << n;
            }
          }
    }
  EXPECT_THROW(greedy_coloring(distorted_beam(), 0), std::invalid_argument);
}

// Runs along a Morton order (what hex8 `batch` gets): the same two rules on positions of the
// sequence, and every colour lists its runs whole, in sequence order.
TEST(GreedyColoring, RunsFollowASequence) {
  for (const Case& c : meshes())
    for (const ordinal_t run : {2, 8}) {
      SCOPED_TRACE(c.name + ", runs of " + std::to_string(run));
      const std::vector<ordinal_t> seq = morton_order(c.mesh);
      std::vector<ordinal_t> sorted = seq, pos(seq.size());
      std::sort(sorted.begin(), sorted.end());
      for (std::size_t i = 0; i < seq.size(); ++i) EXPECT_EQ(sorted[i], ordinal_t(i));
      for (std::size_t i = 0; i < seq.size(); ++i) pos[seq[i]] = ordinal_t(i);
      const Coloring col = greedy_coloring(c.mesh, run, seq);
      EXPECT_EQ(std::size_t(col.offsets.back()), seq.size());
      for (int k = 0; k < col.num_colors(); ++k)
        for (ordinal_t p = col.offsets[k]; p < col.offsets[k + 1]; ++p) {
          EXPECT_EQ(col.color[col.order[p]], k);
          EXPECT_EQ(col.color[col.order[p]], col.color[seq[pos[col.order[p]] / run * run]]);
          if (p > col.offsets[k] && pos[col.order[p]] % run != 0) {
            EXPECT_EQ(pos[col.order[p]], pos[col.order[p - 1]] + 1) << "a run is split";
          }
        }
      const NodeIncidence inc = node_incidence(c.mesh);
      for (std::size_t n = 0; n < c.mesh.num_nodes(); ++n)
        for (offset_t i = inc.start[n]; i < inc.start[n + 1]; ++i)
          for (offset_t j = i + 1; j < inc.start[n + 1]; ++j) {
            const ordinal_t a = inc.elements[i], b = inc.elements[j];
            if (pos[a] / run != pos[b] / run) {
              EXPECT_NE(col.color[a], col.color[b]) << "elements " << a << ", " << b;
            }
          }
    }
}

// Any box with >= 2 elements per direction needs 8 colours (the 8 elements around an inner node
// form a clique); greedy in natural order achieves it with the parity pattern of (i, j, k).
TEST(GreedyColoring, StructuredBoxInNaturalOrderUsesEightColours) {
  for (const BoxSpec s : {BoxSpec{2, 2, 2, 1, 1, 1}, BoxSpec{7, 4, 3, 1, 1, 1}, BoxSpec{16, 2, 2, 1, 1, 1}}) {
    const Coloring col = greedy_coloring(make_box(s));
    EXPECT_EQ(col.num_colors(), 8);
    for (ordinal_t k = 0, e = 0; k < s.nz; ++k)
      for (ordinal_t j = 0; j < s.ny; ++j)
        for (ordinal_t i = 0; i < s.nx; ++i, ++e)
          EXPECT_EQ(col.color[e], i % 2 + 2 * (j % 2) + 4 * (k % 2)) << e;
  }
}

TEST(GreedyColoring, ValidForTrianglesAndPrisms) {
  Mesh distorted = make_prism_box(BoxSpec{5, 4, 3, 5, 4, 3});
  distort(distorted, 0.15, 2);
  const Case cases[] = {
      {"tri_6x5", make_tri_box(6, 5, 6, 5)},
      {"prism_4x3x2", make_prism_box(BoxSpec{4, 3, 2, 4, 3, 2})},
      {"prism_shuffled",
       shuffle_elements(renumber_nodes(distorted, node_permutation(distorted, Renumbering::rcm, 0)), 5)}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Coloring col = greedy_coloring(c.mesh);
    EXPECT_EQ(check_coloring(c.mesh, col), "");
    expect_grouped(col);
    // 6 triangles (or 12 prisms in two layers) share an interior node: a clique that needs that many colours.
    EXPECT_GE(col.num_colors(), c.mesh.cell == CellType::tri3 ? 6 : 12);
  }
}

// The checker sees conflicts through the first nodes_per_element() slots only (the -1 tail is no node).
TEST(CheckColoring, NamesAConflictBetweenTriangles) {
  // Triangles (0 1 4) (0 4 3) | (1 2 5) (1 5 4): 1 and 2 share no node, 0 and 3 share nodes 1 and 4.
  const Mesh mesh = make_tri_box(2, 1, 2, 1);
  EXPECT_EQ(check_coloring(mesh, group_by_color({0, 1, 1, 2})), "");
  const std::string msg = check_coloring(mesh, group_by_color({0, 1, 2, 0}));
  EXPECT_NE(msg.find("elements 0 and 3 share node 1"), std::string::npos) << msg;
}

TEST(GroupByColor, HandExample) {
  const Coloring c = group_by_color({2, 0, 1, 0, 2, 1});
  EXPECT_EQ(c.offsets, (std::vector<ordinal_t>{0, 2, 4, 6}));
  EXPECT_EQ(c.order, (std::vector<ordinal_t>{1, 3, 2, 5, 0, 4}));
  EXPECT_EQ(c.color, (std::vector<ordinal_t>{2, 0, 1, 0, 2, 1}));
}

TEST(CheckColoring, NamesBothElementsOfAConflict) {
  const Mesh mesh = make_box(BoxSpec{4, 4, 4, 1, 1, 1});
  std::vector<ordinal_t> color = greedy_coloring(mesh).color;
  // Elements 21 = (1,1,1) and 22 = (2,1,1) share a face; a fresh colour 8 isolates that one conflict.
  color[21] = color[22] = 8;
  const std::string msg = check_coloring(mesh, group_by_color(color));
  EXPECT_NE(msg.find("elements 21 and 22"), std::string::npos) << msg;

  // Control: the same fresh colour on two elements far apart (opposite corners) is fine.
  color = greedy_coloring(mesh).color;
  color[0] = color[63] = 8;
  EXPECT_EQ(check_coloring(mesh, group_by_color(color)), "");

  Coloring short_one = greedy_coloring(mesh);
  short_one.color.pop_back();
  EXPECT_NE(check_coloring(mesh, short_one), "");
}

// A device colouring in the host's type (colours, offsets, order), for the host's checks.
template <class Mem>
Coloring on_host(const DeviceColoring<Mem>& d) {
  Coloring c;
  c.offsets = d.offsets;
  const auto color = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.color);
  const auto order = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.order);
  c.color.assign(color.data(), color.data() + color.extent(0));
  c.order.assign(order.data(), order.data() + order.extent(0));
  return c;
}

template <class Space>
class OnTheSpace : public ::testing::Test {};
TYPED_TEST_SUITE(OnTheSpace, ExecSpaces, SpaceName);

// Box meshes, whatever their numbering or shape, take their cells' parity: 8 colours.
TYPED_TEST(OnTheSpace, BoxesTakeEightColoursGroupedOnTheSpace) {
  const TypeParam exec;
  Mesh shuffled = make_box(BoxSpec{7, 4, 3, 7.0, 4.0, 3.0});
  shuffled =
      shuffle_elements(renumber_nodes(shuffled, node_permutation(shuffled, Renumbering::random, 3)), 5);
  std::vector<Case> cases = meshes();
  cases.push_back({"box_7x4x3_shuffled", shuffled});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const auto dm = to_device(exec, c.mesh);
    const auto col = device_coloring(exec, dm.conn, dm.num_nodes);
    EXPECT_STREQ(col.method, "box parity");
    const Coloring h = on_host(col);
    EXPECT_EQ(check_coloring(c.mesh, h), "");
    expect_grouped(h);
    EXPECT_EQ(col.num_colors(), 8);
    EXPECT_EQ(coloring_conflict(exec, dm.conn, dm.num_nodes, 8, col.color, col.num_colors()), "");
  }
}

// Other meshes go to Kokkos Kernels: a box with an element taken out (hex8, not a box), prisms, triangles.
TYPED_TEST(OnTheSpace, OtherMeshesTakeKokkosKernelsColours) {
  const TypeParam exec;
  Mesh holed = make_box(BoxSpec{4, 3, 3, 4.0, 3.0, 3.0});
  holed.elements.erase(holed.elements.begin() + 17);
  const Case cases[] = {{"box_4x3x3_holed", holed},
                        {"prism_4x3x2", make_prism_box(BoxSpec{4, 3, 2, 4, 3, 2})},
                        {"tri_6x5", make_tri_box(6, 5, 6, 5)}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const auto dm = to_device(exec, c.mesh);
    const int npe = c.mesh.nodes_per_element();
    const auto col = device_coloring(exec, dm.conn, dm.num_nodes, npe);
    EXPECT_STREQ(col.method, "kokkos kernels");
    const Coloring h = on_host(col);
    EXPECT_EQ(check_coloring(c.mesh, h), "");
    expect_grouped(h);
    EXPECT_LE(col.num_colors(), 27);
    EXPECT_EQ(coloring_conflict(exec, dm.conn, dm.num_nodes, npe, col.color, col.num_colors()), "");
  }
}

// The check on the space finds one wrong colour anywhere: each element in turn takes the colour of
// an element it shares a node with.
TYPED_TEST(OnTheSpace, CheckFindsEveryWrongColour) {
  const TypeParam exec;
  const Mesh mesh = make_box(BoxSpec{3, 3, 2, 3.0, 3.0, 2.0});
  const auto dm = to_device(exec, mesh);
  const Coloring good = greedy_coloring(mesh);
  const NodeIncidence inc = node_incidence(mesh);
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) {
    ordinal_t other = -1;  // a neighbour through a node, found from a different corner each time
    for (int a = 0; a < 8 && other < 0; ++a) {
      const ordinal_t n = mesh.elements[e][(a + e) % 8];
      for (offset_t k = inc.start[n]; k < inc.start[n + 1] && other < 0; ++k)
        if (inc.elements[k] != ordinal_t(e)) other = inc.elements[k];
    }
    ASSERT_GE(other, 0);
    std::vector<ordinal_t> color = good.color;
    color[e] = color[std::size_t(other)];
    const auto d = to_device(exec, color, "colors");
    const std::string msg = coloring_conflict(exec, dm.conn, dm.num_nodes, 8, d, good.num_colors());
    EXPECT_NE(msg.find("with another element of colour " + std::to_string(color[e])), std::string::npos)
        << "element " << e << ": " << msg;
  }
}
}  // namespace
}  // namespace kfem::test
