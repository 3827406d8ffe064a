// The Kokkos API differences between the releases kfem builds against (3.4.01 through 4.x), in one
// place: every Kokkos version check of kfem lives here, the rest of the code spells one API.
// Checks compare KOKKOS_VERSION (major * 10000 + minor * 100 + patch), which 3.4 already defines.
// What needs no check: execution-space concurrency() is called on an instance everywhere
// (Kokkos::DefaultHostExecutionSpace().concurrency()); 3.4 has it static, which an instance call
// reaches too, and 4.x without deprecated code (Kokkos 5) has only the member.
#pragma once
#include <Kokkos_Core.hpp>
#include <string>

namespace kfem::kokkos_compat {
// Math functions: Kokkos::Experimental up to 3.6, Kokkos from 3.7 on; 4.0 removed the old names.
#if KOKKOS_VERSION >= 30700
using Kokkos::sqrt;
#else
using Kokkos::Experimental::sqrt;
#endif

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
