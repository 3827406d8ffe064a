// CSR storage. Row DOF r = 3*node + component; columns sorted within each row.
#pragma once
#include <Kokkos_Core.hpp>
#include <vector>

#include "kfem/core/types.hpp"

namespace kfem {
// Host CSR in plain vectors: the oracle's output and what exports read.
template <class S>
struct HostCsr {
  ordinal_t num_rows = 0;
  std::vector<offset_t> row_map;  // num_rows + 1
  std::vector<ordinal_t> cols;
  std::vector<S> vals;
  offset_t nnz() const { return row_map.empty() ? 0 : row_map.back(); }
};

// Sparsity pattern in a Kokkos memory space.
template <class MemorySpace>
struct CsrGraph {
  ordinal_t num_rows = 0;
  Kokkos::View<offset_t*, MemorySpace> row_map;
  Kokkos::View<ordinal_t*, MemorySpace> cols;
  offset_t nnz() const { return static_cast<offset_t>(cols.extent(0)); }
};
}  // namespace kfem
