// Target `search`: no per-element index at all. The block (a, b) is found at assembly time from
// per-node row offsets of the DOF graph and a binary search for node b in node a's row of the node
// graph (log2 of ~30..3000 columns), so index memory per element is O(N_sh): the element's node
// list the kernels read anyway. The price is the search, paid once per block (not per entry).
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/assembly/target/block.hpp"
#include "kfem/sparsity/dof_graph.hpp"

namespace kfem::target {
template <class Layout, class MemorySpace>
struct CsrSearch {
  static constexpr const char* name = "search";
  int components = 1;
  Kokkos::View<const offset_t*, MemorySpace> node_rows, dof_rows;
  Kokkos::View<const ordinal_t*, MemorySpace> node_cols;
  Kokkos::View<const ordinal_t**, Layout, MemorySpace> nodes;  // as launched

  KOKKOS_INLINE_FUNCTION BlockRef operator()(ordinal_t e, int a, int b) const {
    const ordinal_t na = nodes(e, a);
    const offset_t row = dof_rows(components * na);
    return {row + components * position_in_row(node_rows, node_cols, na, nodes(e, b)),
            row_length_t(dof_rows(components * na + 1) - row)};
  }
  // Its index data is the element's node list (which it searches with).
  double bytes_per_element() const { return double(sizeof(ordinal_t)) * nodes.extent(1); }

  template <class Exec, class Nodes>
  static CsrSearch make(const Exec&, const Nodes& launch_nodes, const DofGraph<MemorySpace>& g) {
    CsrSearch t;
    t.components = g.components;
    t.node_rows = g.node.row_map;
    t.node_cols = g.node.cols;
    t.dof_rows = g.dof.row_map;
    t.nodes = Kokkos::View<const ordinal_t**, Layout, MemorySpace>(launch_nodes);
    return t;
  }
};

// Registry tag.
struct Search {
  static constexpr const char* name = "search";
  static constexpr const char* help = "each entry's column found in its CSR row at assembly time (no table)";
  template <class Layout, class MemorySpace>
  using type = CsrSearch<Layout, MemorySpace>;
};
}  // namespace kfem::target
