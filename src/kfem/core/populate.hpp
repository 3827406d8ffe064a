// Fresh host memory backed before a kernel writes it. A large allocation comes straight from the
// operating system (mmap), and the first write to each of its 4 KB pages faults, a page at a time;
// one madvise(MADV_POPULATE_WRITE) per thread (Linux 5.14+) backs them in bulk, faster. Elsewhere
// (device memory, other systems, older Linux) nothing happens, and the kernel's own writes fault the
// pages in as before.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace kfem {
namespace populate_detail {
#if defined(__linux__)
inline constexpr int populate_write = 23;  // MADV_POPULATE_WRITE, which glibc 2.36's headers lack
#endif

struct Chunks {
  std::uintptr_t begin, end, chunk;  // page-aligned [begin, end) in chunks of `chunk` bytes
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k) const {
#if defined(__linux__) && !defined(__CUDA_ARCH__)
    const std::uintptr_t from = begin + std::uintptr_t(k) * chunk;
    const std::uintptr_t to = from + chunk < end ? from + chunk : end;
    if (from < to) (void)madvise(reinterpret_cast<void*>(from), to - from, populate_write);
#else
    (void)k;
#endif
  }
};
}  // namespace populate_detail

// The pages of v's span, on exec's threads, when v is host memory of at least `at_least` bytes.
template <class Exec, class View>
void populate(const Exec& exec, const View& v, std::size_t at_least = std::size_t(1) << 22) {
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename View::memory_space>::accessible &&
                Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible) {
#if defined(__linux__)
    const std::size_t bytes = v.span() * sizeof(typename View::value_type);
    if (bytes < at_least) return;
    const std::uintptr_t page = std::uintptr_t(sysconf(_SC_PAGESIZE));
    const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(v.data());
    const std::uintptr_t begin = (first + page - 1) / page * page, end = (first + bytes) / page * page;
    if (end <= begin) return;
    const std::int64_t threads = exec.concurrency();
    const std::uintptr_t chunk = ((end - begin) / page + threads - 1) / threads * page;
    Kokkos::parallel_for("kfem::populate",
                         Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, threads),
                         populate_detail::Chunks{begin, end, chunk});
#else
    (void)exec, (void)v, (void)at_least;
#endif
  } else {
    (void)exec, (void)v, (void)at_least;
  }
}
}  // namespace kfem
