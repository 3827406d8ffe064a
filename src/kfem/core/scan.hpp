// Exclusive prefix sums of offset arrays (CSR row maps), on any backend.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/core/types.hpp"

namespace kfem {
namespace scan_detail {
// out(i) = in(0) + ... + in(i-1) over [0, n]; in(n) is never read, so callers may leave it
// unset. in and out may alias.
template <class Mem>
struct ExclusiveScan {
  using value_type = offset_t;
  Kokkos::View<const offset_t*, Mem> in;
  Kokkos::View<offset_t*, Mem> out;
  ordinal_t n;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t i, offset_t& sum, bool final) const {
    const offset_t x = i < n ? in(i) : 0;
    if (final) out(i) = sum;
    sum += x;
  }
};
}  // namespace scan_detail

// out[0, n] = exclusive scan of in[0, n) on exec; out(n) is the total, which is also returned
// (after a fence: the caller sizes an allocation from it).
template <class Exec>
offset_t exclusive_scan(const Exec& exec, const char* label,
                        const Kokkos::View<const offset_t*, typename Exec::memory_space>& in,
                        const Kokkos::View<offset_t*, typename Exec::memory_space>& out, ordinal_t n) {
  offset_t total = 0;
  Kokkos::parallel_scan(label, Kokkos::RangePolicy<Exec>(exec, 0, n + 1),
                        scan_detail::ExclusiveScan<typename Exec::memory_space>{in, out, n}, total);
  exec.fence();
  return total;
}

// The same scan, its total left on exec (out(n)): no fence, so the caller's work on exec goes on.
template <class Exec>
void exclusive_scan_queued(const Exec& exec, const char* label,
                           const Kokkos::View<const offset_t*, typename Exec::memory_space>& in,
                           const Kokkos::View<offset_t*, typename Exec::memory_space>& out, ordinal_t n) {
  Kokkos::parallel_scan(label, Kokkos::RangePolicy<Exec>(exec, 0, n + 1),
                        scan_detail::ExclusiveScan<typename Exec::memory_space>{in, out, n});
}

// A process's first long scan on CUDA costs many times what its kernels take (Kokkos 3.4), and one
// such scan at start-up takes that cost out of the first mesh's set-up. The scan also grows
// Kokkos' buffer of block totals (device memory freed and allocated) to its largest size for 8-byte
// totals: 16384 blocks, which 2^22 entries fill. kfem's start-up runs it, before there is a mesh.
template <class Exec>
void reserve_scan_scratch(const Exec& exec) {
  const ordinal_t n = (ordinal_t(1) << 22) - 1;
  Kokkos::View<offset_t*, typename Exec::memory_space> v("kfem::scan_warm_up", n + 1);
  exclusive_scan(exec, "kfem::scan_warm_up", v, v, n);
}
}  // namespace kfem
