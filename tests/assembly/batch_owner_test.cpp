// Mapping batch-owner (hex8_batch_owner.hpp): its partition plan gives every row block one owner
// that sees all of the block's elements in the Morton order and zeroes it at the first, and its
// values are bitwise the same for any number of partitions (the sums run in one fixed order).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

#include "assembly/fixture.hpp"
#include "backends.hpp"
#include "kfem/assembly/assembler.hpp"
#include "kfem/assembly/mapping/hex8_batch_owner.hpp"

namespace kfem::test {
namespace {
// The plan as it was first written, on one host thread: the device plan must equal it entry by entry.
struct HostPlan {
  std::vector<ordinal_t> element, starts;
  std::vector<std::uint16_t> rows;
};
HostPlan host_plan(const Mesh& mesh, const std::vector<ordinal_t>& order, ordinal_t parts) {
  const ordinal_t ne = ordinal_t(order.size());
  parts = std::max<ordinal_t>(1, std::min(parts, ne));
  const auto begin = [&](ordinal_t k) { return ordinal_t(std::int64_t(k) * ne / parts); };
  std::vector<ordinal_t> first(mesh.num_nodes(), -1), part_of(ne);
  for (ordinal_t k = 0; k < parts; ++k)
    for (ordinal_t i = begin(k); i < begin(k + 1); ++i) part_of[i] = k;
  for (ordinal_t i = 0; i < ne; ++i)
    for (int a = 0; a < 8; ++a) {
      ordinal_t& f = first[mesh.elements[order[i]][a]];
      if (f < 0) f = i;
    }
  std::vector<std::vector<std::pair<ordinal_t, std::uint16_t>>> lists(parts);
  for (ordinal_t i = 0; i < ne; ++i) {
    const auto& el = mesh.elements[order[i]];
    ordinal_t owner[8];
    for (int a = 0; a < 8; ++a) owner[a] = part_of[first[el[a]]];
    for (int a = 0; a < 8; ++a) {
      if (std::find(owner, owner + a, owner[a]) != owner + a) continue;
      std::uint16_t m = 0;
      for (int b = 0; b < 8; ++b)
        if (owner[b] == owner[a]) m |= std::uint16_t((1u << b) | (first[el[b]] == i ? 1u << (8 + b) : 0u));
      lists[owner[a]].emplace_back(i, m);
    }
  }
  HostPlan plan;
  plan.starts.push_back(0);
  for (const auto& list : lists) {
    for (const auto& [i, m] : list) plan.element.push_back(order[i]), plan.rows.push_back(m);
    plan.starts.push_back(ordinal_t(plan.element.size()));
  }
  return plan;
}

template <class Space>
class BatchOwnerPlan : public ::testing::Test {};
TYPED_TEST_SUITE(BatchOwnerPlan, ExecSpaces, SpaceName);

TYPED_TEST(BatchOwnerPlan, EveryIncidenceOnceWithItsOwnerInMortonOrder) {
  using Exec = TypeParam;
  using Mem = typename Exec::memory_space;
  const Exec exec;
  const Mesh mesh = distorted_beam(6, 4, 3);
  const std::vector<ordinal_t> order = morton_order(mesh);
  std::vector<ordinal_t> position(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = ordinal_t(i);
  const DeviceMesh<Mem> dm = to_device(exec, mesh);
  const Kokkos::View<const ordinal_t*, Mem> device_order = to_device(exec, order, "order");
  for (ordinal_t parts : {1, 2, 5, 17, 72, 500}) {
    SCOPED_TRACE(parts);
    mapping::Hex8BatchOwnerData<double, Mem> d;
    const auto sequence =
        mapping::plan_hex8_owner_partitions(exec, device_order, dm.conn, dm.num_nodes, parts, d);
    HostPlan plan;
    const auto to_vector = [](const auto& v, auto& out) {
      const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
      out.assign(h.data(), h.data() + h.extent(0));
    };
    to_vector(sequence, plan.element);
    to_vector(d.starts, plan.starts);
    to_vector(d.rows, plan.rows);
    const HostPlan ref = host_plan(mesh, order, parts);
    EXPECT_EQ(plan.element, ref.element);
    EXPECT_EQ(plan.starts, ref.starts);
    EXPECT_EQ(plan.rows, ref.rows);
    EXPECT_EQ(d.partitions, ordinal_t(plan.starts.size() - 1));
    ASSERT_EQ(plan.starts.front(), 0);
    ASSERT_EQ(std::size_t(plan.starts.back()), plan.element.size());
    ASSERT_EQ(plan.rows.size(), plan.element.size());
    std::vector<int> owner(mesh.num_nodes(), -1), firsts(mesh.num_nodes(), 0);
    std::vector<ordinal_t> first_at(mesh.num_nodes(), -1);  // position of the zeroing entry
    std::set<std::pair<ordinal_t, int>> added;              // (element, node) incidences added
    for (std::size_t k = 0; k + 1 < plan.starts.size(); ++k) {
      ordinal_t previous = -1;
      for (ordinal_t i = plan.starts[k]; i < plan.starts[k + 1]; ++i) {
        const ordinal_t e = plan.element[i];
        EXPECT_GT(position[e], previous);  // Morton order within a partition
        previous = position[e];
        EXPECT_NE(plan.rows[i] & 0xff, 0);  // an entry adds to some row
        for (int a = 0; a < 8; ++a) {
          const ordinal_t n = mesh.elements[e][a];
          const bool owned = plan.rows[i] >> a & 1, zero = plan.rows[i] >> (8 + a) & 1;
          EXPECT_TRUE(owned || !zero);
          if (!owned) continue;
          EXPECT_TRUE(owner[n] < 0 || owner[n] == int(k));  // one owner per node
          owner[n] = int(k);
          EXPECT_TRUE(added.insert({e, a}).second);  // each incidence once
          if (zero) ++firsts[n], first_at[n] = position[e];
          EXPECT_GE(position[e], first_at[n]);  // no add before the zeroing
          EXPECT_GE(first_at[n], 0);
        }
      }
    }
    EXPECT_EQ(added.size(), 8 * mesh.num_elements());
    for (std::size_t n = 0; n < mesh.num_nodes(); ++n) EXPECT_EQ(firsts[n], 1) << "node " << n;
  }
}

template <class Space>
class BatchOwner : public ::testing::Test {};
TYPED_TEST_SUITE(BatchOwner, ExecSpaces, SpaceName);

template <class Exec, class S>
void check_partitions(const Exec& exec) {
  const Mesh mesh = distorted_beam(6, 4, 3);
  const HostCsr<double> ref = assemble_reference_hex8(mesh, steel());
  const Problem<Exec> p = make_problem(exec, mesh);
  const Isotropic<S> m{S(steel().lambda), S(steel().mu)};
  Kokkos::View<S*, typename Exec::memory_space> values("values", p.graph.dof.nnz());
  std::vector<S> serial;
  for (ordinal_t parts : {1, 3, 16, 72}) {  // one: the serial sum in the Morton order
    SCOPED_TRACE(parts);
    OwnerAssembler<Exec, fe::Elasticity<S>, mapping::Hex8BatchOwner, S> a(exec, p, {m},
                                                                          mapping::Hex8BatchOwner{parts});
    expect_owner_values(exec, p, a, values, ref, serial);
  }
}
TYPED_TEST(BatchOwner, DoubleBitwiseForAnyPartitionCount) {
  check_partitions<TypeParam, double>(TypeParam());
}
TYPED_TEST(BatchOwner, FloatBitwiseForAnyPartitionCount) {
  check_partitions<TypeParam, float>(TypeParam());
}
}  // namespace
}  // namespace kfem::test
