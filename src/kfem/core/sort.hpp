// Sorting on any backend: a short array in one thread (sort_row), and many unique 64-bit keys on an
// execution space instance (sort_unique_keys: Morton launch orders).
#pragma once
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "kfem/core/fill.hpp"
#include "kfem/core/scan.hpp"
#include "kfem/core/types.hpp"

namespace kfem {
// Sorts v[0, n) ascending in one thread. Rows of high-order elements reach thousands of candidates
// (a p = 7 prism vertex: ~12 elements x 288 nodes), where insertion sort's n^2 would dominate
// setup, so long rows take a heap sort; short rows (hex8, tri3, a bin of keys) keep insertion sort.
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

namespace sort_detail {
// Named functors, not KOKKOS_LAMBDAs (see core/fill.hpp).
template <class Mem>
struct CountBins {
  Kokkos::View<const std::uint64_t*, Mem> keys;
  Kokkos::View<offset_t*, Mem> count;
  int shift;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    Kokkos::atomic_add(&count(keys(i) >> shift), offset_t(1));
  }
};

template <class Mem>
struct ScatterToBins {
  Kokkos::View<const std::uint64_t*, Mem> keys;
  Kokkos::View<std::uint64_t*, Mem> binned;
  Kokkos::View<const offset_t*, Mem> start;
  Kokkos::View<offset_t*, Mem> fill;
  int shift;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const std::uint64_t k = keys(i), b = k >> shift;
    binned(start(b) + Kokkos::atomic_fetch_add(&fill(b), offset_t(1))) = k;
  }
};

template <class Mem, class Out>
struct SortBins {  // one thread per bin; the bin's keys in order, then out = their low bits
  Kokkos::View<std::uint64_t*, Mem> binned;
  Kokkos::View<const offset_t*, Mem> start;
  Out out;
  std::uint64_t mask;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t b) const {
    const offset_t s = start(b), n = start(b + 1) - s;
    std::uint64_t* const v = &binned(s);
    sort_row(v, n);
    for (offset_t j = 0; j < n; ++j) out(s + j) = typename Out::non_const_value_type(v[j] & mask);
  }
};
}  // namespace sort_detail

// Bins of sort_unique_keys for n keys: a power of two near n / 2, and the words of workspace it needs.
inline int sort_bin_bits(std::int64_t n) {
  int b = 1;
  while (b < 30 && (std::int64_t(1) << (b + 1)) < n) ++b;
  return b;
}
inline std::int64_t sort_workspace_words(std::int64_t n) {
  return 2 * (std::int64_t(1) << sort_bin_bits(n)) + 1;
}

// out(i) = the low bits (mask) of the i-th smallest of keys[0, n), all below 2^key_bits and unique, on
// exec, in the manner of Kokkos' BinSort but on the given instance and in the caller's memory: keys
// counted into 2^b bins by their top b bits (about two keys per bin), scattered into `binned`, then
// each bin sorted by one thread. Unique keys make the result one order whatever the scatter's
// order. Keys crowded into a few bins (a strongly graded mesh) cost a longer sort in those bins.
// workspace: sort_workspace_words(n) counters; binned: n keys. Nothing waits for exec: the host goes
// on while the sort runs, and fences exec before it reads out.
template <class Exec, class Out>
void sort_unique_keys(const Exec& exec,
                      const Kokkos::View<const std::uint64_t*, typename Exec::memory_space>& keys,
                      int key_bits, std::uint64_t mask,
                      const Kokkos::View<std::uint64_t*, typename Exec::memory_space>& binned,
                      const Kokkos::View<offset_t*, typename Exec::memory_space>& workspace, const Out& out) {
  using Mem = typename Exec::memory_space;
  using range = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t n = std::int64_t(keys.extent(0));
  if (n == 0) return;
  const int b = sort_bin_bits(n);
  const std::int64_t bins = std::int64_t(1) << b;
  const int shift = key_bits > b ? key_bits - b : 0;
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  const Kokkos::View<offset_t*, Mem> start(
      Kokkos::View<offset_t*, Mem, Unmanaged>(workspace.data(), bins + 1));
  const Kokkos::View<offset_t*, Mem> fill(
      Kokkos::View<offset_t*, Mem, Unmanaged>(workspace.data() + bins + 1, bins));
  fill_zero(exec, workspace);
  Kokkos::parallel_for("kfem::sort_count_bins", range(exec, 0, n),
                       sort_detail::CountBins<Mem>{keys, start, shift});
  exclusive_scan_queued(exec, "kfem::sort_bin_starts", start, start, ordinal_t(bins));
  Kokkos::parallel_for("kfem::sort_scatter", range(exec, 0, n),
                       sort_detail::ScatterToBins<Mem>{keys, binned, start, fill, shift});
  Kokkos::parallel_for("kfem::sort_bins", range(exec, 0, bins),
                       sort_detail::SortBins<Mem, Out>{binned, start, out, mask});
}
}  // namespace kfem
