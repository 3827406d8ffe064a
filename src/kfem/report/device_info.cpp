// device_info() and device_free_memory(): what kfem asks the CUDA runtime about the device; other
// builds have no device.
#include <Kokkos_Core.hpp>

#include "kfem/report/context.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

namespace kfem {
std::optional<DeviceInfo> device_info() {
#ifdef KOKKOS_ENABLE_CUDA
  // Kokkos picks the device at initialize (--kokkos-device-id); ask it rather than assume 0.
  int dev = 0;
  if (Kokkos::is_initialized()) {
    dev = Kokkos::Cuda().cuda_device();
  } else if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();  // clear the error so a later Kokkos check does not report it
    return std::nullopt;
  }
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  // CUDA 13 removed cudaDeviceProp::clockRate/memoryClockRate; the attributes work on every version.
  int clock_khz = 0, mem_clock_khz = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev) != cudaSuccess) clock_khz = 0;
  if (cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, dev) != cudaSuccess)
    mem_clock_khz = 0;
  cudaGetLastError();

  DeviceInfo info;
  info.name = p.name;
  info.id = dev;
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof(bus), dev) == cudaSuccess) info.pci_bus_id = bus;
  info.sm_count = p.multiProcessorCount;
  info.memory_gib = static_cast<double>(p.totalGlobalMem) / (1ull << 30);
  info.sm_clock_mhz = clock_khz / 1e3;
  info.mem_clock_mhz = mem_clock_khz / 1e3;
  info.cc_major = p.major;
  info.cc_minor = p.minor;
  info.l2_mib = static_cast<double>(p.l2CacheSize) / (1 << 20);
  info.memory_bus_bits = p.memoryBusWidth;
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) info.free_bytes = free_bytes;
  cudaGetLastError();
  return info;
#else
  return std::nullopt;
#endif
}

std::optional<std::size_t> device_free_memory() {
#ifdef KOKKOS_ENABLE_CUDA
  std::size_t free_bytes = 0, total_bytes = 0;
  const bool ok = cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess;
  cudaGetLastError();
  if (ok) return free_bytes;
#endif
  return std::nullopt;
}

int device_count() {
#ifdef KOKKOS_ENABLE_CUDA
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) n = 0;
  cudaGetLastError();
  return n;
#else
  return 0;
#endif
}
}  // namespace kfem
