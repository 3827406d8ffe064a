// The pipeline's verification stage: a point's assembled matrix against its family's oracle
// (model.hpp's Oracle, the plain host assembly in double), by settings.verify:
//  - products (the default): y = A x for the oracle's check vectors, on the matrix's own space in
//    double, against the oracle's element-by-element K x. Each x_j is +-[0.5, 1), so one wrong entry
//    (i, j) moves y_i by at least half its error: passed while max |y - Kx| <= tol max (|A| |x|).
//  - entries: entry by entry against the oracle's assembled matrix, pattern for pattern.
#pragma once
#include <Kokkos_Core.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "kfem/assembly/reference.hpp"
#include "kfem/pipeline/model.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem::pipeline {
// The largest relative difference a scalar's assembly may show: its rounding over a few hundred adds.
template <class S>
inline constexpr double verify_tolerance = std::is_same_v<S, float> ? 1e-5 : 1e-12;

// For each vector x[v]: y = A x and a = |A| |x| (the product's rounding scale), in double on exec
// (lower storage: A = L + L^T - D, the mirrored adds atomic). Host vectors, y[v] then a[v].
template <class Exec, class S, class Mem>
std::vector<std::vector<double>> matrix_products(const Exec& exec, const CsrGraph<Mem>& A,
                                                 const Kokkos::View<S*, Mem>& values, bool lower,
                                                 const std::vector<std::vector<double>>& x) {
  const ordinal_t n = A.num_rows;
  const int k = int(x.size());
  using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Mem>;
  Matrix X(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::check_x"), n, k);
  Matrix Y("kfem::check_y", n, 2 * k);  // columns v: A x[v]; k + v: |A| |x[v]|
  const auto hX = Kokkos::create_mirror_view(X);
  for (int v = 0; v < k; ++v)
    for (ordinal_t i = 0; i < n; ++i) hX(i, v) = x[v][i];
  Kokkos::deep_copy(exec, X, hX);
  const auto rows = A.row_map;
  const auto cols = A.cols;
  Kokkos::parallel_for(
      "kfem::check_products", Kokkos::RangePolicy<Exec>(exec, 0, n), KOKKOS_LAMBDA(const ordinal_t i) {
        for (int v = 0; v < k; ++v) {
          double y = 0, a = 0;
          for (offset_t p = rows(i); p < rows(i + 1); ++p) {
            const ordinal_t j = cols(p);
            const double aij = double(values(p)), mag = aij < 0 ? -aij : aij;
            y += aij * X(j, v);
            a += mag * (X(j, v) < 0 ? -X(j, v) : X(j, v));
            if (lower && j != i) {
              Kokkos::atomic_add(&Y(j, v), aij * X(i, v));
              Kokkos::atomic_add(&Y(j, k + v), mag * (X(i, v) < 0 ? -X(i, v) : X(i, v)));
            }
          }
          if (lower) {
            Kokkos::atomic_add(&Y(i, v), y);
            Kokkos::atomic_add(&Y(i, k + v), a);
          } else {
            Y(i, v) = y, Y(i, k + v) = a;
          }
        }
      });
  const auto hY = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Y);
  std::vector<std::vector<double>> out(2 * std::size_t(k), std::vector<double>(std::size_t(n)));
  for (int c = 0; c < 2 * k; ++c)
    for (ordinal_t i = 0; i < n; ++i) out[c][i] = hY(i, c);
  return out;
}

// max |y - ref| (NaN: infinite) and max a over every vector: {max_abs, scale}.
inline std::pair<double, double> product_difference(const std::vector<std::vector<double>>& ya,
                                                    const std::vector<std::vector<double>>& ref) {
  const std::size_t k = ref.size();
  double diff = 0, scale = 0;
  for (std::size_t v = 0; v < k; ++v)
    for (std::size_t i = 0; i < ref[v].size(); ++i) {
      const double d = std::abs(ya[v][i] - ref[v][i]);
      diff = std::isnan(d) ? INFINITY : std::max(diff, d);
      scale = std::isnan(ya[k + v][i]) ? INFINITY : std::max(scale, ya[k + v][i]);
    }
  return {diff, scale};
}

// The report's "verification" object for a matrix on exec's space: status passed | FAILED, the
// method, the differences, the tolerance and the oracle's seconds; status skipped (and why) without
// an oracle. Lower storage is compared with the oracle's lower triangle (entries) or applied as
// L + L^T - D (products). Entries bring the matrix to the host.
template <class Exec, class S, class Mem>
nlohmann::json verification(const Exec& exec, const CsrGraph<Mem>& A, const Kokkos::View<S*, Mem>& values,
                            bool lower, const Oracle& oracle) {
  if (oracle.empty()) return {{"status", "skipped"}, {"reason", "mesh above bench.verify_limit"}};
  const double tol = verify_tolerance<S>;
  if (!oracle.products) {
    const MatrixDiff d = compare(to_host(A, values), lower ? oracle.lower() : *oracle.matrix);
    return {{"status", d.same_pattern && d.max_rel <= tol ? "passed" : "FAILED"},
            {"method", "entries"},
            {"max_abs", d.max_abs},
            {"max_rel", d.max_rel},
            {"max_entry_rel", d.max_entry_rel},
            {"same_pattern", d.same_pattern},
            {"tolerance", tol},
            {"oracle_s", oracle.seconds}};
  }
  const std::size_t n = oracle.products->diagonal.size();
  double diff = INFINITY, scale = 0;
  if (std::size_t(A.num_rows) == n) {
    const auto [d, s] =
        product_difference(matrix_products(exec, A, values, lower, oracle.x), oracle.products->y);
    diff = d, scale = s;
  }
  const double rel = scale > 0 ? diff / scale : diff;
  return {{"status", rel <= tol ? "passed" : "FAILED"},
          {"method", "products"},
          {"vectors", oracle.x.size()},
          {"max_abs", diff},
          {"max_rel", rel},
          {"tolerance", tol},
          {"oracle_s", oracle.seconds}};
}

// The same for a matrix on the host (gathered from ranks, a-COO's consolidated CSR); null: skipped.
template <class S>
nlohmann::json verification(const HostCsr<S>* got, const Oracle& oracle, bool lower) {
  if (!got || oracle.empty()) return {{"status", "skipped"}, {"reason", "mesh above bench.verify_limit"}};
  using Mem = Kokkos::HostSpace;
  CsrGraph<Mem> A;  // views on got's vectors, not copies
  A.num_rows = got->num_rows;
  A.row_map = Kokkos::View<offset_t*, Mem>(const_cast<offset_t*>(got->row_map.data()), got->row_map.size());
  A.cols = Kokkos::View<ordinal_t*, Mem>(const_cast<ordinal_t*>(got->cols.data()), got->cols.size());
  const Kokkos::View<S*, Mem> values(const_cast<S*>(got->vals.data()), got->vals.size());
  return verification(Kokkos::DefaultHostExecutionSpace(), A, values, lower, oracle);
}
}  // namespace kfem::pipeline
