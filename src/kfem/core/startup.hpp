// What a kfem process reserves when it starts, before any mesh exists (as CUDA loads its modules
// then): the upload's page-locked staging ring and Kokkos' scan buffer. Without them the first
// mesh pays both inside its set-up.
#pragma once
#include "kfem/core/scan.hpp"
#include "kfem/core/staging.hpp"

namespace kfem {
// Its region, kfem::startup, shows its time in a Kokkos Tools timeline.
template <class Exec>
void reserve_at_startup(const Exec& exec) {
  Kokkos::Profiling::pushRegion("kfem::startup");
  reserve_staging<Exec>();
  reserve_scan_scratch(exec);
  Kokkos::Profiling::popRegion();
}
}  // namespace kfem
