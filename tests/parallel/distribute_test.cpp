// Partitions and local parts, checked for every rank of 1..4 ranks without MPI (each part depends
// only on the replicated mesh): ownership, held elements, ghost order, halo lists that match on
// both sides, and owned rows of each local matrix equal to the global oracle's (no communication
// is needed to assemble them).
#include "kfem/parallel/distribute.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "kfem/assembly/reference.hpp"
#include "kfem/core/error.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/fe/elasticity.hpp"
#include "kfem/mesh/box.hpp"
#include "kfem/parallel/partition.hpp"

namespace kfem::parallel {
namespace {
Mesh hex_box() {
  return make_box(BoxSpec{8, 3, 2, 8.0, 3.0, 2.0});
}

void check_parts(const Mesh& mesh, const DofMap& dofs, int ranks, PartitionMethod method) {
  SCOPED_TRACE(std::string(cell_name(mesh.cell)) + " order " + std::to_string(dofs.order) + ", " +
               std::to_string(ranks) + " ranks, " + name_of(method));
  const std::vector<int> part = partition_elements(mesh, ranks, method);
  ASSERT_EQ(part.size(), mesh.num_elements());
  for (int p : part) ASSERT_TRUE(p >= 0 && p < ranks);
  const std::vector<int> owner = node_owners(dofs, part);
  std::vector<LocalPart> parts;
  for (int r = 0; r < ranks; ++r) parts.push_back(local_part(mesh, dofs, part, owner, r, ranks));

  std::vector<int> owned_by(std::size_t(dofs.num_nodes), 0);
  for (const LocalPart& lp : parts) {
    ASSERT_GT(lp.owned, 0);
    EXPECT_TRUE(std::is_sorted(lp.nodes.begin(), lp.nodes.begin() + lp.owned));
    for (ordinal_t i = 0; i < lp.owned; ++i) ++owned_by[std::size_t(lp.nodes[std::size_t(i)])];
    // ghosts grouped by owner, ascending global id inside a group
    for (ordinal_t i = lp.owned + 1; i < ordinal_t(lp.nodes.size()); ++i) {
      const ordinal_t a = lp.nodes[std::size_t(i - 1)], b = lp.nodes[std::size_t(i)];
      EXPECT_TRUE(owner[std::size_t(a)] < owner[std::size_t(b)] ||
                  (owner[std::size_t(a)] == owner[std::size_t(b)] && a < b));
      EXPECT_NE(owner[std::size_t(b)], lp.rank);
    }
    // every element around an owned node is held, and no other
    const std::set<ordinal_t> held(lp.elements.begin(), lp.elements.end());
    for (std::size_t e = 0; e < dofs.num_elements(); ++e) {
      bool touches = false;
      for (int a = 0; a < dofs.nodes_per_element; ++a)
        touches |= owner[std::size_t(dofs.element(e)[a])] == lp.rank;
      EXPECT_EQ(touches, held.count(ordinal_t(e)) == 1) << "element " << e;
    }
    // local DOF map and mesh name the same nodes and places as the global ones
    ASSERT_EQ(lp.dofs.num_elements(), lp.elements.size());
    for (std::size_t k = 0; k < lp.elements.size(); ++k) {
      const std::size_t e = std::size_t(lp.elements[k]);
      for (int a = 0; a < dofs.nodes_per_element; ++a)
        EXPECT_EQ(lp.nodes[std::size_t(lp.dofs.element(k)[a])], dofs.element(e)[a]);
      for (int a = 0; a < mesh.nodes_per_element(); ++a)
        EXPECT_EQ(lp.mesh.nodes[std::size_t(lp.mesh.elements[k][std::size_t(a)])],
                  mesh.nodes[std::size_t(mesh.elements[e][std::size_t(a)])]);
    }
  }
  for (ordinal_t n = 0; n < dofs.num_nodes; ++n) EXPECT_EQ(owned_by[std::size_t(n)], 1) << "node " << n;
  // what r sends q is, in order, what q receives from r
  for (const LocalPart& lp : parts)
    for (const Peer& p : lp.peers) {
      const LocalPart& other = parts[std::size_t(p.rank)];
      const auto back = std::find_if(other.peers.begin(), other.peers.end(),
                                     [&](const Peer& o) { return o.rank == lp.rank; });
      ASSERT_NE(back, other.peers.end());
      ASSERT_EQ(p.send.size(), std::size_t(back->recv_count));
      for (std::size_t i = 0; i < p.send.size(); ++i)
        EXPECT_EQ(lp.nodes[std::size_t(p.send[i])], other.nodes[std::size_t(back->recv_begin) + i]);
    }
}

TEST(Partition, RcbCutsTheLongestExtentIntoBalancedSlabs) {
  const Mesh mesh = hex_box();
  const std::vector<int> part = partition_elements(mesh, 2, PartitionMethod::rcb);
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) {
    double cx = 0;
    for (int a = 0; a < 8; ++a) cx += mesh.nodes[std::size_t(mesh.elements[e][std::size_t(a)])][0] / 8;
    EXPECT_EQ(part[e], cx < 4.0 ? 0 : 1) << "element " << e;
  }
  const std::vector<int> three = partition_elements(mesh, 3, PartitionMethod::rcb);
  for (int p = 0; p < 3; ++p) EXPECT_EQ(std::count(three.begin(), three.end(), p), 16);
}

TEST(Partition, MetisGivesEveryPartElements) {
  if (!metis_available()) GTEST_SKIP() << "built without METIS";
  const Mesh mesh = hex_box();
  for (int parts : {2, 3, 4}) {
    const std::vector<int> part = partition_elements(mesh, parts, PartitionMethod::metis);
    for (int p = 0; p < parts; ++p) EXPECT_GT(std::count(part.begin(), part.end(), p), 0);
    EXPECT_EQ(part, partition_elements(mesh, parts, PartitionMethod::metis)) << "not deterministic";
  }
}

TEST(Partition, RefusesMorePartsThanElements) {
  const Mesh mesh = make_box(BoxSpec{2, 1, 1, 2.0, 1.0, 1.0});
  EXPECT_THROW(partition_elements(mesh, 3, PartitionMethod::rcb), InputError);
  EXPECT_THROW(partition_elements(mesh, 0, PartitionMethod::rcb), InputError);
}

TEST(LocalPart, OneRankIsTheGlobalProblem) {
  const Mesh mesh = hex_box();
  const DofMap dofs = vertex_dof_map(mesh);
  const std::vector<int> part(mesh.num_elements(), 0);
  const LocalPart lp = local_part(mesh, dofs, part, node_owners(dofs, part), 0, 1);
  EXPECT_EQ(lp.owned, dofs.num_nodes);
  EXPECT_TRUE(lp.peers.empty());
  EXPECT_EQ(lp.dofs.element_nodes, dofs.element_nodes);
  EXPECT_EQ(lp.mesh.nodes, mesh.nodes);
}

TEST(LocalPart, EveryFamilyAndRankCount) {
  const Mesh hex = hex_box();
  const Mesh tri = make_tri_box(9, 5, 9.0, 5.0);
  const Mesh prism = make_prism_box(BoxSpec{5, 2, 2, 5.0, 2.0, 2.0});
  for (int ranks = 1; ranks <= 4; ++ranks)
    for (PartitionMethod m : {PartitionMethod::rcb, PartitionMethod::metis}) {
      if (m == PartitionMethod::metis && !metis_available()) continue;
      check_parts(hex, vertex_dof_map(hex), ranks, m);
      check_parts(tri, vertex_dof_map(tri), ranks, m);
      check_parts(prism, lagrange_dof_map(prism, 3), ranks, m);
    }
}

// The claim that makes assembly communication-free: the owned rows of a rank's local matrix are
// the global matrix's rows, entry by entry (the oracle on both, so equal to the last bit up to the
// order of the additions).
TEST(LocalPart, OwnedRowsOfTheLocalMatrixAreTheGlobalRows) {
  const Mesh mesh = make_box(BoxSpec{6, 3, 2, 6.0, 3.0, 2.0});
  const auto material = Isotropic<double>::from_young(200e9, 0.3);
  const HostCsr<double> K = assemble_reference_hex8(mesh, material);
  const DofMap dofs = vertex_dof_map(mesh);
  const std::vector<int> part = partition_elements(mesh, 3, PartitionMethod::rcb);
  const std::vector<int> owner = node_owners(dofs, part);
  for (int r = 0; r < 3; ++r) {
    const LocalPart lp = local_part(mesh, dofs, part, owner, r, 3);
    const HostCsr<double> L = assemble_reference_hex8(lp.mesh, material);
    for (ordinal_t i = 0; i < 3 * lp.owned; ++i) {
      const ordinal_t g = 3 * lp.nodes[std::size_t(i / 3)] + i % 3;
      ASSERT_EQ(L.row_map[std::size_t(i) + 1] - L.row_map[std::size_t(i)],
                K.row_map[std::size_t(g) + 1] - K.row_map[std::size_t(g)]);
      for (offset_t k = L.row_map[std::size_t(i)]; k < L.row_map[std::size_t(i) + 1]; ++k) {
        const ordinal_t c =
            3 * lp.nodes[std::size_t(L.cols[std::size_t(k)] / 3)] + L.cols[std::size_t(k)] % 3;
        const auto first = K.cols.begin() + K.row_map[std::size_t(g)],
                   last = K.cols.begin() + K.row_map[std::size_t(g) + 1];
        const auto at = std::lower_bound(first, last, c);
        ASSERT_TRUE(at != last && *at == c);
        EXPECT_NEAR(L.vals[std::size_t(k)], K.vals[std::size_t(at - K.cols.begin())], 1e-12 * 200e9);
      }
    }
  }
}
}  // namespace
}  // namespace kfem::parallel
