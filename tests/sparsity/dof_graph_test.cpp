// The device DOF graph against the host oracle pattern, and the per-element CSR index
// (Hex8ElementData::slot) checked entry by entry in both layouts.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "assembly/fixture.hpp"
#include "backends.hpp"
#include "kfem/assembly/hex8_element_data.hpp"

namespace kfem::test {
namespace {
template <class Space>
class Sparsity : public ::testing::Test {};
TYPED_TEST_SUITE(Sparsity, ExecSpaces, SpaceName);

struct Case {
  std::string name;
  Mesh mesh;
};
// box_9x7x5: 315 elements, more than one of the host element data's tiles of 256, the last one partial.
std::vector<Case> meshes() {
  return {{"distorted_beam", distorted_beam()},
          {"box_4x3x2", make_box(BoxSpec{4, 3, 2, 4.0, 3.0, 2.0})},
          {"box_9x7x5", make_box(BoxSpec{9, 7, 5, 9.0, 7.0, 5.0})}};
}

template <class V>
std::vector<typename V::non_const_value_type> to_vector(const V& v) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return {h.data(), h.data() + h.extent(0)};
}

TYPED_TEST(Sparsity, DeviceGraphEqualsOraclePattern) {
  const TypeParam exec;
  for (const Case& c : meshes()) {
    SCOPED_TRACE(c.name);
    const HostCsr<double> ref = reference_pattern(c.mesh);
    const DeviceMesh<typename TypeParam::memory_space> dm = to_device(exec, c.mesh);
    const auto g = build_dof_graph(exec, dm.conn, dm.num_nodes);
    exec.fence();
    ASSERT_EQ(g.dof.num_rows, ref.num_rows);
    const auto rows = to_vector(g.dof.row_map);
    const auto cols = to_vector(g.dof.cols);
    EXPECT_EQ(rows, ref.row_map);
    EXPECT_EQ(cols, ref.cols);
    std::vector<offset_t> around(c.mesh.num_nodes(), 0);
    for (const auto& el : c.mesh.elements)
      for (int a = 0; a < 8; ++a) ++around[el[a]];
    EXPECT_EQ(g.most_elements, *std::max_element(around.begin(), around.end()));
    for (ordinal_t r = 0; r < g.dof.num_rows; ++r)
      for (offset_t k = rows[r] + 1; k < rows[r + 1]; ++k)
        ASSERT_LT(cols[k - 1], cols[k]) << "row " << r << " not sorted and unique at " << k;

    // The node graph is the DOF graph with the 3x3 blocks collapsed.
    const auto nrows = to_vector(g.node.row_map);
    const auto ncols = to_vector(g.node.cols);
    ASSERT_EQ(g.node.num_rows, ordinal_t(c.mesh.num_nodes()));
    for (ordinal_t n = 0; n < g.node.num_rows; ++n) {
      ASSERT_EQ(rows[3 * n + 1] - rows[3 * n], 3 * (nrows[n + 1] - nrows[n])) << "node " << n;
      for (offset_t k = nrows[n]; k < nrows[n + 1]; ++k)
        EXPECT_EQ(cols[rows[3 * n] + 3 * (k - nrows[n])], 3 * ncols[k]) << "node " << n;
    }
  }
}

// Both ways of making a node's neighbours a sorted set (one lane sorts, 32 lanes sort bitonically),
// on every backend: hex8 (3 DOFs per node), tri3 (1), prism p = 3 (rows of up to ~250 candidates,
// not a power of two) and a mesh with a node that no element uses (an empty row).
TYPED_TEST(Sparsity, BothNeighbourAlgorithmsEqualOraclePattern) {
  const TypeParam exec;
  using Mem = typename TypeParam::memory_space;
  struct Family {
    std::string name;
    std::vector<ordinal_t> element_nodes;
    int npe;
    ordinal_t num_nodes;
    int components;
  };
  const auto vertices = [](const Mesh& m, int nv) {
    std::vector<ordinal_t> out;
    for (const auto& el : m.elements) out.insert(out.end(), el.begin(), el.begin() + nv);
    return out;
  };
  std::vector<Family> cases;
  const Mesh beam = distorted_beam();
  cases.push_back({"hex8", vertices(beam, 8), 8, ordinal_t(beam.num_nodes()), 3});
  const Mesh tri = make_tri_box(5, 4, 1.0, 1.0);
  cases.push_back({"tri3", vertices(tri, 3), 3, ordinal_t(tri.num_nodes()), 1});
  const Mesh prisms = make_prism_box(BoxSpec{2, 2, 1, 2.0, 2.0, 1.0});
  const DofMap p3 = lagrange_dof_map(prisms, 3);
  cases.push_back({"prism p=3", p3.element_nodes, p3.nodes_per_element, p3.num_nodes, 3});
  cases.push_back({"hex8 + unused node", vertices(beam, 8), 8, ordinal_t(beam.num_nodes()) + 1, 3});
  for (const Family& c : cases)
    for (int lanes : {1, 32}) {
      SCOPED_TRACE(c.name + ", lanes " + std::to_string(lanes));
      const std::size_t ne = c.element_nodes.size() / std::size_t(c.npe);
      Kokkos::View<ordinal_t**, Kokkos::LayoutRight, Mem> conn("conn", ne, c.npe);
      const auto h = Kokkos::create_mirror_view(conn);
      for (std::size_t e = 0; e < ne; ++e)
        for (int a = 0; a < c.npe; ++a) h(e, a) = c.element_nodes[e * c.npe + a];
      Kokkos::deep_copy(conn, h);
      const auto g = build_dof_graph(exec, conn, c.num_nodes, c.components, lanes);
      exec.fence();
      const HostCsr<double> ref = reference_pattern(c.element_nodes, c.npe, c.num_nodes, c.components);
      EXPECT_EQ(to_vector(g.dof.row_map), ref.row_map);
      EXPECT_EQ(to_vector(g.dof.cols), ref.cols);
    }
}

// Every slot(e,i,j) must land in row 3*node(i/3)+i%3 at column 3*node(j/3)+j%3; elements are
// taken in a non-trivial (reversed) order so `order` is exercised too.
// kept: the graph is built again with its workspace kept (as the set-up keeps it), and the element
// data must take that block and equal the one made in fresh memory.
template <class Layout, bool Lower = false, class Exec>
void check_element_index(const Exec& exec, const Mesh& mesh, bool kept = false) {
  using Mem = typename Exec::memory_space;
  const Problem<Exec> p = make_problem(exec, mesh);
  const ordinal_t ne = p.num_elements();
  Kokkos::View<ordinal_t*, Mem> order("order", ne);
  const auto horder = Kokkos::create_mirror_view(order);
  for (ordinal_t e = 0; e < ne; ++e) horder(e) = ne - 1 - e;
  Kokkos::deep_copy(exec, order, horder);
  const auto& target = Lower ? p.lower : p.graph.dof;
  typename Carve<Mem>::Bytes reuse;
  if (kept) {
    const std::size_t bytes = Carve<Mem>::total(Hex8ElementData<double, Layout, Mem, Lower>::parts(ne));
    const Spare<Mem> spare;
    const auto g =
        build_dof_graph(exec, p.mesh.conn, p.mesh.num_nodes, 3, 0, KeepWorkspace<Mem>{bytes, &spare});
    exec.fence();
    EXPECT_EQ(to_vector(g.dof.cols), to_vector(p.graph.dof.cols));
    EXPECT_EQ(to_vector(g.node.cols), to_vector(p.graph.node.cols));
    ASSERT_GE(spare.bytes(), bytes);
    reuse = spare.take();
  }
  const unsigned char* const block = reuse.data();
  const auto d = make_hex8_element_data<double, Layout, Lower>(exec, p.mesh.coords, p.mesh.conn, order,
                                                               p.graph, target, reuse);
  exec.fence();
  if (kept) {
    EXPECT_EQ(d.storage.data(), block) << "the kept workspace was not used";
  }

  Hex8ElementData<double, Layout, Kokkos::HostSpace, Lower> h;  // host mirror so slot() runs here
  h.num_elements = d.num_elements;
  h.coords = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.coords);
  h.nodes = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.nodes);
  h.row = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.row);
  h.block = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.block);
  h.stride = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.stride);
  const auto rows = to_vector(target.row_map);
  const auto cols = to_vector(target.cols);

  ASSERT_EQ(h.num_elements, ne);
  for (ordinal_t e = 0; e < ne; ++e) {
    const auto& el = mesh.elements[ne - 1 - e];
    for (int a = 0; a < 8; ++a) {
      ASSERT_EQ(h.nodes(e, a), el[a]) << "element " << e;
      for (int j = 0; j < 3; ++j)
        ASSERT_EQ(h.coords(e, 3 * a + j), mesh.nodes[el[a]][j] - mesh.nodes[el[0]][j]);  // relative to node 0
    }
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < 24; ++j) {
        ordinal_t row = 3 * el[i / 3] + i % 3, col = 3 * el[j / 3] + j % 3;
        if (Lower && col > row) std::swap(row, col);  // lower storage holds the mirrored entry
        const offset_t s = h.slot(e, i, j);
        ASSERT_GE(s, rows[row]) << "e " << e << " (" << i << "," << j << ") outside row " << row;
        ASSERT_LT(s, rows[row + 1]) << "e " << e << " (" << i << "," << j << ") outside row " << row;
        ASSERT_EQ(cols[s], col) << "e " << e << " (" << i << "," << j << ")";
      }
  }
}

TYPED_TEST(Sparsity, ElementIndexLayoutLeft) {
  for (const Case& c : meshes()) {
    SCOPED_TRACE(c.name);
    check_element_index<Kokkos::LayoutLeft>(TypeParam(), c.mesh);
  }
}

TYPED_TEST(Sparsity, ElementIndexLayoutRight) {
  for (const Case& c : meshes()) {
    SCOPED_TRACE(c.name);
    check_element_index<Kokkos::LayoutRight>(TypeParam(), c.mesh);
  }
}

TYPED_TEST(Sparsity, ElementIndexLowerStorage) {
  for (const Case& c : meshes()) {
    SCOPED_TRACE(c.name);
    check_element_index<Kokkos::LayoutRight, true>(TypeParam(), c.mesh);
    check_element_index<Kokkos::LayoutLeft, true>(TypeParam(), c.mesh);
  }
}

TYPED_TEST(Sparsity, ElementIndexInTheGraphsKeptWorkspace) {
  for (const Case& c : meshes()) {
    SCOPED_TRACE(c.name);
    check_element_index<Kokkos::LayoutRight>(TypeParam(), c.mesh, true);
    check_element_index<Kokkos::LayoutLeft, true>(TypeParam(), c.mesh, true);
  }
}

// A block's place in its row is 16-bit: a node with more neighbours than that addresses is refused
// with the count named, not wrapped. 3200 elements share node 0 (22,401 neighbours, itself included).
TYPED_TEST(Sparsity, ElementIndexRefusesTooManyNeighbours) {
  const TypeParam exec;
  Mesh fan;
  fan.nodes.assign(1 + 7 * 3200, {0.0, 0.0, 0.0});
  for (ordinal_t e = 0; e < 3200; ++e) {
    std::array<ordinal_t, max_cell_vertices> el{};
    el[0] = 0;
    for (int a = 1; a < 8; ++a) el[a] = 1 + 7 * e + (a - 1);
    fan.elements.push_back(el);
  }
  const Problem<TypeParam> p = make_problem(exec, fan);
  EXPECT_EQ(p.graph.most_elements, 3200);  // too many for the bound: the longest row is measured
  try {
    make_hex8_element_data<double, Kokkos::LayoutRight>(exec, p.mesh.coords, p.mesh.conn, p.natural, p.graph,
                                                        p.graph.dof);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the hex8 element index holds at most 21846"), std::string::npos)
        << e.what();
  }
}
}  // namespace
}  // namespace kfem::test
