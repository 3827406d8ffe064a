// Target of block storage (storage `bsr`): a per-element table of block slots, like `index`, but
// into C x C node blocks (C = DOFs per node) stored one after another, each row-major: block k of
// the node graph holds entries C^2 k .. C^2 k + C^2 - 1, and Ke's block (a, b) is the node-graph
// entry of (n_a, n_b). The index is N_sh^2 slots per element (64 for hex8), no per-node stride:
// inside a block the next component's row is always C further on.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/assembly/target/block.hpp"
#include "kfem/sparsity/dof_graph.hpp"

namespace kfem::target {
namespace bsr_detail {
// A named functor, not a KOKKOS_LAMBDA (core/fill.hpp says why).
template <class Out, class Nodes, class MemorySpace>
struct BlockSlots {
  Out out;
  Nodes nodes;
  Kokkos::View<const offset_t*, MemorySpace> node_rows;
  Kokkos::View<const ordinal_t*, MemorySpace> node_cols;
  int n, C;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t e) const {
    for (int a = 0; a < n; ++a) {
      const ordinal_t na = nodes(e, a);
      for (int b = 0; b < n; ++b)
        out.block(e, a * n + b) =
            slot_t(C) * C * (node_rows(na) + position_in_row(node_rows, node_cols, na, nodes(e, b)));
    }
  }
};
}  // namespace bsr_detail

template <class Layout, class MemorySpace>
struct BsrIndex {
  static constexpr const char* name = "blocks";
  int nsh = 0;
  row_length_t C = 1;
  Kokkos::View<slot_t**, Layout, MemorySpace> block;  // ne x N_sh^2: first entry of each node block

  // tour: bsr-target
  KOKKOS_INLINE_FUNCTION BlockRef operator()(ordinal_t e, int a, int b) const {
    return {block(e, a * nsh + b), C};
  }
  // tour: end bsr-target
  double bytes_per_element() const { return double(sizeof(slot_t)) * nsh * nsh; }

  // nodes(e, a): global DOF node a of element e (launch order); g.node is the block pattern.
  template <class Exec, class Nodes>
  static BsrIndex make(const Exec& exec, const Nodes& nodes, const DofGraph<MemorySpace>& g) {
    BsrIndex t;
    const ordinal_t ne = static_cast<ordinal_t>(nodes.extent(0));
    const int n = t.nsh = static_cast<int>(nodes.extent(1));
    t.C = row_length_t(g.components);
    t.block =
        decltype(t.block)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::bsr_index"), ne, n * n);
    Kokkos::parallel_for("kfem::bsr_index", Kokkos::RangePolicy<Exec>(exec, 0, ne),
                         bsr_detail::BlockSlots<BsrIndex, Nodes, MemorySpace>{t, nodes, g.node.row_map,
                                                                              g.node.cols, n, g.components});
    return t;
  }
};

// The tag of inputs::Family when the storage is blocks (not a --target choice: the storage picks it).
struct Blocks {
  static constexpr const char* name = "blocks";
  static constexpr const char* help =
      "a per-element table of node-block slots of block storage (N^2 entries)";
  template <class Layout, class MemorySpace>
  using type = BsrIndex<Layout, MemorySpace>;
};
}  // namespace kfem::target
