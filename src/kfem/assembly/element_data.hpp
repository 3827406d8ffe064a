// Per-element inputs of the assembly kernels, stored element-wise in launch order (colour by
// colour when coloured) so the threads of a warp read them coalesced (kiran §4.1). The layout is
// the mapping's choice: LayoutLeft when one thread owns an element, LayoutRight when a warp does.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/sparsity/dof_graph.hpp"

namespace kfem {
template <class S, class Layout, class MemorySpace, bool Lower = false>
struct ElementData {
  using scalar_type = S;
  static constexpr bool lower = Lower;  // target is the lower triangle only (symmetric storage)
  ordinal_t num_elements = 0;
  Kokkos::View<S* [24], Layout, MemorySpace> coords;        // x_a,j - x_0,j at 3a+j (see below)
  Kokkos::View<ordinal_t* [8], Layout, MemorySpace> nodes;  // global node ids
  // The CSR index (kiran §4.1): 64 entries per element, the position of (3 n_a, 3 n_b) at 8a+b;
  // stride(e,a) is how much later the next component's row of node a starts, less its column offset.
  // Lower storage keeps only blocks with n_b <= n_a: (a,b) and (b,a) then hold the same position.
  Kokkos::View<slot_t* [64], Layout, MemorySpace> block;
  Kokkos::View<row_length_t* [8], Layout, MemorySpace> stride;

  // Position in the CSR value array of Ke(i, j); for lower storage, of the mirrored entry when
  // Ke(i, j) lies above the diagonal of the global matrix (Ke is symmetric, so its value is the same).
  KOKKOS_INLINE_FUNCTION slot_t slot(ordinal_t e, int i, int j) const {
    if (Lower && (nodes(e, i / 3) < nodes(e, j / 3) || (i / 3 == j / 3 && i % 3 < j % 3)))
      return stored_slot(e, j, i);
    return stored_slot(e, i, j);
  }
  // Position of Ke(i, j) known to be stored (always so for full storage).
  KOKKOS_INLINE_FUNCTION slot_t stored_slot(ordinal_t e, int i, int j) const {
    return block(e, 8 * (i / 3) + j / 3) + row_offset(e, i / 3, i % 3) + j % 3;
  }
  // How much later than block(e, 8a+b) the component-c row of that block starts. Lower: row 3n+c
  // of node n holds 3*(lower neighbours) + c + 1 columns; c*(c+1)/2 counts the diagonal-block
  // entries of the earlier component rows.
  KOKKOS_INLINE_FUNCTION row_length_t row_offset(ordinal_t e, int a, int c) const {
    return c * stride(e, a) + (Lower ? c * (c + 1) / 2 : 0);
  }
};

// Gathers coordinates and node ids of elements order(0..n) and computes their CSR index on the
// device, for the full pattern (target = g.dof) or its lower triangle (Lower, target from lower_triangle).
template <class S, class Layout, bool Lower = false, class Exec, class Coords, class Conn, class Order>
ElementData<S, Layout, typename Exec::memory_space, Lower> make_element_data(
    const Exec& exec, const Coords& coords, const Conn& conn, const Order& order,
    const DofGraph<typename Exec::memory_space>& g, const CsrGraph<typename Exec::memory_space>& target) {
  using Mem = typename Exec::memory_space;
  const ordinal_t ne = static_cast<ordinal_t>(order.extent(0));
  ElementData<S, Layout, Mem, Lower> d;
  d.num_elements = ne;
  const auto alloc = [](const char* label) {
    return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label));
  };
  d.coords = decltype(d.coords)(alloc("kfem::elem_coords"), ne);
  d.nodes = decltype(d.nodes)(alloc("kfem::elem_nodes"), ne);
  d.block = decltype(d.block)(alloc("kfem::csr_index"), ne);
  d.stride = decltype(d.stride)(alloc("kfem::csr_stride"), ne);
  const auto node_rows = g.node.row_map;
  const auto node_cols = g.node.cols;
  const auto rows = target.row_map;
  const auto out = d;
  Kokkos::parallel_for(
      "kfem::element_data", Kokkos::RangePolicy<Exec>(exec, 0, ne), KOKKOS_LAMBDA(ordinal_t e) {
        const ordinal_t src = order(e);
        const ordinal_t n0 = conn(src, 0);
        for (int a = 0; a < 8; ++a) {
          const ordinal_t na = conn(src, a);
          out.nodes(e, a) = na;
          // Relative to node 0, subtracted in double: J = sum_a dN_a x_a is translation invariant,
          // and absolute coordinates (x ~ 16 m, h ~ 0.03 m) would cost float J ~3 digits to cancellation.
          for (int j = 0; j < 3; ++j) out.coords(e, 3 * a + j) = S(coords(na, j) - coords(n0, j));
          out.stride(e, a) = row_length_t(rows(3 * na + 1) - rows(3 * na) - (Lower ? 1 : 0));
          for (int b = 0; b < 8; ++b) {
            ordinal_t r = na, c = conn(src, b);
            if (Lower && c > r) r = c, c = na;  // the block lives in the row of the larger node
            out.block(e, 8 * a + b) = rows(3 * r) + 3 * position_in_row(node_rows, node_cols, r, c);
          }
        }
      });
  return d;
}
}  // namespace kfem
