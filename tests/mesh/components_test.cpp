// Connected components (bodies) of meshes of every family: numbering by first element, vertices no
// element uses, bodies touching at one vertex.
#include "kfem/mesh/components.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "kfem/mesh/box.hpp"

namespace kfem {
namespace {
// b's nodes and elements appended to a's (b's node ids shifted), so the two are separate bodies.
Mesh side_by_side(Mesh a, const Mesh& b) {
  const auto shift = ordinal_t(a.num_nodes());
  a.nodes.insert(a.nodes.end(), b.nodes.begin(), b.nodes.end());
  for (auto el : b.elements) {
    for (int k = 0; k < b.nodes_per_element(); ++k) el[k] += shift;
    a.elements.push_back(el);
  }
  return a;
}

TEST(MeshComponents, ABoxIsOneBody) {
  for (const Mesh& mesh : {make_box(BoxSpec{3, 2, 2, 3, 2, 2}), make_prism_box(BoxSpec{3, 2, 2, 3, 2, 2}),
                           make_tri_box(3, 2, 3, 2)}) {
    const MeshComponents c = mesh_components(mesh);
    EXPECT_EQ(c.count, 1);
    EXPECT_EQ(c.of_element, std::vector<ordinal_t>(mesh.num_elements(), 0));
    EXPECT_EQ(c.of_node, std::vector<ordinal_t>(mesh.num_nodes(), 0));
  }
}

TEST(MeshComponents, BodiesAreNumberedByTheirFirstElement) {
  const Mesh small = make_box(BoxSpec{1, 1, 1, 1, 1, 1}), large = make_box(BoxSpec{2, 1, 1, 2, 1, 1});
  Mesh mesh = side_by_side(large, small);  // elements 0, 1: large; 2: small
  std::swap(mesh.elements[0], mesh.elements[2]);
  const MeshComponents c = mesh_components(mesh);
  EXPECT_EQ(c.count, 2);
  EXPECT_EQ(c.of_element, (std::vector<ordinal_t>{0, 1, 1}));
  std::vector<ordinal_t> nodes(12, 1);
  nodes.resize(20, 0);
  EXPECT_EQ(c.of_node, nodes);
}

TEST(MeshComponents, ThreeTriangleBodiesAndAnUnusedVertex) {
  const Mesh tri = make_tri_box(1, 1, 1, 1);
  Mesh mesh = side_by_side(side_by_side(tri, tri), tri);
  mesh.nodes.push_back({9, 9, 0});
  const MeshComponents c = mesh_components(mesh);
  EXPECT_EQ(c.count, 3);
  EXPECT_EQ(c.of_element, (std::vector<ordinal_t>{0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(c.of_node.back(), -1);
}

TEST(MeshComponents, ElementsSharingOneVertexAreOneBody) {
  Mesh mesh =
      side_by_side(make_prism_box(BoxSpec{1, 1, 1, 1, 1, 1}), make_prism_box(BoxSpec{1, 1, 1, 1, 1, 1}));
  const ordinal_t corner = mesh.elements[2][0];
  for (auto& el : mesh.elements)  // the second box's first vertex becomes the first box's vertex 7
    for (auto& v : el)
      if (v == corner) v = 7;
  EXPECT_EQ(mesh_components(mesh).count, 1);
}
}  // namespace
}  // namespace kfem
