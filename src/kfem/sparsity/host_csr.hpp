// Host CSR in plain vectors, without Kokkos: host-only translation units (amg_hypre.cpp, built by the
// host compiler alone in a CUDA build, where Kokkos' headers cannot be included) read it too.
#pragma once
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
}  // namespace kfem
