// a-COO storage (amorim §III.B, Fig. 7): one linked list of (column, value) nodes per matrix row.
// A head per row, a node pool sized up front, an atomic counter that hands out pool nodes and an
// atomic exchange on the row's head: every Ke entry is pushed as it is computed, with no colouring
// and no CSR pattern. Duplicates and order are left to the consolidation (acoo_consolidate.hpp).
// The pool is one allocation instead of the paper's per-node device malloc; it never overflows
// silently: a push past the end is counted, not stored, and check_pool turns that into an error.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

#include "kfem/assembly/target/dof_pair.hpp"
#include "kfem/core/error.hpp"
#include "kfem/core/types.hpp"

namespace kfem::acoo {
// 64-bit links: the default pool (elements x (N_sh C)^2 nodes, 576 per hex8) passes 2^31 nodes
// at ~4 M hex8 elements.
using link_t = offset_t;
inline constexpr link_t end_of_list = -1;
// The node counter's type. Every thread's push adds 1 to this one counter, so the add must be the
// hardware's atomic add: a compare-and-swap loop on one address under this contention costs more
// retries the more threads are in flight (quadratic in the elements on a GPU). Kokkos 4's CUDA
// atomics (desul's PTX table, sm_70 and newer) have a native 64-bit add for std::uint64_t and
// std::int64_t only; `unsigned long long`, a distinct type on LP64 Linux, falls back to the
// compare-and-swap loop.
using claim_t = std::uint64_t;

// Nodes the elements push: one per Ke entry, elements x (N_sh C)^2.
inline offset_t pool_nodes_for(offset_t elements, int nodes_per_element, int components) {
  const offset_t n = offset_t(nodes_per_element) * components;
  return elements * n * n;
}

// tour: push
// The adder of the generic mappings (access() + operator()(key, value), as race::Atomic's):
// pushes (col, value) onto row's list. Nodes are claimed one by one from the shared counter
// (the paper's scheme); a claim past the pool is dropped but still counted.
template <class S, class MemorySpace>
struct Push {
  Kokkos::View<link_t*, MemorySpace> head, next;
  Kokkos::View<ordinal_t*, MemorySpace> cols;
  Kokkos::View<S*, MemorySpace> vals;
  Kokkos::View<claim_t, MemorySpace> counter;
  offset_t capacity = 0;

  KOKKOS_INLINE_FUNCTION const Push& access() const { return *this; }
  KOKKOS_INLINE_FUNCTION void operator()(target::DofPair at, S x) const {
    const offset_t k = offset_t(Kokkos::atomic_fetch_add(&counter(), claim_t(1)));
    if (k >= capacity) return;
    cols(k) = at.col;
    vals(k) = x;
    // The node is complete before it is published; readers run in a later kernel anyway.
    next(k) = Kokkos::atomic_exchange(&head(at.row), link_t(k));
  }
};
// tour: end push

template <class S, class MemorySpace>
struct Lists {
  using scalar_type = S;
  using memory_space = MemorySpace;
  static constexpr std::size_t bytes_per_node = sizeof(link_t) + sizeof(ordinal_t) + sizeof(S);

  Kokkos::View<link_t*, MemorySpace> head;     // per row: the node pushed last, end_of_list if none
  Kokkos::View<link_t*, MemorySpace> next;     // per node: the node pushed before it onto its row
  Kokkos::View<ordinal_t*, MemorySpace> cols;  // per node
  Kokkos::View<S*, MemorySpace> vals;          // per node
  Kokkos::View<claim_t, MemorySpace> counter;  // nodes claimed; more than capacity() = overflow

  ordinal_t num_rows() const { return static_cast<ordinal_t>(head.extent(0)); }
  offset_t capacity() const { return static_cast<offset_t>(next.extent(0)); }
  // Device bytes of the a-COO storage: head + pool + counter.
  std::size_t bytes() const {
    return head.extent(0) * sizeof(link_t) + std::size_t(capacity()) * bytes_per_node + sizeof(claim_t);
  }
  Push<S, MemorySpace> push() const { return {head, next, cols, vals, counter, capacity()}; }
};

namespace detail {
template <class MemorySpace>
struct ResetLists {  // every head empty, counter 0 (index 0 also runs when there are no rows)
  Kokkos::View<link_t*, MemorySpace> head;
  Kokkos::View<claim_t, MemorySpace> counter;
  ordinal_t rows;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const {
    if (r < rows) head(r) = end_of_list;
    if (r == 0) counter() = 0;
  }
};
}  // namespace detail

// Empties the lists (the pool's contents become garbage, nothing is freed), on exec.
template <class Exec, class S>
void reset(const Exec& exec, const Lists<S, typename Exec::memory_space>& lists) {
  const ordinal_t rows = lists.num_rows();
  Kokkos::parallel_for("kfem::acoo_reset", Kokkos::RangePolicy<Exec>(exec, 0, rows > 0 ? rows : 1),
                       detail::ResetLists<typename Exec::memory_space>{lists.head, lists.counter, rows});
}

// Empty lists for num_rows rows with a pool of `capacity` nodes.
template <class S, class Exec>
Lists<S, typename Exec::memory_space> make_lists(const Exec& exec, ordinal_t num_rows, offset_t capacity) {
  using Mem = typename Exec::memory_space;
  if (num_rows < 0 || capacity < 0) throw InputError("a-COO: negative row count or pool size");
  const auto raw = [](const char* label) {
    return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label));
  };
  Lists<S, Mem> l;
  l.head = Kokkos::View<link_t*, Mem>(raw("kfem::acoo_head"), num_rows);
  l.next = Kokkos::View<link_t*, Mem>(raw("kfem::acoo_next"), capacity);
  l.cols = Kokkos::View<ordinal_t*, Mem>(raw("kfem::acoo_cols"), capacity);
  l.vals = Kokkos::View<S*, Mem>(raw("kfem::acoo_vals"), capacity);
  l.counter = Kokkos::View<claim_t, Mem>(raw("kfem::acoo_counter"));
  reset(exec, l);
  return l;
}

// Nodes the pushes so far asked for (stored or not); fences exec.
template <class Exec, class S>
offset_t claimed(const Exec& exec, const Lists<S, typename Exec::memory_space>& lists) {
  const auto h = Kokkos::create_mirror_view(lists.counter);
  Kokkos::deep_copy(exec, h, lists.counter);
  exec.fence();
  return offset_t(h());
}

// InputError when the pushes asked for more nodes than the pool holds (the lists are then
// incomplete); returns the nodes used otherwise.
template <class Exec, class S>
offset_t check_pool(const Exec& exec, const Lists<S, typename Exec::memory_space>& lists) {
  const offset_t used = claimed(exec, lists);
  if (used > lists.capacity())
    throw InputError("a-COO: node pool of " + std::to_string(lists.capacity()) + " nodes overflowed: " +
                     std::to_string(used) + " entries were pushed; size the pool for at least that many " +
                     "(the default, elements x (N_sh C)^2, always suffices)");
  return used;
}
}  // namespace kfem::acoo
