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
#include <tuple>
#include <type_traits>
#include <vector>

#include "kfem/assembly/reference.hpp"
#include "kfem/pipeline/model.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem::pipeline {
// The largest relative difference a scalar's assembly may show: its rounding over a few hundred adds.
template <class S>
inline constexpr double verify_tolerance = std::is_same_v<S, float> ? 1e-5 : 1e-12;

// Host vectors (all of length n) as the columns of a device matrix (n x count).
template <class Exec, class Mem = typename Exec::memory_space>
Kokkos::View<double**, Kokkos::LayoutLeft, Mem> to_device_columns(const Exec& exec,
                                                                  const std::vector<std::vector<double>>& x,
                                                                  ordinal_t n) {
  Kokkos::View<double**, Kokkos::LayoutLeft, Mem> X(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::check_x"), n, x.size());
  const auto h = Kokkos::create_mirror_view(X);
  for (std::size_t v = 0; v < x.size(); ++v) std::copy(x[v].begin(), x[v].end(), &h(0, v));  // LayoutLeft
  Kokkos::deep_copy(exec, X, h);
  return X;
}

// The kernels below are named functors, not KOKKOS_LAMBDAs: several translation units instantiate
// them (see core/fill.hpp).
namespace verify_detail {
template <class Column, class View>
struct ToDouble {
  Column c;
  View v;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const { c(i, 0) = double(v(i)); }
};

KOKKOS_INLINE_FUNCTION double magnitude(double x) {
  return x < 0 ? -x : x;
}

// Row i: Y(i, v) = (A x_v)_i and Y(i, k + v) = (|A| |x_v|)_i; lower: the mirrored adds too, atomic.
// Vectors go M at a time (M <= 4) and the storage is a template argument, so that the M sums stay in
// registers as independent chains of adds and the row's values and columns are read once for them
// all (mesh1's 2 vectors on the development VM's 2 threads: 93-102 -> 60-77 ms; with a run-time M
// or storage the sums lived on the stack, slower than a pass per vector). Each sum still adds in
// the row's order: the results are those of one vector at a time, bit for bit.
template <class Graph, class Values, class Matrix>
struct Products {
  Graph A;
  Values values;
  Matrix X, Y;
  int k;
  bool lower;
  template <bool Lower, int M>
  KOKKOS_INLINE_FUNCTION void rows_of(const ordinal_t i, const int v0) const {
    double y[M] = {}, a[M] = {};
    for (offset_t p = A.row_map(i); p < A.row_map(i + 1); ++p) {
      const ordinal_t j = A.cols(p);
      const double aij = double(values(p));
      for (int v = 0; v < M; ++v) {
        const double x = X(j, v0 + v);
        y[v] += aij * x;
        a[v] += magnitude(aij) * magnitude(x);
        if (Lower && j != i) {
          Kokkos::atomic_add(&Y(j, v0 + v), aij * X(i, v0 + v));
          Kokkos::atomic_add(&Y(j, k + v0 + v), magnitude(aij) * magnitude(X(i, v0 + v)));
        }
      }
    }
    for (int v = 0; v < M; ++v) {
      if (Lower) {
        Kokkos::atomic_add(&Y(i, v0 + v), y[v]);
        Kokkos::atomic_add(&Y(i, k + v0 + v), a[v]);
      } else {
        Y(i, v0 + v) = y[v], Y(i, k + v0 + v) = a[v];
      }
    }
  }
  template <bool Lower>
  KOKKOS_INLINE_FUNCTION void row(const ordinal_t i) const {
    int v0 = 0;
    for (; v0 + 4 <= k; v0 += 4) rows_of<Lower, 4>(i, v0);
    switch (k - v0) {
      case 3:
        rows_of<Lower, 3>(i, v0);
        break;
      case 2:
        rows_of<Lower, 2>(i, v0);
        break;
      case 1:
        rows_of<Lower, 1>(i, v0);
        break;
      default:
        break;
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(const ordinal_t i) const {
    if (lower)
      row<true>(i);
    else
      row<false>(i);
  }
};

// max |Y(:, v) - R(:, v)| and max Y(:, k + v) over the k columns of R; a NaN counts as the largest
// double (then infinity on the host).
template <class Matrix>
struct Difference {
  Matrix Y, R;
  std::int64_t n;
  int k;
  static constexpr double big = 1.7976931348623157e308;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t, double& d, double& s) const {
    const std::int64_t i = t % n;
    const int v = int(t / n);
    const double m = magnitude(Y(i, v) - R(i, v)), a = Y(i, k + v);
    d = m != m ? big : (m > d ? m : d);
    s = a != a ? big : (a > s ? a : s);
  }
};
}  // namespace verify_detail

// v (any scalar) as a one-column double matrix on exec.
template <class Exec, class View>
Kokkos::View<double**, Kokkos::LayoutLeft, typename View::memory_space> as_double_column(const Exec& exec,
                                                                                         const View& v) {
  using Column = Kokkos::View<double**, Kokkos::LayoutLeft, typename View::memory_space>;
  Column c(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::check_column"), v.extent(0), 1);
  Kokkos::parallel_for("kfem::check_column", Kokkos::RangePolicy<Exec>(exec, 0, v.extent(0)),
                       verify_detail::ToDouble<Column, View>{c, v});
  return c;
}

// For each column x of X: y = A x and a = |A| |x| (the product's rounding scale), in double on exec:
// Y(:, v) and Y(:, k + v) (lower storage: A = L + L^T - D, the mirrored adds atomic).
template <class Exec, class S, class Mem>
Kokkos::View<double**, Kokkos::LayoutLeft, Mem> matrix_products(
    const Exec& exec, const CsrGraph<Mem>& A, const Kokkos::View<S*, Mem>& values, bool lower,
    const Kokkos::View<double**, Kokkos::LayoutLeft, Mem>& X) {
  using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Mem>;
  const int k = int(X.extent(1));
  Matrix Y("kfem::check_y", A.num_rows, 2 * k);
  Kokkos::parallel_for(
      "kfem::check_products", Kokkos::RangePolicy<Exec>(exec, 0, A.num_rows),
      verify_detail::Products<CsrGraph<Mem>, Kokkos::View<S*, Mem>, Matrix>{A, values, X, Y, k, lower});
  return Y;
}

// Over the k columns of R, on exec: {max |Y(:, v) - R(:, v)|, max Y(:, k + v)}, a NaN counting as
// infinite.
template <class Exec, class Mem>
std::pair<double, double> product_difference(const Exec& exec,
                                             const Kokkos::View<double**, Kokkos::LayoutLeft, Mem>& Y,
                                             const Kokkos::View<double**, Kokkos::LayoutLeft, Mem>& R) {
  using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Mem>;
  using D = verify_detail::Difference<Matrix>;
  const int k = int(R.extent(1));
  const std::int64_t n = std::int64_t(R.extent(0));
  double diff = 0, scale = 0;
  Kokkos::parallel_reduce("kfem::check_difference", Kokkos::RangePolicy<Exec>(exec, 0, n * k), D{Y, R, n, k},
                          Kokkos::Max<double>(diff), Kokkos::Max<double>(scale));
  const auto nan_is_infinite = [](double x) { return x >= D::big ? INFINITY : x; };
  return {nan_is_infinite(diff), nan_is_infinite(scale)};
}

// The report's "verification" object for a matrix on exec's space: status passed | FAILED, the
// method, the differences, the tolerance and the oracle's seconds; status skipped (and why) without
// an oracle. Lower storage is compared with the oracle's lower triangle (entries) or applied as
// L + L^T - D (products). Entries bring the matrix to the host.
// tour: verification
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
  if (std::size_t(A.num_rows) == n) {  // the oracle's vectors and products to the matrix's space
    const auto X = to_device_columns(exec, oracle.x, A.num_rows);
    const auto R = to_device_columns(exec, oracle.products->y, A.num_rows);
    std::tie(diff, scale) = product_difference(exec, matrix_products(exec, A, values, lower, X), R);
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
// tour: end verification

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
