// Host memory for transfers to and from an execution space's memory: page-locked for CUDA (DMA at
// full PCIe/NVLink rate, as banas' OpenCL buffers are), plain host memory elsewhere; and the upload
// of ordinary host arrays (a mesh, a colouring) into an execution space's memory.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace kfem {
template <class Exec>
struct HostStaging {
  using space = Kokkos::HostSpace;
};
#ifdef KOKKOS_ENABLE_CUDA
template <>
struct HostStaging<Kokkos::Cuda> {
  using space = Kokkos::CudaHostPinnedSpace;
};
#endif

// One contiguous block of bytes to copy from the host into an execution space's memory.
struct HostUpload {
  void* dst;
  const void* src;
  std::size_t bytes;
};

// The upload of a contiguous host view (or pointer) into a contiguous view of the same span.
template <class DstView, class T>
HostUpload host_upload(const DstView& dst, const T* src, std::size_t count) {
  static_assert(sizeof(typename DstView::value_type) == sizeof(T));
  if (!dst.span_is_contiguous() || dst.span() != count)
    throw std::logic_error("host_upload: " + dst.label() + " is not a contiguous view of " +
                           std::to_string(count) + " values");
  return {dst.data(), src, count * sizeof(T)};
}

// Allocate the staging ring now: 32 MiB of page-locked memory, a slow allocation, once per process
// (kfem's start-up calls this, core/startup.hpp); released when Kokkos finalizes. Returns the
// seconds the allocation took, 0 if the ring was there.
template <class Exec>
double reserve_staging();

// The uploads on exec, fenced. Into memory the host can reach, plain copies. Otherwise (or when
// through_ring) through the staging ring: CUDA's own copy from pageable memory has one host thread
// staging it; here 8 host threads copy 2 MiB chunks into the ring's 16 slots while the copy engine
// sends the chunks before them, several times faster. One upload at a time per execution space.
template <class Exec>
void upload(const Exec& exec, const std::vector<HostUpload>& parts, bool through_ring = false);

// An upload beside the caller's work on exec: a host thread of its own sends the parts through the
// staging ring on a second instance of Exec (on CUDA a stream of its own, made with the ring), while
// the caller goes on with exec. The set-up sends the mesh's coordinates so while the DOF graph, which
// reads the connectivity alone, builds. wait() returns the seconds the caller waited for what was
// left, and rethrows what failed; the destructor waits too. Where Exec reaches host memory the copy
// is made at once: there is no copy engine to overlap.
template <class Exec>
class UploadBeside {
 public:
  UploadBeside(const Exec& exec, std::vector<HostUpload> parts);
  UploadBeside(const UploadBeside&) = delete;
  UploadBeside& operator=(const UploadBeside&) = delete;
  ~UploadBeside();
  double wait();

 private:
  std::thread thread_;
  std::exception_ptr failed_;
};

// A host vector copied into a new view on exec (fenced: the vector may go out of scope).
template <class Exec, class T>
Kokkos::View<T*, typename Exec::memory_space> to_device(const Exec& exec, const std::vector<T>& v,
                                                        const std::string& label) {
  Kokkos::View<T*, typename Exec::memory_space> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, label),
                                                  v.size());
  upload(exec, {host_upload(d, v.data(), v.size())});
  return d;
}
}  // namespace kfem
