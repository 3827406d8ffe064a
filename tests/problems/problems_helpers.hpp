// Test helpers for tests/problems: a host P1 Laplace assembly on tri3 meshes (full CSR), a lower
// triangle extraction, views to and from vectors. Written here, independent of the assembly code.
#pragma once
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "kfem/core/types.hpp"
#include "kfem/mesh/mesh.hpp"
#include "kfem/sparsity/csr.hpp"
#include "solve/solve_helpers.hpp"  // to_view, to_vector, DeviceCsr, to_device

namespace kfem::test {
// K_ij = eps * int grad N_i . grad N_j over counter-clockwise tri3 elements.
inline HostCsr<double> laplace_p1(const Mesh& mesh, double eps = 1.0) {
  const auto n = ordinal_t(mesh.num_nodes());
  std::vector<std::set<ordinal_t>> pattern(n);
  for (const auto& el : mesh.elements)
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) pattern[el[a]].insert(el[b]);
  HostCsr<double> K;
  K.num_rows = n;
  K.row_map.push_back(0);
  for (const auto& row : pattern) {
    K.cols.insert(K.cols.end(), row.begin(), row.end());
    K.row_map.push_back(offset_t(K.cols.size()));
  }
  K.vals.assign(K.cols.size(), 0.0);
  const auto add = [&](ordinal_t r, ordinal_t c, double v) {
    const auto first = K.cols.begin() + K.row_map[r], last = K.cols.begin() + K.row_map[r + 1];
    K.vals[std::lower_bound(first, last, c) - K.cols.begin()] += v;
  };
  for (const auto& el : mesh.elements) {
    const auto& p0 = mesh.nodes[el[0]];
    const auto& p1 = mesh.nodes[el[1]];
    const auto& p2 = mesh.nodes[el[2]];
    // grad N_a = (y_b - y_c, x_c - x_b) / (2 A) for (a, b, c) cyclic.
    const double b[3] = {p1[1] - p2[1], p2[1] - p0[1], p0[1] - p1[1]};
    const double c[3] = {p2[0] - p1[0], p0[0] - p2[0], p1[0] - p0[0]};
    const double area2 = (p1[0] - p0[0]) * (p2[1] - p0[1]) - (p1[1] - p0[1]) * (p2[0] - p0[0]);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) add(el[i], el[j], eps * (b[i] * b[j] + c[i] * c[j]) / (2 * area2));
  }
  return K;
}

}  // namespace kfem::test
