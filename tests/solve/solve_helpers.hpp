// Test helpers for tests/solve: oracle matrices moved to a memory space and back, and host mat-vecs
// that share nothing with the Kokkos Kernels path under test.
#pragma once
#include <Kokkos_Core.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "kfem/core/types.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem::test {
template <class T, class Mem>
Kokkos::View<T*, Mem> to_view(const std::vector<T>& v, const std::string& label) {
  Kokkos::View<T*, Mem> out(label, v.size());
  Kokkos::deep_copy(out,
                    Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
  return out;
}

template <class View>
std::vector<typename View::non_const_value_type> to_vector(const View& v) {
  std::vector<typename View::non_const_value_type> out(v.extent(0));
  Kokkos::deep_copy(
      Kokkos::View<typename View::non_const_value_type*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
          out.data(), out.size()),
      v);
  return out;
}

template <class Mem>
struct DeviceCsr {
  CsrGraph<Mem> graph;
  Kokkos::View<double*, Mem> values;
};

template <class Mem>
DeviceCsr<Mem> to_device(const HostCsr<double>& h) {
  return {{h.num_rows, to_view<offset_t, Mem>(h.row_map, "test::row_map"),
           to_view<ordinal_t, Mem>(h.cols, "test::cols")},
          to_view<double, Mem>(h.vals, "test::values")};
}

// The lower triangle (columns <= row) of a host CSR, built here independently of lower_triangle().
inline HostCsr<double> lower_of(const HostCsr<double>& A) {
  HostCsr<double> L;
  L.num_rows = A.num_rows;
  L.row_map.push_back(0);
  for (ordinal_t r = 0; r < A.num_rows; ++r) {
    for (offset_t k = A.row_map[r]; k < A.row_map[r + 1]; ++k)
      if (A.cols[k] <= r) L.cols.push_back(A.cols[k]), L.vals.push_back(A.vals[k]);
    L.row_map.push_back(offset_t(L.cols.size()));
  }
  return L;
}

inline std::vector<double> host_matvec(const HostCsr<double>& A, const std::vector<double>& x) {
  std::vector<double> y(A.num_rows, 0.0);
  for (ordinal_t r = 0; r < A.num_rows; ++r)
    for (offset_t k = A.row_map[r]; k < A.row_map[r + 1]; ++k) y[r] += A.vals[k] * x[A.cols[k]];
  return y;
}

inline double norm2(const std::vector<double>& v) {
  double s = 0;
  for (double e : v) s += e * e;
  return std::sqrt(s);
}
// The node graph and 3 x 3 blocks of a CSR whose pattern is a node graph expanded (dof_graph.hpp):
// node row n is every third column of DOF row 3n, block k's (c, d) is entry 3j + d of row 3n + c.
struct HostBsr {
  HostCsr<double> node;  // vals unused
  std::vector<double> blocks;
};
inline HostBsr to_blocks(const HostCsr<double>& K) {
  HostBsr b;
  const ordinal_t nodes = K.num_rows / 3;
  b.node.num_rows = nodes;
  b.node.row_map.push_back(0);
  for (ordinal_t n = 0; n < nodes; ++n) {
    const offset_t r0 = K.row_map[3 * n], len = (K.row_map[3 * n + 1] - r0) / 3;
    for (offset_t j = 0; j < len; ++j) {
      b.node.cols.push_back(K.cols[r0 + 3 * j] / 3);
      for (int c = 0; c < 3; ++c)
        for (int d = 0; d < 3; ++d) b.blocks.push_back(K.vals[K.row_map[3 * n + c] + 3 * j + d]);
    }
    b.node.row_map.push_back(offset_t(b.node.cols.size()));
  }
  return b;
}
}  // namespace kfem::test
