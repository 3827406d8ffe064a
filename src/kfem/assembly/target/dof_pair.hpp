// Target `dof pair`: no CSR at all. The block (a, b) is named by its global DOF rows and columns,
// so an adder that builds its own storage (a-COO's row lists) or applies Ke on the fly
// (element-by-element y += Ke x) can take the same generic mappings as the CSR targets.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/core/types.hpp"
#include "kfem/sparsity/dof_graph.hpp"

namespace kfem::target {
struct DofPair {
  ordinal_t row, col;
};
// Component pair (c, d) of a node block: DOF (row0 + c, col0 + d).
struct PairRef {
  ordinal_t row0, col0;
  KOKKOS_INLINE_FUNCTION DofPair operator()(int c, int d) const { return {row0 + c, col0 + d}; }
};

template <class Layout, class MemorySpace>
struct DofPairs {
  static constexpr const char* name = "dof-pair";
  int components = 1;
  Kokkos::View<const ordinal_t**, Layout, MemorySpace> nodes;  // as launched

  KOKKOS_INLINE_FUNCTION PairRef operator()(ordinal_t e, int a, int b) const {
    return {ordinal_t(components * nodes(e, a)), ordinal_t(components * nodes(e, b))};
  }
  double bytes_per_element() const { return double(sizeof(ordinal_t)) * nodes.extent(1); }

  template <class Exec, class Nodes>
  static DofPairs make(const Exec&, const Nodes& launch_nodes, int components) {
    DofPairs t;
    t.components = components;
    t.nodes = Kokkos::View<const ordinal_t**, Layout, MemorySpace>(launch_nodes);
    return t;
  }
};

// Registry tag.
struct DofPairTag {
  template <class Layout, class MemorySpace>
  using type = DofPairs<Layout, MemorySpace>;
};
}  // namespace kfem::target
