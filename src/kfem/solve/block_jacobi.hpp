// Block Jacobi (solver.preconditioner: block-jacobi): M is the block diagonal of A, one C x C block
// per node (C DOFs per node, DOF C n + c), inverted once when a solve sets up. Its inverse is stored
// node by node, row-major: d(C^2 n + C i + j) = (A_nn^-1)(i, j). Elasticity couples a node's three
// displacements; scalar Jacobi drops that coupling, the block keeps it.
// A block that Gauss-Jordan finds singular (a zero pivot) falls back to scalar Jacobi's rule on its
// rows (1 / A(r, r), 1 where that is 0), so the preconditioner stays finite. Storage writes its blocks
// here from CSR (full or lower) or from BSR; the solvers apply it (cg.hpp).
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/core/types.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem::block_jacobi {
// The block sizes kfem's families have: 1 (scalar problems: block Jacobi is Jacobi) and 3.
inline constexpr int most_components = 3;

// inv = a^-1 by Gauss-Jordan with partial pivoting, in double; the diagonal rule where a pivot is 0.
// a is overwritten.
template <int C>
KOKKOS_INLINE_FUNCTION void invert(double (&a)[C][C], double (&inv)[C][C]) {
  double diag[C];
  for (int i = 0; i < C; ++i) {
    diag[i] = a[i][i];
    for (int j = 0; j < C; ++j) inv[i][j] = i == j ? 1.0 : 0.0;
  }
  bool singular = false;
  for (int k = 0; k < C && !singular; ++k) {
    int p = k;
    for (int i = k + 1; i < C; ++i)
      if (Kokkos::fabs(a[i][k]) > Kokkos::fabs(a[p][k])) p = i;
    if (a[p][k] == 0.0) {
      singular = true;
      break;
    }
    for (int j = 0; j < C; ++j) {
      const double t = a[k][j];
      a[k][j] = a[p][j], a[p][j] = t;
      const double u = inv[k][j];
      inv[k][j] = inv[p][j], inv[p][j] = u;
    }
    const double pivot = a[k][k];
    for (int j = 0; j < C; ++j) a[k][j] /= pivot, inv[k][j] /= pivot;
    for (int i = 0; i < C; ++i) {
      if (i == k) continue;
      const double f = a[i][k];
      for (int j = 0; j < C; ++j) a[i][j] -= f * a[k][j], inv[i][j] -= f * inv[k][j];
    }
  }
  if (singular)
    for (int i = 0; i < C; ++i)
      for (int j = 0; j < C; ++j) inv[i][j] = i != j ? 0.0 : diag[i] != 0.0 ? 1.0 / diag[i] : 1.0;
}

namespace detail {
template <int C, class S, class Out>
KOKKOS_INLINE_FUNCTION void write_inverse(double (&a)[C][C], ordinal_t n, const Out& d) {
  double inv[C][C];
  invert<C>(a, inv);
  for (int i = 0; i < C; ++i)
    for (int j = 0; j < C; ++j) d(offset_t(C) * C * n + C * i + j) = S(inv[i][j]);
}

// One thread per node: its diagonal block from rows C n .. C n + C - 1 of a CSR. In lower storage a
// row holds the block's entries left of and on the diagonal; symmetry gives the rest.
template <int C, class S, class Mem, class Out>
struct FromCsr {
  Kokkos::View<const offset_t*, Mem> row_map;
  Kokkos::View<const ordinal_t*, Mem> cols;
  Kokkos::View<const S*, Mem> values;
  Out d;
  bool lower;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t n) const {
    double a[C][C] = {};
    const ordinal_t first = C * n;
    for (int i = 0; i < C; ++i)
      for (offset_t k = row_map(first + i); k < row_map(first + i + 1); ++k) {
        const ordinal_t j = cols(k) - first;
        if (j < 0 || j >= C) continue;
        a[i][j] = double(values(k));
        if (lower) a[j][i] = a[i][j];
      }
    write_inverse<C, S>(a, n, d);
  }
};

// One thread per node: its diagonal block, the block of node row n in column n of a BSR. Lower
// block storage holds that block's lower triangle only; symmetry gives the rest.
template <int C, class S, class Mem, class Out>
struct FromBsr {
  Kokkos::View<const offset_t*, Mem> row_map;
  Kokkos::View<const ordinal_t*, Mem> cols;
  Kokkos::View<const S*, Mem> values;
  Out d;
  bool lower;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t n) const {
    double a[C][C] = {};
    for (offset_t k = row_map(n); k < row_map(n + 1); ++k)
      if (cols(k) == n)
        for (int i = 0; i < C; ++i)
          for (int j = 0; j < C; ++j) {
            const bool mirror = lower && j > i;  // above the diagonal: read (j, i)
            a[i][j] = double(values(offset_t(C) * C * k + C * (mirror ? j : i) + (mirror ? i : j)));
          }
    write_inverse<C, S>(a, n, d);
  }
};
}  // namespace detail

// d (C^2 entries a node) = the inverted diagonal blocks of the CSR (A, values), lower storage when
// `lower`; A's rows are C per node. On exec.
template <int C, class Exec, class S, class Out>
void from_csr(const Exec& exec, const CsrGraph<typename Exec::memory_space>& A,
              const Kokkos::View<S*, typename Exec::memory_space>& values, bool lower, const Out& d) {
  using Mem = typename Exec::memory_space;
  Kokkos::parallel_for("kfem::block_jacobi_csr", Kokkos::RangePolicy<Exec>(exec, 0, A.num_rows / C),
                       detail::FromCsr<C, S, Mem, Out>{A.row_map, A.cols, values, d, lower});
}
// The same from block storage: C x C blocks on `node` (sparsity/bsr.hpp's layout), the node
// graph or, for lower block storage (`lower`), its lower triangle.
template <int C, class Exec, class S, class Out>
void from_bsr(const Exec& exec, const CsrGraph<typename Exec::memory_space>& node,
              const Kokkos::View<S*, typename Exec::memory_space>& values, const Out& d, bool lower = false) {
  using Mem = typename Exec::memory_space;
  Kokkos::parallel_for("kfem::block_jacobi_bsr", Kokkos::RangePolicy<Exec>(exec, 0, node.num_rows),
                       detail::FromBsr<C, S, Mem, Out>{node.row_map, node.cols, values, d, lower});
}
}  // namespace kfem::block_jacobi
