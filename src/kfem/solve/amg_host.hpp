// Solver amg's host solve (amg_hypre.cpp), declared without Kokkos: in a CUDA build amg_hypre.cpp
// is host code compiled by the host compiler alone, which cannot include Kokkos' CUDA headers.
#pragma once
#include <vector>

#include "kfem/solve/solve_types.hpp"
#include "kfem/sparsity/host_csr.hpp"

namespace kfem::amg_detail {
// Whether this kfem was built with hypre (amg_hypre.cpp).
bool available();
// Solves A x = b on the host (A: every entry, sorted columns) from x = 0; x is resized. Fills every
// SolveResult field but `method` and `seconds`; iterations_seconds is hypre's PCG solve alone.
SolveResult solve_on_host(const HostCsr<double>& A, const std::vector<double>& b, std::vector<double>& x,
                          const SolverOptions& opts);
}  // namespace kfem::amg_detail
