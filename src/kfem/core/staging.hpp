// Host memory for transfers to and from an execution space's memory: page-locked for CUDA (DMA at
// full PCIe/NVLink rate, as banas' OpenCL buffers are), plain host memory elsewhere.
#pragma once
#include <Kokkos_Core.hpp>

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
}  // namespace kfem
