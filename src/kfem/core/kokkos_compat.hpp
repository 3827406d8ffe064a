// What kfem needs of Kokkos beyond its portable API, in one place: every Kokkos version check and
// every use of Kokkos' internals lives here, the rest of the code spells one API. kfem builds against
// Kokkos 4.x (4.6.01 tested; third_party/kokkos), C++17, deprecated code off.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>
#include <type_traits>

namespace kfem::kokkos_compat {
static_assert(KOKKOS_VERSION >= 40000, "kfem needs Kokkos 4.x (third_party/kokkos holds 4.6.01)");
using Kokkos::sqrt;

// The most level-0 team scratch a kernel may ask for on exec. TeamPolicy::scratch_size_max(0) is
// the portable figure (CUDA: the default 48 KB of shared memory less room for team reductions).
// Kokkos built with kfem's patch (third_party/kokkos/patches/*cuda-shmem-opt-in.patch, which defines
// KOKKOS_IMPL_CUDA_SHMEM_OPT_IN) lets a CUDA kernel opt in to the device's per-block maximum (227 KB
// on Hopper, 163 KB on the A100), less 8 KB kept for Kokkos' own team data; an unpatched Kokkos (a
// cluster's module) keeps the portable figure, and box-owner then takes smaller tiles.
template <class Exec>
std::size_t team_scratch_max(const Exec& exec) {
  const std::size_t portable = Kokkos::TeamPolicy<Exec>::scratch_size_max(0);
#if defined(KOKKOS_ENABLE_CUDA) && defined(KOKKOS_IMPL_CUDA_SHMEM_OPT_IN)
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) {
    constexpr std::size_t reserved = 8 * 1024;
    const std::size_t block = exec.cuda_device_prop().sharedMemPerBlockOptin;
    return block > portable + reserved ? block - reserved : portable;
  }
#endif
  (void)exec;
  return portable;
}

// "major.minor.patch" of the Kokkos headers kfem is compiled against ("4.6.1"), the form
// Kokkos' own print_configuration uses.
inline constexpr int version_major = KOKKOS_VERSION / 10000;
inline constexpr int version_minor = KOKKOS_VERSION / 100 % 100;
inline constexpr int version_patch = KOKKOS_VERSION % 100;
inline std::string version_string() {
  return std::to_string(version_major) + "." + std::to_string(version_minor) + "." +
         std::to_string(version_patch);
}
}  // namespace kfem::kokkos_compat
