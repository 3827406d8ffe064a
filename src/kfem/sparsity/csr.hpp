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

// A device pattern and its values, copied to the host (for the oracle comparison and exports).
template <class S, class MemorySpace>
HostCsr<S> to_host(const CsrGraph<MemorySpace>& g, const Kokkos::View<S*, MemorySpace>& values) {
  HostCsr<S> A;
  A.num_rows = g.num_rows;
  auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.row_map);
  auto cols = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.cols);
  auto vals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
  A.row_map.assign(rows.data(), rows.data() + rows.extent(0));
  A.cols.assign(cols.data(), cols.data() + cols.extent(0));
  A.vals.assign(vals.data(), vals.data() + vals.extent(0));
  return A;
}
}  // namespace kfem
