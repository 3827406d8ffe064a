// The Kokkos API differences between the releases kfem builds against (3.4.01 through 4.x), in one
// place: every Kokkos version check of kfem lives here, the rest of the code spells one API.
// Checks compare KOKKOS_VERSION (major * 10000 + minor * 100 + patch), which 3.4 already defines.
// What needs no check: execution-space concurrency() is called on an instance everywhere
// (Kokkos::DefaultHostExecutionSpace().concurrency()); 3.4 has it static, which an instance call
// reaches too, and 4.x without deprecated code (Kokkos 5) has only the member.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>
#include <type_traits>

namespace kfem::kokkos_compat {
// Math functions: Kokkos::Experimental up to 3.6, Kokkos from 3.7 on; 4.0 removed the old names.
#if KOKKOS_VERSION >= 30700
using Kokkos::sqrt;
#else
using Kokkos::Experimental::sqrt;
#endif

// The most level-0 team scratch a kernel may ask for on exec. TeamPolicy::scratch_size_max(0) is
// the portable figure (CUDA: 40 KB, the default 48 KB of shared memory less room for team
// reductions). Kokkos 3.4 built with kfem's patch (cmake/patches/*hopper-shmem-opt-in.patch) lets a
// CUDA kernel opt in to the device's per-block maximum (227 KB on Hopper, 163 KB on the A100), less
// the same 8 KB; Kokkos 4.6 does not, and keeps the portable figure.
template <class Exec>
std::size_t team_scratch_max(const Exec& exec) {
  const std::size_t portable = Kokkos::TeamPolicy<Exec>::scratch_size_max(0);
#if defined(KOKKOS_ENABLE_CUDA) && defined(KOKKOS_IMPL_CUDA_SHMEM_OPT_IN)
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) {
    constexpr std::size_t reserved = 8 * 1024;
    const std::size_t block = exec.impl_internal_space_instance()->m_maxShmemPerBlock;
    return block > portable + reserved ? block - reserved : portable;
  }
#endif
  (void)exec;
  return portable;
}

// "major.minor.patch" of the Kokkos headers kfem is compiled against ("3.4.1", "4.6.1"), the form
// Kokkos' own print_configuration uses.
inline constexpr int version_major = KOKKOS_VERSION / 10000;
inline constexpr int version_minor = KOKKOS_VERSION / 100 % 100;
inline constexpr int version_patch = KOKKOS_VERSION % 100;
inline std::string version_string() {
  return std::to_string(version_major) + "." + std::to_string(version_minor) + "." +
         std::to_string(version_patch);
}
}  // namespace kfem::kokkos_compat
