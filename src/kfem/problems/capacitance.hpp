// Capacitor post-processing: the field energy W = 1/2 phi^T K phi of a solution (K the assembled
// matrix before Dirichlet conditions) and the capacitance per unit depth C = 2 W / V^2, V the
// potential difference between the plates. Compare with ideal_capacitance_per_depth (capacitor.hpp):
// fringing makes the FE value larger.
#pragma once
#include <Kokkos_Core.hpp>
#include <type_traits>
#include <vector>

#include "kfem/problems/dirichlet.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem {
// x^T A x for a symmetric A stored in full or as its lower triangle (detected as in
// apply_dirichlet): in lower storage each off-diagonal entry stands for two.
template <class Exec, class S>
double quadratic_form(const Exec& exec, const CsrGraph<typename Exec::memory_space>& A,
                      const Kokkos::View<S*, typename Exec::memory_space>& values,
                      const solve_detail::nondeduced_t<
                          Kokkos::View<const std::remove_const_t<S>*, typename Exec::memory_space>>& x) {
  const double mirror = is_lower_storage(exec, A) ? 2.0 : 1.0;
  const auto row_map = A.row_map;
  const auto cols = A.cols;
  double sum = 0;
  Kokkos::parallel_reduce(
      "kfem::quadratic_form", Kokkos::RangePolicy<Exec>(exec, 0, A.num_rows),
      KOKKOS_LAMBDA(ordinal_t r, double& acc) {
        double row = 0;
        for (offset_t k = row_map(r); k < row_map(r + 1); ++k) {
          const ordinal_t c = cols(k);
          row += (c == r ? 1.0 : mirror) * double(values(k)) * double(x(c));
        }
        acc += row * double(x(r));
      },
      sum);
  exec.fence();
  return sum;
}

// Host version over a HostCsr (full or lower storage).
template <class S>
double quadratic_form(const HostCsr<S>& A, const std::vector<S>& x) {
  bool lower = true;
  for (ordinal_t r = 0; r < A.num_rows && lower; ++r)
    if (A.row_map[r + 1] > A.row_map[r] && A.cols[A.row_map[r + 1] - 1] > r) lower = false;
  double sum = 0;
  for (ordinal_t r = 0; r < A.num_rows; ++r)
    for (offset_t k = A.row_map[r]; k < A.row_map[r + 1]; ++k)
      sum += (A.cols[k] == r || !lower ? 1.0 : 2.0) * double(A.vals[k]) * double(x[A.cols[k]]) * double(x[r]);
  return sum;
}

// W = 1/2 phi^T K phi: the energy per unit depth of the field, K = eps * stiffness.
template <class Exec, class S>
double field_energy(const Exec& exec, const CsrGraph<typename Exec::memory_space>& K,
                    const Kokkos::View<S*, typename Exec::memory_space>& values,
                    const solve_detail::nondeduced_t<
                        Kokkos::View<const std::remove_const_t<S>*, typename Exec::memory_space>>& phi) {
  return 0.5 * quadratic_form(exec, K, values, phi);
}
template <class S>
double field_energy(const HostCsr<S>& K, const std::vector<S>& phi) {
  return 0.5 * quadratic_form(K, phi);
}

// C = 2 W / V^2 (per unit depth, in the units of the eps that went into K).
inline double capacitance_per_depth(double W, double V) {
  return 2.0 * W / (V * V);
}
}  // namespace kfem
