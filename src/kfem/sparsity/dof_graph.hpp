// Node graph -> DOF CSR pattern with sorted columns, built on the device, for any family: each
// element contributes its nodes-per-element squared node pairs; rows are then sorted and made unique
// in place. DOF r = components * node + c (components: 3 for elasticity, 1 for electrostatics).
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/core/scan.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem {
template <class MemorySpace>
struct DofGraph {
  CsrGraph<MemorySpace> node;  // node adjacency (includes the node itself)
  CsrGraph<MemorySpace> dof;   // DOF pattern: row C n + c, columns C m + d for m in node row n
  int components = 3;          // C, DOFs per node
};

// Sorts v[0, n) ascending on any backend. Rows of high-order elements reach thousands of candidates
// (a p = 7 prism vertex: ~12 elements x 288 nodes), where insertion sort's n^2 would dominate
// setup, so long rows take a heap sort; short rows (hex8, tri3) keep insertion sort.
template <class V>
KOKKOS_INLINE_FUNCTION void sort_row(V* v, offset_t n) {
  if (n <= 64) {
    for (offset_t i = 1; i < n; ++i) {
      const V x = v[i];
      offset_t j = i;
      for (; j > 0 && v[j - 1] > x; --j) v[j] = v[j - 1];
      v[j] = x;
    }
    return;
  }
  const auto sift = [&](offset_t root, offset_t end) {
    while (2 * root + 1 < end) {
      offset_t child = 2 * root + 1;
      if (child + 1 < end && v[child] < v[child + 1]) ++child;
      if (!(v[root] < v[child])) return;
      const V t = v[root];
      v[root] = v[child];
      v[child] = t;
      root = child;
    }
  };
  for (offset_t start = n / 2; start-- > 0;) sift(start, n);
  for (offset_t end = n - 1; end > 0; --end) {
    const V t = v[0];
    v[0] = v[end];
    v[end] = t;
    sift(0, end);
  }
}

// Index of column m within the sorted row n of a CSR graph (binary search; m must be present).
template <class Rows, class Cols>
KOKKOS_INLINE_FUNCTION offset_t position_in_row(const Rows& rows, const Cols& cols, ordinal_t n,
                                                ordinal_t m) {
  offset_t lo = rows(n), hi = rows(n + 1);
  while (lo < hi) {
    const offset_t mid = (lo + hi) / 2;
    if (cols(mid) < m)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo - rows(n);
}

namespace graph_detail {
// The kernels of build_dof_graph, as named functors rather than KOKKOS_LAMBDAs: the pipelines build
// graphs from several translation units, which nvcc's extended-lambda wrappers do not survive
// (see core/fill.hpp).
template <class Mem, class Conn>
struct CountIncidence {  // 1. upper bound per node: npe candidates per incidence
  Conn conn;
  Kokkos::View<offset_t*, Mem> bound;
  int npe;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t e) const {
    for (int a = 0; a < npe; ++a) Kokkos::atomic_add(&bound(conn(e, a)), offset_t(npe));
  }
};

template <class Mem, class Conn>
struct ScatterPairs {  // 2. every element's node pairs into their rows' candidate lists
  Conn conn;
  Kokkos::View<offset_t*, Mem> bound, fill;
  Kokkos::View<ordinal_t*, Mem> cand;
  int npe;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t e) const {
    for (int a = 0; a < npe; ++a) {
      const ordinal_t n = conn(e, a);
      const offset_t at = bound(n) + Kokkos::atomic_fetch_add(&fill(n), offset_t(npe));
      for (int b = 0; b < npe; ++b) cand(at + b) = conn(e, b);
    }
  }
};

template <class Mem>
struct SortUniqueRows {
  Kokkos::View<offset_t*, Mem> bound, deg;
  Kokkos::View<ordinal_t*, Mem> cand;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t n) const {
    const offset_t b = bound(n), e = bound(n + 1);
    sort_row(&cand(b), e - b);
    offset_t k = b;
    for (offset_t i = b; i < e; ++i)
      if (i == b || cand(i) != cand(k - 1)) cand(k++) = cand(i);
    deg(n) = k - b;
  }
};

template <class Mem>
struct CompactRows {
  Kokkos::View<offset_t*, Mem> node_rows, bound;
  Kokkos::View<ordinal_t*, Mem> node_cols, cand;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t n) const {
    for (offset_t k = 0; k < node_rows(n + 1) - node_rows(n); ++k)
      node_cols(node_rows(n) + k) = cand(bound(n) + k);
  }
};

template <class Mem>
struct ExpandDofs {  // 3. row C n + c starts at C^2 node_rows(n) + c C deg(n)
  Kokkos::View<offset_t*, Mem> node_rows, dof_rows;
  Kokkos::View<ordinal_t*, Mem> node_cols, dof_cols;
  int C;
  ordinal_t num_nodes;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t n) const {
    const offset_t base = offset_t(C) * C * node_rows(n), len = node_rows(n + 1) - node_rows(n);
    for (int c = 0; c < C; ++c) {
      const offset_t start = base + c * C * len;
      dof_rows(C * n + c) = start;
      for (offset_t k = 0; k < len; ++k)
        for (int d = 0; d < C; ++d) dof_cols(start + C * k + d) = C * node_cols(node_rows(n) + k) + d;
    }
    if (n == num_nodes - 1) dof_rows(C * num_nodes) = offset_t(C) * C * node_rows(num_nodes);
  }
};
}  // namespace graph_detail

// conn(e, a): node a of element e, a < conn.extent(1) (the DOF nodes of the element).
template <class Exec, class Conn>
DofGraph<typename Exec::memory_space> build_dof_graph(const Exec& exec, const Conn& conn, ordinal_t num_nodes,
                                                      int components = 3) {
  using Mem = typename Exec::memory_space;
  using policy = Kokkos::RangePolicy<Exec>;
  const ordinal_t ne = static_cast<ordinal_t>(conn.extent(0));
  const int npe = static_cast<int>(conn.extent(1));
  const int C = components;
  DofGraph<Mem> g;
  g.components = C;

  // 1. Upper bound per node: npe candidates for each element incidence.
  Kokkos::View<offset_t*, Mem> bound("kfem::node_bound", num_nodes + 1);
  Kokkos::parallel_for("kfem::count_incidence", policy(exec, 0, ne),
                       graph_detail::CountIncidence<Mem, Conn>{conn, bound, npe});
  const offset_t total = exclusive_scan(exec, "kfem::scan_bound", bound, bound, num_nodes);

  // 2. Scatter candidates, then sort + unique each row in place.
  Kokkos::View<ordinal_t*, Mem> cand(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::node_candidates"),
                                     total);
  Kokkos::View<offset_t*, Mem> fill("kfem::node_fill", num_nodes);
  Kokkos::parallel_for("kfem::scatter_pairs", policy(exec, 0, ne),
                       graph_detail::ScatterPairs<Mem, Conn>{conn, bound, fill, cand, npe});
  Kokkos::View<offset_t*, Mem> deg("kfem::node_degree", num_nodes + 1);
  Kokkos::parallel_for("kfem::sort_unique_rows", policy(exec, 0, num_nodes),
                       graph_detail::SortUniqueRows<Mem>{bound, deg, cand});
  Kokkos::View<offset_t*, Mem> node_rows("kfem::node_row_map", num_nodes + 1);
  const offset_t node_nnz = exclusive_scan(exec, "kfem::scan_degree", deg, node_rows, num_nodes);
  Kokkos::View<ordinal_t*, Mem> node_cols(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::node_cols"),
                                          node_nnz);
  Kokkos::parallel_for("kfem::compact_rows", policy(exec, 0, num_nodes),
                       graph_detail::CompactRows<Mem>{node_rows, bound, node_cols, cand});

  // 3. Expand nodes to DOFs.
  const ordinal_t nd = C * num_nodes;
  Kokkos::View<offset_t*, Mem> dof_rows(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::row_map"),
                                        nd + 1);
  Kokkos::View<ordinal_t*, Mem> dof_cols(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::cols"),
                                         offset_t(C) * C * node_nnz);
  Kokkos::parallel_for("kfem::expand_dofs", policy(exec, 0, num_nodes),
                       graph_detail::ExpandDofs<Mem>{node_rows, dof_rows, node_cols, dof_cols, C, num_nodes});
  g.node = {num_nodes, node_rows, node_cols};
  g.dof = {nd, dof_rows, dof_cols};
  return g;
}
}  // namespace kfem
