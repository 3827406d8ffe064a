// Node permutations (natural, random, RCM), node renumbering and element shuffling.
#include "kfem/mesh/renumber.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "kfem/mesh/box.hpp"
#include "kfem/mesh/validate.hpp"

namespace kfem {
namespace {
bool is_bijection(const std::vector<ordinal_t>& perm) {
  std::vector<ordinal_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != ordinal_t(i)) return false;
  return true;
}

// Two boxes side by side that share no node: a node graph with two components.
Mesh two_boxes() {
  Mesh a = make_box(BoxSpec{6, 2, 2, 6, 2, 2}), b = make_box(BoxSpec{3, 3, 2, 3, 3, 2});
  const auto offset = ordinal_t(a.num_nodes());
  for (auto p : b.nodes) a.nodes.push_back({p[0] + 10, p[1], p[2]});
  for (auto el : b.elements) {
    for (auto& v : el) v += offset;
    a.elements.push_back(el);
  }
  return a;
}

TEST(Renumber, EveryKindIsABijection) {
  const Mesh mesh = make_box(BoxSpec{10, 3, 4, 10, 3, 4});
  for (Renumbering kind : {Renumbering::natural, Renumbering::random, Renumbering::rcm}) {
    const auto perm = node_permutation(mesh, kind, 3);
    EXPECT_EQ(perm.size(), mesh.num_nodes());
    EXPECT_TRUE(is_bijection(perm)) << int(kind);
  }
  EXPECT_TRUE(is_bijection(node_permutation(two_boxes(), Renumbering::rcm, 0)));
}

TEST(Renumber, NaturalIsIdentityAndRandomIsSeeded) {
  const Mesh mesh = make_box(BoxSpec{});
  const auto natural = node_permutation(mesh, Renumbering::natural, 0);
  for (std::size_t i = 0; i < natural.size(); ++i) EXPECT_EQ(natural[i], ordinal_t(i));
  EXPECT_EQ(node_permutation(mesh, Renumbering::random, 5), node_permutation(mesh, Renumbering::random, 5));
  EXPECT_NE(node_permutation(mesh, Renumbering::random, 5), node_permutation(mesh, Renumbering::random, 6));
}

TEST(Renumber, PreservesElementGeometry) {
  Mesh mesh = make_box(BoxSpec{7, 3, 2, 7, 3, 2});
  distort(mesh, 0.2, 11);
  for (Renumbering kind : {Renumbering::random, Renumbering::rcm}) {
    const Mesh renumbered = renumber_nodes(mesh, node_permutation(mesh, kind, 9));
    ASSERT_EQ(renumbered.num_elements(), mesh.num_elements());
    for (std::size_t e = 0; e < mesh.num_elements(); ++e)
      for (int a = 0; a < 8; ++a)
        EXPECT_EQ(renumbered.nodes[renumbered.elements[e][a]], mesh.nodes[mesh.elements[e][a]]);
    EXPECT_NO_THROW(check_elements(renumbered, "renumbered"));
  }
}

TEST(Renumber, RejectsNonPermutations) {
  const Mesh mesh = make_box(BoxSpec{});
  std::vector<ordinal_t> perm = node_permutation(mesh, Renumbering::natural, 0);
  perm[1] = 0;
  EXPECT_THROW(renumber_nodes(mesh, perm), std::invalid_argument);
  perm.pop_back();
  EXPECT_THROW(renumber_nodes(mesh, perm), std::invalid_argument);
}

TEST(Renumber, RcmRestoresANarrowBandAfterARandomPermutation) {
  const Mesh natural = make_box(BoxSpec{32, 4, 4, 16, 2, 2});
  const Mesh scrambled = renumber_nodes(natural, node_permutation(natural, Renumbering::random, 1));
  const Mesh rcm = renumber_nodes(scrambled, node_permutation(scrambled, Renumbering::rcm, 0));
  const ordinal_t natural_bw = node_bandwidth(natural);
  EXPECT_EQ(natural_bw, 1 + 33 + 33 * 5);
  EXPECT_GT(node_bandwidth(scrambled), ordinal_t(0.9 * natural.num_nodes()));
  // Levels of a long box are cross-sections of 25 nodes, so the band spans about two of them.
  EXPECT_LE(node_bandwidth(rcm), natural_bw);
}

TEST(Renumber, RcmKeepsComponentsContiguous) {
  const Mesh mesh = two_boxes();
  const auto perm = node_permutation(mesh, Renumbering::rcm, 0);
  const Mesh rcm = renumber_nodes(mesh, perm);
  // Each component's nodes occupy one contiguous id range, so no element spans a huge gap.
  EXPECT_LT(node_bandwidth(rcm), 40);
}

TEST(Shuffle, PermutesElementRowsOnly) {
  const Mesh mesh = make_box(BoxSpec{5, 4, 3, 5, 4, 3});
  const Mesh shuffled = shuffle_elements(mesh, 2);
  EXPECT_EQ(shuffled.nodes, mesh.nodes);
  EXPECT_NE(shuffled.elements, mesh.elements);
  auto a = mesh.elements, b = shuffled.elements;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
  EXPECT_EQ(shuffle_elements(mesh, 2).elements, shuffled.elements);
}

TEST(Renumber, CarriesTheCellTypeAndRenumbersNodeSets) {
  for (CellType cell : {CellType::tri3, CellType::prism6, CellType::hex8}) {
    SCOPED_TRACE(cell_name(cell));
    Mesh mesh = make_box(BoxSpec{6, 3, 2, 6, 3, 2}, cell);
    distort(mesh, 0.15, 4);
    mesh.cell_sets["some"] = {1, 4, 5};
    const auto perm = node_permutation(mesh, Renumbering::random, 9);
    const Mesh renumbered = renumber_nodes(mesh, perm);
    EXPECT_EQ(renumbered.cell, cell);
    EXPECT_EQ(renumbered.cell_sets, mesh.cell_sets);
    for (std::size_t e = 0; e < mesh.num_elements(); ++e) {
      for (int a = 0; a < mesh.nodes_per_element(); ++a)
        EXPECT_EQ(renumbered.nodes[renumbered.elements[e][a]], mesh.nodes[mesh.elements[e][a]]);
      for (int a = mesh.nodes_per_element(); a < max_cell_vertices; ++a)
        EXPECT_EQ(renumbered.elements[e][a], -1);
    }
    ASSERT_EQ(renumbered.node_sets.size(), mesh.node_sets.size());
    for (const auto& [name, set] : mesh.node_sets) {
      const auto& moved = renumbered.node_sets.at(name);
      EXPECT_TRUE(std::is_sorted(moved.begin(), moved.end())) << name;
      std::vector<std::array<double, 3>> before, after;
      for (ordinal_t v : set) before.push_back(mesh.nodes[v]);
      for (ordinal_t v : moved) after.push_back(renumbered.nodes[v]);
      std::sort(before.begin(), before.end());
      std::sort(after.begin(), after.end());
      EXPECT_EQ(before, after) << name;
    }
    EXPECT_NO_THROW(check_elements(renumbered, "renumbered"));
    const Mesh rcm = renumber_nodes(renumbered, node_permutation(renumbered, Renumbering::rcm, 0));
    EXPECT_LE(node_bandwidth(rcm), node_bandwidth(mesh) + 8) << "RCM is about as narrow as the natural order";
  }
}

TEST(Shuffle, CellSetsFollowTheirElements) {
  for (CellType cell : {CellType::tri3, CellType::prism6, CellType::hex8}) {
    SCOPED_TRACE(cell_name(cell));
    Mesh mesh = make_box(BoxSpec{4, 3, 2, 4, 3, 2}, cell);
    mesh.cell_sets["even"] = {};
    for (ordinal_t e = 0; e < ordinal_t(mesh.num_elements()); e += 2) mesh.cell_sets["even"].push_back(e);
    const Mesh shuffled = shuffle_elements(mesh, 3);
    EXPECT_EQ(shuffled.cell, cell);
    EXPECT_EQ(shuffled.node_sets, mesh.node_sets);
    const auto& even = shuffled.cell_sets.at("even");
    EXPECT_TRUE(std::is_sorted(even.begin(), even.end()));
    std::vector<std::array<ordinal_t, 8>> before, after;
    for (ordinal_t e : mesh.cell_sets.at("even")) before.push_back(mesh.elements[e]);
    for (ordinal_t e : even) after.push_back(shuffled.elements[e]);
    std::sort(before.begin(), before.end());
    std::sort(after.begin(), after.end());
    EXPECT_EQ(before, after);
  }
}

TEST(NodeBandwidth, CountsOnlyTheCellsNodes) {
  const Mesh tri = make_tri_box(4, 2, 4, 2);
  EXPECT_EQ(node_bandwidth(tri), 1 + 5);  // triangle (i,j)(i+1,j)(i+1,j+1): ids differ by up to nx + 2
}

TEST(RandomPermutation, HandlesEmptyAndSingleton) {
  EXPECT_TRUE(random_permutation(0, 1).empty());
  EXPECT_EQ(random_permutation(1, 1), std::vector<ordinal_t>{0});
}
}  // namespace
}  // namespace kfem
