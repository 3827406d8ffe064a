// Node graph -> DOF CSR pattern with sorted columns, built on the device.
// Each element contributes its 8x8 node pairs; rows are then sorted and made unique in place
// (rows are short: at most 64 candidates per element touching a node, 27 survive inside a hex grid).
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/sparsity/csr.hpp"

namespace kfem {
template <class MemorySpace>
struct DofGraph {
  CsrGraph<MemorySpace> node;  // node adjacency (includes the node itself)
  CsrGraph<MemorySpace> dof;   // DOF pattern: row 3n+c, columns 3m+d for m in node row n
};

// Index of column m within the sorted row n of a CSR graph (binary search; m must be present).
template <class Rows, class Cols>
KOKKOS_INLINE_FUNCTION offset_t position_in_row(const Rows& rows, const Cols& cols, ordinal_t n, ordinal_t m) {
  offset_t lo = rows(n), hi = rows(n + 1);
  while (lo < hi) {
    const offset_t mid = (lo + hi) / 2;
    if (cols(mid) < m) lo = mid + 1; else hi = mid;
  }
  return lo - rows(n);
}

template <class Exec, class Conn>
DofGraph<typename Exec::memory_space> build_dof_graph(const Exec& exec, const Conn& conn, ordinal_t num_nodes) {
  using Mem = typename Exec::memory_space;
  using policy = Kokkos::RangePolicy<Exec>;
  const ordinal_t ne = static_cast<ordinal_t>(conn.extent(0));
  DofGraph<Mem> g;

  // 1. Upper bound per node: 8 candidates for each element incidence.
  Kokkos::View<offset_t*, Mem> bound("kfem::node_bound", num_nodes + 1);
  Kokkos::parallel_for("kfem::count_incidence", policy(exec, 0, ne), KOKKOS_LAMBDA(ordinal_t e) {
    for (int a = 0; a < 8; ++a) Kokkos::atomic_add(&bound(conn(e, a)), offset_t(8));
  });
  offset_t total = 0;
  Kokkos::parallel_scan("kfem::scan_bound", policy(exec, 0, num_nodes + 1),
      KOKKOS_LAMBDA(ordinal_t n, offset_t & sum, bool final) {
        const offset_t v = bound(n);
        if (final) bound(n) = sum;
        sum += v;
      }, total);

  // 2. Scatter candidates, then sort + unique each row in place.
  Kokkos::View<ordinal_t*, Mem> cand(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::node_candidates"), total);
  Kokkos::View<offset_t*, Mem> fill("kfem::node_fill", num_nodes);
  Kokkos::parallel_for("kfem::scatter_pairs", policy(exec, 0, ne), KOKKOS_LAMBDA(ordinal_t e) {
    for (int a = 0; a < 8; ++a) {
      const ordinal_t n = conn(e, a);
      const offset_t at = bound(n) + Kokkos::atomic_fetch_add(&fill(n), offset_t(8));
      for (int b = 0; b < 8; ++b) cand(at + b) = conn(e, b);
    }
  });
  Kokkos::View<offset_t*, Mem> deg("kfem::node_degree", num_nodes + 1);
  Kokkos::parallel_for("kfem::sort_unique_rows", policy(exec, 0, num_nodes), KOKKOS_LAMBDA(ordinal_t n) {
    const offset_t b = bound(n), e = bound(n + 1);
    for (offset_t i = b + 1; i < e; ++i) {  // insertion sort: rows hold at most a few hundred ids
      const ordinal_t v = cand(i);
      offset_t j = i;
      for (; j > b && cand(j - 1) > v; --j) cand(j) = cand(j - 1);
      cand(j) = v;
    }
    offset_t k = b;
    for (offset_t i = b; i < e; ++i)
      if (i == b || cand(i) != cand(k - 1)) cand(k++) = cand(i);
    deg(n) = k - b;
  });
  offset_t node_nnz = 0;
  Kokkos::View<offset_t*, Mem> node_rows("kfem::node_row_map", num_nodes + 1);
  Kokkos::parallel_scan("kfem::scan_degree", policy(exec, 0, num_nodes + 1),
      KOKKOS_LAMBDA(ordinal_t n, offset_t & sum, bool final) {
        if (final) node_rows(n) = sum;
        sum += deg(n);
      }, node_nnz);
  Kokkos::View<ordinal_t*, Mem> node_cols(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::node_cols"), node_nnz);
  Kokkos::parallel_for("kfem::compact_rows", policy(exec, 0, num_nodes), KOKKOS_LAMBDA(ordinal_t n) {
    for (offset_t k = 0; k < node_rows(n + 1) - node_rows(n); ++k) node_cols(node_rows(n) + k) = cand(bound(n) + k);
  });

  // 3. Expand nodes to DOFs: row 3n+c starts at 9*node_rows(n) + c*3*deg(n).
  const ordinal_t nd = dofs_per_node * num_nodes;
  Kokkos::View<offset_t*, Mem> dof_rows(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::row_map"), nd + 1);
  Kokkos::View<ordinal_t*, Mem> dof_cols(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::cols"), 9 * node_nnz);
  Kokkos::parallel_for("kfem::expand_dofs", policy(exec, 0, num_nodes), KOKKOS_LAMBDA(ordinal_t n) {
    const offset_t base = 9 * node_rows(n), len = node_rows(n + 1) - node_rows(n);
    for (int c = 0; c < 3; ++c) {
      const offset_t start = base + c * 3 * len;
      dof_rows(3 * n + c) = start;
      for (offset_t k = 0; k < len; ++k)
        for (int d = 0; d < 3; ++d) dof_cols(start + 3 * k + d) = 3 * node_cols(node_rows(n) + k) + d;
    }
    if (n == num_nodes - 1) dof_rows(nd) = 9 * node_rows(num_nodes);
  });
  g.node = {num_nodes, node_rows, node_cols};
  g.dof = {nd, dof_rows, dof_cols};
  return g;
}
}  // namespace kfem
