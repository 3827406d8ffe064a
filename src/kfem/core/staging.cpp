#include "kfem/core/staging.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

#include "kfem/core/exec_spaces.hpp"
#include "kfem/core/host_threads.hpp"

namespace kfem {
namespace {
// The ring: 16 slots of 2 MiB. Host threads fill slot c % 16 with chunk c once chunk c - 16 has
// left it; the caller's thread sends each chunk when it is filled and fences after every 4, which
// frees those 4 slots. The shape is the best of a sweep of chunk sizes, slot counts, fence intervals
// and thread counts; more or fewer threads than 8 were slower.
constexpr std::size_t chunk_bytes = std::size_t{2} << 20;
constexpr std::size_t ring_chunks = 16;
constexpr std::size_t fence_every = 4;
constexpr int copy_threads = 8;

// A second instance of Exec whose work does not wait for the first one's: uploads beside kernels.
// Host spaces have none (their copies are the host's own work).
template <class Exec>
struct SideInstance {
  std::optional<Exec> exec;
  void make() {}
  void release() {}
};
#ifdef KOKKOS_ENABLE_CUDA
template <>
struct SideInstance<Kokkos::Cuda> {
  std::optional<Kokkos::Cuda> exec;
  cudaStream_t stream = nullptr;
  void make() {  // non-blocking: no wait for Kokkos' default (legacy) stream
    if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess)
      throw std::runtime_error("kfem::upload: no CUDA stream for uploads beside kernels");
    exec = Kokkos::Cuda(stream);
  }
  void release() {  // the instance first, then its stream
    exec.reset();
    if (stream) cudaStreamDestroy(stream);
    stream = nullptr;
  }
};
#endif

template <class Exec>
struct Ring {
  Kokkos::View<char*, typename HostStaging<Exec>::space> bytes;
  std::mutex busy;
  SideInstance<Exec> side;
};

template <class Exec>
Ring<Exec>& ring() {
  static Ring<Exec> r;
  return r;
}
}  // namespace

template <class Exec>
double reserve_staging() {
  auto& r = ring<Exec>();
  if (r.bytes.extent(0) > 0) return 0.0;
  const auto t0 = std::chrono::steady_clock::now();
  r.bytes = decltype(r.bytes)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::staging_ring"),
                              ring_chunks * chunk_bytes);
  r.side.make();
  Kokkos::push_finalize_hook([] {
    auto& f = ring<Exec>();
    f.bytes = {};
    f.side.release();
  });
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class Exec>
void upload(const Exec& exec, const std::vector<HostUpload>& parts, bool through_ring) {
  using Mem = typename Exec::memory_space;
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  using Bytes = Kokkos::View<char*, Mem, Unmanaged>;
  using Staged = Kokkos::View<const char*, typename HostStaging<Exec>::space, Unmanaged>;
  using Source = Kokkos::View<const char*, Kokkos::HostSpace, Unmanaged>;
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible && !through_ring) {
    for (const auto& p : parts)
      if (p.bytes > 0)
        Kokkos::deep_copy(exec, Bytes(static_cast<char*>(p.dst), p.bytes),
                          Source(static_cast<const char*>(p.src), p.bytes));
    exec.fence();
    return;
  }
  struct Chunk {
    char* dst;
    const char* src;
    std::size_t bytes;
  };
  std::vector<Chunk> chunks;
  for (const auto& p : parts)
    for (std::size_t o = 0; o < p.bytes; o += chunk_bytes)
      chunks.push_back({static_cast<char*>(p.dst) + o, static_cast<const char*>(p.src) + o,
                        std::min(chunk_bytes, p.bytes - o)});
  if (chunks.empty()) return;
  reserve_staging<Exec>();
  auto& r = ring<Exec>();
  const std::lock_guard<std::mutex> lock(r.busy);
  char* const slots = r.bytes.data();
  const std::size_t n = chunks.size();
  std::vector<std::atomic<bool>> filled(n);
  for (auto& f : filled) f.store(false);
  std::atomic<std::size_t> sent{0};  // chunks whose copy into exec's memory is complete
  std::atomic<bool> stop{false};
  const int threads = int(std::min<std::size_t>(std::size_t(host_threads(copy_threads)), n));
  std::vector<std::thread> fillers;
  for (int t = 0; t < threads; ++t)
    fillers.emplace_back([&, t] {
      for (std::size_t c = std::size_t(t); c < n; c += std::size_t(threads)) {
        while (c >= sent.load(std::memory_order_acquire) + ring_chunks) {
          if (stop.load()) return;
          std::this_thread::yield();
        }
        std::memcpy(slots + (c % ring_chunks) * chunk_bytes, chunks[c].src, chunks[c].bytes);
        filled[c].store(true, std::memory_order_release);
      }
    });
  try {
    for (std::size_t c = 0; c < n; ++c) {
      while (!filled[c].load(std::memory_order_acquire)) std::this_thread::yield();
      Kokkos::deep_copy(exec, Bytes(chunks[c].dst, chunks[c].bytes),
                        Staged(slots + (c % ring_chunks) * chunk_bytes, chunks[c].bytes));
      if ((c + 1) % fence_every == 0 || c + 1 == n) {
        exec.fence();
        sent.store(c + 1, std::memory_order_release);
      }
    }
  } catch (...) {
    stop.store(true);
    for (auto& f : fillers) f.join();
    throw;
  }
  for (auto& f : fillers) f.join();
}

template <class Exec>
UploadBeside<Exec>::UploadBeside(const Exec& exec, std::vector<HostUpload> parts) {
  reserve_staging<Exec>();
  const std::optional<Exec>& side = ring<Exec>().side.exec;
  if (!side) {
    upload(exec, parts);
    return;
  }
  thread_ = std::thread([this, on = *side, parts = std::move(parts)] {
    try {
      upload(on, parts);
    } catch (...) {
      failed_ = std::current_exception();
    }
  });
}

template <class Exec>
double UploadBeside<Exec>::wait() {
  const auto t0 = std::chrono::steady_clock::now();
  if (thread_.joinable()) thread_.join();
  if (failed_) std::rethrow_exception(std::exchange(failed_, nullptr));
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class Exec>
UploadBeside<Exec>::~UploadBeside() {
  if (thread_.joinable()) thread_.join();
}

#define KFEM_STAGING(Exec)                                                       \
  template double reserve_staging<Exec>();                                       \
  template void upload<Exec>(const Exec&, const std::vector<HostUpload>&, bool); \
  template class UploadBeside<Exec>;
KFEM_FOR_EACH_EXEC_SPACE(KFEM_STAGING)
#undef KFEM_STAGING
}  // namespace kfem
