// The run context: everything a later reader needs to trust (or distrust) a result file —
// which code, built how, on which Kokkos backends, on which hardware, under which environment.
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace kfem {
// The GPU Kokkos runs on (the current CUDA device).
struct DeviceInfo {
  std::string name;
  int id = 0;              // the runtime's device number (Kokkos' --kokkos-device-id)
  std::string pci_bus_id;  // "0000:19:00.0": tells the GPUs of one host apart
  int sm_count = 0;
  double memory_gib = 0;
  double sm_clock_mhz = 0;   // peak
  double mem_clock_mhz = 0;  // peak
  int cc_major = 0, cc_minor = 0;
  double l2_mib = 0;
  int memory_bus_bits = 0;  // with mem_clock_mhz gives the theoretical peak bandwidth
  double peak_bandwidth_gbs() const { return 2.0 * mem_clock_mhz * 1e6 * memory_bus_bits / 8 / 1e9; }
  std::size_t free_bytes = 0;  // device memory free when queried (cudaMemGetInfo)
  // Vector FMA lanes per SM of the data-centre parts (cc 7.0, 8.0, 9.0: FP64 = FP32 / 2); 0 where
  // kfem does not know the chip, so no peak fraction is claimed for it.
  int fp32_lanes_per_sm() const {
    if (cc_minor != 0) return 0;
    return cc_major == 9 ? 128 : cc_major == 7 || cc_major == 8 ? 64 : 0;
  }
  double peak_fp32_gflops() const { return 2.0 * fp32_lanes_per_sm() * sm_count * sm_clock_mhz * 1e-3; }
  double peak_fp64_gflops() const { return peak_fp32_gflops() / 2; }
  // FP64 on the matrix units (DMMA): 2x the vector rate on cc 8.0 and 9.0.
  double peak_fp64_matrix_gflops() const {
    return cc_major >= 8 && cc_minor == 0 ? 2 * peak_fp64_gflops() : 0.0;
  }
};

// std::nullopt when the build has no device backend or no device can be queried.
// Implemented in device_info.cpp, the one file that talks to the CUDA runtime.
std::optional<DeviceInfo> device_info();
// The device's free memory now: cudaMemGetInfo alone, for the checks inside a set-up (device_info's
// cudaGetDeviceProperties is too slow for a timed set-up). nullopt without a device.
std::optional<std::size_t> device_free_memory();
// GPUs the CUDA runtime sees (0 in builds without a device backend); callable before Kokkos starts.
int device_count();

// GB/s (bytes read + bytes written, 1e9) of deep_copy between two 256 MiB Views of double in the
// default execution space's memory space; fenced, 2 warm-ups, then the median of 10 copies, or of
// fewer (at least 3) once the timed copies add up to 0.2 s, so a slow host stays well under a
// second in total. With a host default space this is host memory bandwidth. Kokkos must be
// initialized.
double measure_copy_bandwidth();

// GB/s (1e9) from host memory into the default execution space's memory, 64 MiB: deep_copy from
// ordinary (pageable) host memory and from the staging memory of core/staging.hpp (page-locked for
// CUDA: the floor of the set-up's upload), and kfem::upload of pageable memory through the staging
// ring (what the set-up does). Median of 5 after a warm-up. nullopt when the default space's memory
// is host memory (there is no upload).
struct UploadBandwidth {
  double pageable_gbs = 0, staged_gbs = 0, ring_gbs = 0;
};
std::optional<UploadBandwidth> measure_upload_bandwidth();

struct HostTopology {
  std::string cpu_model;
  int packages = 0, cores = 0, pus = 0, numa_nodes = 0;  // as visible to this process (cpuset)
  std::string summary;                                   // e.g. "1 package, 8 cores, 16 PUs, 1 NUMA node"
};
HostTopology host_topology();

// The context object (Kokkos must be initialized). Keys:
//   kfem:        {version, git_revision, git_dirty, build_type, compiler, flags}
//   kokkos:      {version (of the Kokkos kfem is built against: "3.4.1", "4.6.1"), version_number (30401),
//                 backends ([..."Serial","OpenMP","Cuda"]), default_execution_space,
//                 default_host_execution_space, host_concurrency,
//                 configuration (Kokkos::print_configuration output)}
//   device:      {name, sm_count, memory_gib, sm_clock_mhz, mem_clock_mhz, compute_capability,
//                 l2_mib, memory_bus_bits, peak_bandwidth_gbs} or null
//   copy_bandwidth_gbs: number, or null when !measure_bandwidth
//   upload_bandwidth_gbs: {pageable, staged, ring}, or null when !measure_bandwidth or there is no upload
//   host:        {hostname, cpu_model, packages, cores, pus, numa_nodes, topology}
//   environment: {every OMP_* and KOKKOS_* variable: value}
//   date:        ISO 8601 UTC, "2026-11-21T07:05:00Z"
nlohmann::json run_context(bool measure_bandwidth);

// A few human-readable lines for `kfem info` and run headers.
std::string context_summary(const nlohmann::json& ctx);
}  // namespace kfem
