// Host memory for transfers to and from an execution space's memory: page-locked for CUDA (DMA at
// full PCIe/NVLink rate, as banas' OpenCL buffers are), plain host memory elsewhere; and a host
// vector's copy in an execution space's memory.
#pragma once
#include <Kokkos_Core.hpp>
#include <string>
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

// A host vector copied into a new view on exec (fenced: the vector may go out of scope).
template <class Exec, class T>
Kokkos::View<T*, typename Exec::memory_space> to_device(const Exec& exec, const std::vector<T>& v,
                                                        const std::string& label) {
  Kokkos::View<T*, typename Exec::memory_space> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, label),
                                                  v.size());
  Kokkos::deep_copy(exec, d,
                    Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
  exec.fence();
  return d;
}
}  // namespace kfem
