// Per-element inputs of the assembly kernels, stored element-wise in launch order (colour by
// colour when coloured) so the threads of a warp read them coalesced (kiran §4.1). The layout is
// the mapping's choice: LayoutLeft when one thread owns an element, LayoutRight when a warp does.
#pragma once
#include <Kokkos_Core.hpp>
#include <limits>

#include "kfem/core/error.hpp"
#include "kfem/sparsity/dof_graph.hpp"

namespace kfem {
template <class S, class Layout, class MemorySpace>
struct ElementData {
  using scalar_type = S;
  ordinal_t num_elements = 0;
  Kokkos::View<S* [24], Layout, MemorySpace> coords;      // x_a,j - x_0,j at 3a+j (see below)
  Kokkos::View<ordinal_t* [8], Layout, MemorySpace> nodes;  // global node ids
  // The CSR index (kiran §4.1): 64 entries per element, the position of (3 n_a, 3 n_b) at 8a+b;
  // stride(e,a) is the length of node a's DOF rows, so component c's row starts c*stride later.
  Kokkos::View<slot_t* [64], Layout, MemorySpace> block;
  Kokkos::View<slot_t* [8], Layout, MemorySpace> stride;

  // Position in the CSR value array of Ke(i, j).
  KOKKOS_INLINE_FUNCTION slot_t slot(ordinal_t e, int i, int j) const {
    return block(e, 8 * (i / 3) + j / 3) + (i % 3) * stride(e, i / 3) + j % 3;
  }
};

// Gathers coordinates and node ids of elements order(0..n) and computes their CSR index on the device.
template <class S, class Layout, class Exec, class Coords, class Conn, class Order>
ElementData<S, Layout, typename Exec::memory_space> make_element_data(const Exec& exec, const Coords& coords,
                                                                      const Conn& conn, const Order& order,
                                                                      const DofGraph<typename Exec::memory_space>& g) {
  using Mem = typename Exec::memory_space;
  if (g.dof.nnz() > std::numeric_limits<slot_t>::max())
    throw InputError("matrix has " + std::to_string(g.dof.nnz()) + " entries, more than 32-bit CSR slots address");
  const ordinal_t ne = static_cast<ordinal_t>(order.extent(0));
  ElementData<S, Layout, Mem> d;
  d.num_elements = ne;
  const auto alloc = [](const char* label) { return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)); };
  d.coords = decltype(d.coords)(alloc("kfem::elem_coords"), ne);
  d.nodes = decltype(d.nodes)(alloc("kfem::elem_nodes"), ne);
  d.block = decltype(d.block)(alloc("kfem::csr_index"), ne);
  d.stride = decltype(d.stride)(alloc("kfem::csr_stride"), ne);
  const auto node_rows = g.node.row_map;
  const auto node_cols = g.node.cols;
  const auto dof_rows = g.dof.row_map;
  const auto out = d;
  Kokkos::parallel_for("kfem::element_data", Kokkos::RangePolicy<Exec>(exec, 0, ne), KOKKOS_LAMBDA(ordinal_t e) {
    const ordinal_t src = order(e);
    const ordinal_t n0 = conn(src, 0);
    for (int a = 0; a < 8; ++a) {
      const ordinal_t na = conn(src, a);
      out.nodes(e, a) = na;
      // Relative to node 0, subtracted in double: J = sum_a dN_a x_a is translation invariant,
      // and absolute coordinates (x ~ 16 m, h ~ 0.03 m) would cost float J ~3 digits to cancellation.
      for (int j = 0; j < 3; ++j) out.coords(e, 3 * a + j) = S(coords(na, j) - coords(n0, j));
      out.stride(e, a) = slot_t(dof_rows(3 * na + 1) - dof_rows(3 * na));
      for (int b = 0; b < 8; ++b) {  // binary search for n_b in node row n_a
        const ordinal_t nb = conn(src, b);
        offset_t lo = node_rows(na), hi = node_rows(na + 1);
        while (lo < hi) {
          const offset_t mid = (lo + hi) / 2;
          if (node_cols(mid) < nb) lo = mid + 1; else hi = mid;
        }
        out.block(e, 8 * a + b) = slot_t(dof_rows(3 * na) + 3 * (lo - node_rows(na)));
      }
    }
  });
  return d;
}
}  // namespace kfem
