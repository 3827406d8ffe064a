// Target `index`: a per-element CSR index (kiran §4.1, generalised): for every node pair (a, b) the
// slot of the block's first entry, and per node the row stride. N_sh^2 + N_sh slots per element:
// 12 for tri3, 72 for hex8, 42 / 342 for prisms of order 1 / 2, but 82,944 at p = 7 (330 KB per
// element), so high orders use `search`. No search at assembly time: one load per block.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/assembly/target/block.hpp"
#include "kfem/sparsity/dof_graph.hpp"

namespace kfem::target {
namespace index_detail {
// Slots of every element's node-pair blocks. A named functor, not a KOKKOS_LAMBDA: several
// translation units build the index (see core/fill.hpp).
template <class Out, class Nodes, class MemorySpace>
struct Slots {
  Out out;
  Nodes nodes;
  Kokkos::View<const offset_t*, MemorySpace> node_rows, rows;
  Kokkos::View<const ordinal_t*, MemorySpace> node_cols;
  int n, C;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t e) const {
    for (int a = 0; a < n; ++a) {
      const ordinal_t na = nodes(e, a);
      out.stride(e, a) = row_length_t(rows(C * na + 1) - rows(C * na));
      for (int b = 0; b < n; ++b)
        out.block(e, a * n + b) =
            slot_t(rows(C * na) + C * position_in_row(node_rows, node_cols, na, nodes(e, b)));
    }
  }
};
}  // namespace index_detail

template <class Layout, class MemorySpace>
struct CsrIndex {
  static constexpr const char* name = "index";
  int nsh = 0;
  Kokkos::View<slot_t**, Layout, MemorySpace> block;         // ne x N_sh^2
  Kokkos::View<row_length_t**, Layout, MemorySpace> stride;  // ne x N_sh

  KOKKOS_INLINE_FUNCTION BlockRef operator()(ordinal_t e, int a, int b) const {
    return {block(e, a * nsh + b), stride(e, a)};
  }
  double bytes_per_element() const {
    return double(sizeof(slot_t)) * nsh * nsh + double(sizeof(row_length_t)) * nsh;
  }

  // nodes(e, a): global DOF node a of element e (launch order).
  template <class Exec, class Nodes>
  static CsrIndex make(const Exec& exec, const Nodes& nodes, const DofGraph<MemorySpace>& g) {
    CsrIndex t;
    const ordinal_t ne = static_cast<ordinal_t>(nodes.extent(0));
    const int n = t.nsh = static_cast<int>(nodes.extent(1));
    const int C = g.components;
    t.block =
        decltype(t.block)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::csr_index"), ne, n * n);
    t.stride = decltype(t.stride)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::csr_stride"), ne, n);
    Kokkos::parallel_for("kfem::csr_index", Kokkos::RangePolicy<Exec>(exec, 0, ne),
                         index_detail::Slots<CsrIndex, Nodes, MemorySpace>{t, nodes, g.node.row_map,
                                                                           g.dof.row_map, g.node.cols, n, C});
    return t;
  }
};

// Registry tag.
struct Index {
  static constexpr const char* name = "index";
  static constexpr const char* help = "a per-element table of CSR slots, built once (N^2 + N entries)";
  template <class Layout, class MemorySpace>
  using type = CsrIndex<Layout, MemorySpace>;
};
}  // namespace kfem::target
