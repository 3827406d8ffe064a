// What a kfem process reserves when it starts, before any mesh exists (as CUDA loads its modules
// then): the upload's page-locked staging ring and Kokkos' scan buffer. Without them the first
// mesh pays both inside its set-up (mesh4 on an H200: ~16 ms and ~5 ms).
#pragma once
#include <chrono>

#include "kfem/core/scan.hpp"
#include "kfem/core/staging.hpp"

namespace kfem {
// The seconds it took.
template <class Exec>
double reserve_at_startup(const Exec& exec) {
  const auto t0 = std::chrono::steady_clock::now();
  Kokkos::Profiling::pushRegion("kfem::startup");
  reserve_staging<Exec>();
  reserve_scan_scratch(exec);
  Kokkos::Profiling::popRegion();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace kfem
