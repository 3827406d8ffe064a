// Uniform tri3 refinement: counts, area, orientation, node sets (boundary edges only), cell sets.
#include "kfem/mesh/refine.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "kfem/core/error.hpp"
#include "kfem/mesh/box.hpp"
#include "kfem/mesh/validate.hpp"

namespace kfem {
namespace {
TEST(RefineUniform, TwiceOnATriBoxIsTheFinerBox) {
  const Mesh coarse = make_tri_box(3, 2, 3.0, 1.0);
  const Mesh fine = refine_uniform(coarse, 2);
  const Mesh box = make_tri_box(12, 8, 3.0, 1.0);
  EXPECT_EQ(fine.num_elements(), 16 * coarse.num_elements());
  EXPECT_EQ(fine.num_nodes(), box.num_nodes());
  for (std::size_t e = 0; e < fine.num_elements(); ++e) {  // 16 equal children fill each coarse triangle
    EXPECT_FALSE(element_defect(fine, e)) << e;            // counter-clockwise, not degenerate
    EXPECT_NEAR(element_volume(fine, e), 3.0 / fine.num_elements(), 1e-12) << e;
  }
  for (std::size_t v = 0; v < coarse.num_nodes(); ++v)  // the coarse vertices keep their ids and places
    EXPECT_EQ(fine.nodes[v], coarse.nodes[v]);
  for (const auto& [name, set] : box.node_sets) {
    ASSERT_TRUE(fine.node_sets.count(name)) << name;
    EXPECT_EQ(fine.node_sets.at(name).size(), set.size()) << name;
    EXPECT_TRUE(std::is_sorted(fine.node_sets.at(name).begin(), fine.node_sets.at(name).end())) << name;
  }
}

// A square of two triangles whose four corners are one boundary set: the diagonal is an interior
// chord between two of its nodes, so its midpoint must stay out of the set.
TEST(RefineUniform, ChordsDoNotJoinBoundarySets) {
  Mesh m;
  m.cell = CellType::tri3;
  m.nodes = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  m.elements = {{0, 1, 2, -1, -1, -1, -1, -1}, {0, 2, 3, -1, -1, -1, -1, -1}};
  m.node_sets["outer"] = {0, 1, 2, 3};
  m.node_sets["bottom"] = {0, 1};
  m.cell_sets["air"] = {1};
  const Mesh r = refine_uniform(m, 1);
  ASSERT_EQ(r.num_nodes(), 9u);  // 4 corners + 5 edges
  ASSERT_EQ(r.node_sets.at("outer").size(), 8u);
  for (const ordinal_t n : r.node_sets.at("outer")) {
    const auto& x = r.nodes[n];
    EXPECT_TRUE(x[0] == 0 || x[0] == 1 || x[1] == 0 || x[1] == 1) << n;
  }
  ASSERT_EQ(r.node_sets.at("bottom").size(), 3u);
  EXPECT_EQ(r.nodes[r.node_sets.at("bottom")[2]][0], 0.5);
  EXPECT_EQ(r.cell_sets.at("air"), (std::vector<ordinal_t>{4, 5, 6, 7}));
  EXPECT_EQ(refine_uniform(m, 0).num_elements(), 2u);
}

TEST(RefineUniform, BadRequestsAreInputErrors) {
  const Mesh tri = make_tri_box(1, 1, 1.0, 1.0);
  EXPECT_THROW(refine_uniform(tri, -1), InputError);
  EXPECT_THROW(refine_uniform(tri, 9), InputError);
  EXPECT_THROW(refine_uniform(make_box(BoxSpec{1, 1, 1}), 1), InputError);
}
}  // namespace
}  // namespace kfem
