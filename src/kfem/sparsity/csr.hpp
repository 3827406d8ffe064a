// CSR storage. Row DOF r = 3*node + component; columns sorted within each row.
#pragma once
#include <Kokkos_Core.hpp>
#include <vector>

#include "kfem/core/types.hpp"
#include "kfem/sparsity/host_csr.hpp"

namespace kfem {
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

// Every entry of a symmetric matrix in double, from a host CSR that holds every entry (lower = false:
// a copy) or its lower triangle (columns <= row, sorted): row r is its own entries, then the mirror
// of column r's entries in the rows below, so the columns stay sorted.
template <class S>
HostCsr<double> full_symmetric(const HostCsr<S>& A, bool lower) {
  HostCsr<double> F;
  F.num_rows = A.num_rows;
  if (!lower) {
    F.row_map = A.row_map, F.cols = A.cols;
    F.vals.assign(A.vals.begin(), A.vals.end());
    return F;
  }
  const std::size_t n = std::size_t(A.num_rows);
  std::vector<offset_t> count(n + 1, 0);
  for (std::size_t r = 0; r < n; ++r)
    for (offset_t k = A.row_map[r]; k < A.row_map[r + 1]; ++k) {
      ++count[r + 1];
      if (std::size_t(A.cols[k]) != r) ++count[std::size_t(A.cols[k]) + 1];
    }
  for (std::size_t r = 0; r < n; ++r) count[r + 1] += count[r];
  F.row_map = count;
  F.cols.resize(std::size_t(count[n]));
  F.vals.resize(std::size_t(count[n]));
  std::vector<offset_t> at(count.begin(), count.end() - 1);
  for (std::size_t r = 0; r < n; ++r)  // own entries first: columns <= r, in order
    for (offset_t k = A.row_map[r]; k < A.row_map[r + 1]; ++k) {
      F.cols[std::size_t(at[r])] = A.cols[k];
      F.vals[std::size_t(at[r]++)] = double(A.vals[k]);
    }
  for (std::size_t r = 0; r < n; ++r)  // then (c, r) for c = r's lower neighbours' rows, ascending
    for (offset_t k = A.row_map[r]; k < A.row_map[r + 1]; ++k) {
      const std::size_t c = std::size_t(A.cols[k]);
      if (c == r) continue;
      F.cols[std::size_t(at[c])] = ordinal_t(r);
      F.vals[std::size_t(at[c]++)] = double(A.vals[k]);
    }
  return F;
}
}  // namespace kfem
