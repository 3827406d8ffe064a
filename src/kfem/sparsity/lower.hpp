// Lower-triangular storage of a symmetric matrix: each row keeps its columns <= row. Taken from the
// full DOF pattern, where the kept columns of a sorted row are a prefix.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/sparsity/csr.hpp"

namespace kfem {
template <class Exec>
CsrGraph<typename Exec::memory_space> lower_triangle(const Exec& exec, const CsrGraph<typename Exec::memory_space>& full) {
  using Mem = typename Exec::memory_space;
  using policy = Kokkos::RangePolicy<Exec>;
  const ordinal_t n = full.num_rows;
  const auto rows = full.row_map;
  const auto cols = full.cols;
  Kokkos::View<offset_t*, Mem> lrows("kfem::lower_row_map", n + 1);
  Kokkos::parallel_for("kfem::lower_count", policy(exec, 0, n), KOKKOS_LAMBDA(ordinal_t i) {
    offset_t k = rows(i);
    while (k < rows(i + 1) && cols(k) <= i) ++k;
    lrows(i + 1) = k - rows(i);
  });
  offset_t nnz = 0;
  Kokkos::parallel_scan("kfem::lower_scan", policy(exec, 0, n + 1),
      KOKKOS_LAMBDA(ordinal_t i, offset_t & sum, bool final) {
        sum += lrows(i);
        if (final) lrows(i) = sum;
      }, nnz);
  Kokkos::View<ordinal_t*, Mem> lcols(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::lower_cols"), nnz);
  Kokkos::parallel_for("kfem::lower_copy", policy(exec, 0, n), KOKKOS_LAMBDA(ordinal_t i) {
    for (offset_t k = lrows(i); k < lrows(i + 1); ++k) lcols(k) = cols(rows(i) + (k - lrows(i)));
  });
  return {n, lrows, lcols};
}
}  // namespace kfem
