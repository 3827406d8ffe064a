// Block storage (BSR): the node graph as the block pattern and C x C blocks of values, C = DOFs
// per node. Block k of the node graph (node row n, column m) holds A(C n + c, C m + d) at
// C^2 k + C c + d. The DOF pattern is the node graph expanded (dof_graph.hpp: row C n + c holds the
// columns C m + d in node-column order), so entry j of DOF row C n + c is (node column j / C,
// component j % C): expanding blocks into CSR values is a copy, no search. For C = 1 BSR is CSR.
// Lower block storage (bsr-lower) keeps the blocks of the node graph's lower triangle (m <= n),
// each whole, of a symmetric matrix: a diagonal block's entries above its diagonal are zero (never
// written; symmetry gives them), so the DOF lower triangle is the same copy, the diagonal block last
// in its row and c + 1 of its entries in DOF row C n + c.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/core/exec_spaces.hpp"
#include "kfem/core/fill.hpp"
#include "kfem/core/types.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem {
namespace bsr_detail {
// DOF row r = C n + c of block storage, in column order: f(column, slot) for each entry. Lower block
// storage stops the diagonal block (last in its node row) at the diagonal. Expand below and
// BsrOperator::host_matrix read the rows this one way, on the device and on the host.
template <class Rows, class Cols, class F>
KOKKOS_INLINE_FUNCTION void for_each_in_dof_row(const Rows& node_rows, const Cols& node_cols, int C,
                                                bool lower, ordinal_t r, const F& f) {
  const ordinal_t n = r / C;
  const int c = r % C;
  for (offset_t k = node_rows(n); k < node_rows(n + 1); ++k) {
    const ordinal_t m = node_cols(k);
    const int columns = lower && m == n ? c + 1 : C;
    for (int d = 0; d < columns; ++d) f(C * m + d, k * C * C + C * c + d);
  }
}

// One thread per DOF row: its entries from the blocks of its node row (a named functor: the
// library and the tests instantiate it).
template <class S, class Mem>
struct Expand {
  Kokkos::View<const offset_t*, Mem> node_rows;
  Kokkos::View<const ordinal_t*, Mem> node_cols;
  Kokkos::View<const offset_t*, Mem> dof_rows;
  Kokkos::View<const S*, Mem> blocks;
  Kokkos::View<S*, Mem> csr;
  int C;
  bool lower;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const {
    offset_t to = dof_rows(r);
    for_each_in_dof_row(node_rows, node_cols, C, lower, r,
                        [&](ordinal_t, offset_t k) { csr(to++) = blocks(k); });
  }
};

// The host side of the one reading: appends (column, value in double) of each entry to host views
// sized for every entry of the blocks. A functor with a host-device operator, not a host lambda,
// since for_each_in_dof_row is host-device (nvcc refuses a host lambda called from it).
template <class S>
struct AppendEntry {
  Kokkos::View<const S*, Kokkos::HostSpace> blocks;
  Kokkos::View<ordinal_t*, Kokkos::HostSpace> cols;
  Kokkos::View<double*, Kokkos::HostSpace> vals;
  offset_t* next;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t col, offset_t k) const {
    cols(*next) = col;
    vals(*next) = double(blocks(k));
    ++*next;
  }
};

// y = A x, one thread per node row; C a compile-time constant where it is 1 or 3 (the loops
// unroll), else the run-time value.
template <int CT, class S, class Mem>
struct Spmv {
  Kokkos::View<const offset_t*, Mem> rows;
  Kokkos::View<const ordinal_t*, Mem> cols;
  Kokkos::View<const S*, Mem> values, x;
  Kokkos::View<S*, Mem> y;
  int C_run;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t n) const {
    constexpr int most = CT > 0 ? CT : 8;
    const int C = CT > 0 ? CT : C_run;
    S sum[most] = {};
    for (offset_t k = rows(n); k < rows(n + 1); ++k) {
      const ordinal_t m = cols(k);
      const S* const B = &values(k * C * C);
      for (int c = 0; c < C; ++c)
        for (int d = 0; d < C; ++d) sum[c] += B[C * c + d] * x(C * m + d);
    }
    for (int c = 0; c < C; ++c) y(C * n + c) = sum[c];
  }
};

// y = (L + L^T - D) x for lower block storage, one thread per node row (y zeroed before): each
// block adds B x_m to its own row and, off the diagonal, B^T x_n to row m; the diagonal block adds
// its strict lower triangle's transpose to its own row. Other rows write y concurrently, so every
// add to y is atomic.
template <int CT, class S, class Mem>
struct SpmvLower {
  Kokkos::View<const offset_t*, Mem> rows;
  Kokkos::View<const ordinal_t*, Mem> cols;
  Kokkos::View<const S*, Mem> values, x;
  Kokkos::View<S*, Mem, Kokkos::MemoryTraits<Kokkos::Atomic>> y;
  int C_run;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t n) const {
    constexpr int most = CT > 0 ? CT : 8;
    const int C = CT > 0 ? CT : C_run;
    S sum[most] = {}, xn[most] = {};
    for (int c = 0; c < C; ++c) xn[c] = x(C * n + c);
    for (offset_t k = rows(n); k < rows(n + 1); ++k) {
      const ordinal_t m = cols(k);
      const S* const B = &values(k * C * C);
      for (int c = 0; c < C; ++c)
        for (int d = 0; d < C; ++d) sum[c] += B[C * c + d] * x(C * m + d);
      if (m == n) {
        for (int c = 1; c < C; ++c)
          for (int d = 0; d < c; ++d) sum[d] += B[C * c + d] * xn[c];
        continue;
      }
      for (int d = 0; d < C; ++d) {
        S t = S(0);
        for (int c = 0; c < C; ++c) t += B[C * c + d] * xn[c];
        y(C * m + d) += t;
      }
    }
    for (int c = 0; c < C; ++c) y(C * n + c) += sum[c];
  }
};

// The C partial sums of one node row (a reduction value: Kokkos adds them with +=).
template <class S, int C>
struct RowSums {
  S v[C];
  KOKKOS_INLINE_FUNCTION RowSums() {
    for (int c = 0; c < C; ++c) v[c] = S(0);
  }
  KOKKOS_INLINE_FUNCTION RowSums& operator+=(const RowSums& o) {
    for (int c = 0; c < C; ++c) v[c] += o.v[c];
    return *this;
  }
};

// y = A x with C = 3 on a device: a team thread (a warp) per node row, its lanes across the row's
// values in storage order, so that the warp reads them coalesced (entry v: block v / 9, row
// (v % 9) / 3, column v % 3); one thread per row would read 27 blocks alone, 216 bytes apart from
// its neighbour's.
template <class S, class Mem, class Member>
struct SpmvRows3 {
  Kokkos::View<const offset_t*, Mem> rows;
  Kokkos::View<const ordinal_t*, Mem> cols;
  Kokkos::View<const S*, Mem> values, x;
  Kokkos::View<S*, Mem> y;
  ordinal_t num_rows;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& t) const {
    const ordinal_t n = t.league_rank() * t.team_size() + t.team_rank();
    if (n >= num_rows) return;
    const offset_t k0 = rows(n), first = 9 * k0, count = 9 * (rows(n + 1) - k0);
    RowSums<S, 3> sum;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(t, count),
        [&](offset_t i, RowSums<S, 3>& s) {
          const offset_t v = first + i;
          const int e = int(v % 9);
          s.v[e / 3] += values(v) * x(3 * cols(v / 9) + e % 3);
        },
        sum);
    Kokkos::single(Kokkos::PerThread(t), [&] {
      for (int c = 0; c < 3; ++c) y(3 * n + c) = sum.v[c];
    });
  }
};

// d(C n + c) = 1 / A(C n + c, C n + c), 1 where the diagonal is 0.
template <class S, class Mem, class Out>
struct InverseDiagonal {
  Kokkos::View<const offset_t*, Mem> rows;
  Kokkos::View<const ordinal_t*, Mem> cols;
  Kokkos::View<const S*, Mem> values;
  Out d;
  int C;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t n) const {
    for (int c = 0; c < C; ++c) d(C * n + c) = 1;
    for (offset_t k = rows(n); k < rows(n + 1); ++k) {
      if (cols(k) != n) continue;
      for (int c = 0; c < C; ++c) {
        const S a = values(k * C * C + C * c + c);
        d(C * n + c) = a != S(0) ? S(1) / a : S(1);
      }
    }
  }
};

// Kernel<C, S, Mem> over the node rows, one thread each, C a compile-time constant where it is 3 or 1
// (0: the run-time value).
template <template <int, class, class> class Kernel, class Exec, class S, class Y>
void for_node_rows(const char* label, const Exec& exec, const CsrGraph<typename Exec::memory_space>& node,
                   int C, const Kokkos::View<const S*, typename Exec::memory_space>& values,
                   const Kokkos::View<const S*, typename Exec::memory_space>& x, const Y& y) {
  using Mem = typename Exec::memory_space;
  const Kokkos::RangePolicy<Exec> rows(exec, 0, node.num_rows);
  if (C == 3)
    Kokkos::parallel_for(label, rows, Kernel<3, S, Mem>{node.row_map, node.cols, values, x, y, C});
  else if (C == 1)
    Kokkos::parallel_for(label, rows, Kernel<1, S, Mem>{node.row_map, node.cols, values, x, y, C});
  else
    Kokkos::parallel_for(label, rows, Kernel<0, S, Mem>{node.row_map, node.cols, values, x, y, C});
}
}  // namespace bsr_detail

// Most DOFs per node the BSR kernels take (the C = 1 and 3 cases are compiled apart).
inline constexpr int bsr_most_components = 8;

// The CSR values of the DOF pattern `dof` (the node graph expanded, C per node) from BSR blocks on
// the node graph `node`, on exec; with `lower`, of the DOF lower triangle from lower block storage
// (node: the node graph's lower triangle). csr must hold dof.nnz() entries.
template <class Exec, class S>
void expand_blocks(const Exec& exec, const CsrGraph<typename Exec::memory_space>& node,
                   const CsrGraph<typename Exec::memory_space>& dof, int C,
                   const Kokkos::View<const S*, typename Exec::memory_space>& blocks,
                   const Kokkos::View<S*, typename Exec::memory_space>& csr, bool lower = false) {
  using Mem = typename Exec::memory_space;
  Kokkos::parallel_for(
      "kfem::bsr_expand", Kokkos::RangePolicy<Exec>(exec, 0, dof.num_rows),
      bsr_detail::Expand<S, Mem>{node.row_map, node.cols, dof.row_map, blocks, csr, C, lower});
}

// Which kernel bsr_spmv launches. automatic: rows on host backends, lanes on devices (C = 3).
enum class BsrSpmvKernel {
  automatic,
  rows,   // a thread per node row
  lanes,  // C = 3: a team thread per node row, its vector lanes across the row's values
};

// The kernel `automatic` means on Exec for C DOFs per node, and its description for reports.
template <class Exec>
constexpr BsrSpmvKernel bsr_spmv_kernel_for(int C) {
  return C == 3 && !on_host<Exec> ? BsrSpmvKernel::lanes : BsrSpmvKernel::rows;
}
inline const char* describe(BsrSpmvKernel k) {
  return k == BsrSpmvKernel::lanes ? "a team thread per node row, its lanes across the row's values"
                                   : "a thread per node row";
}

// y = A x for A in BSR (blocks on `node`, C per node), on exec; x and y must not alias.
template <class Exec, class S>
void bsr_spmv(const Exec& exec, const CsrGraph<typename Exec::memory_space>& node, int C,
              const Kokkos::View<const S*, typename Exec::memory_space>& values,
              const Kokkos::View<const S*, typename Exec::memory_space>& x,
              const Kokkos::View<S*, typename Exec::memory_space>& y,
              BsrSpmvKernel kernel = BsrSpmvKernel::automatic) {
  using Mem = typename Exec::memory_space;
  if (kernel == BsrSpmvKernel::automatic) kernel = bsr_spmv_kernel_for<Exec>(C);
  if (kernel == BsrSpmvKernel::lanes && C == 3) {  // a warp per node row, 8 rows a team
    using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
    const int rows_per_team = on_host<Exec> ? 1 : 8, lanes = on_host<Exec> ? 1 : 32;
    Kokkos::parallel_for(
        "kfem::bsr_spmv_rows",
        Kokkos::TeamPolicy<Exec>(exec, (node.num_rows + rows_per_team - 1) / rows_per_team, rows_per_team,
                                 lanes),
        bsr_detail::SpmvRows3<S, Mem, Member>{node.row_map, node.cols, values, x, y, node.num_rows});
    return;
  }
  bsr_detail::for_node_rows<bsr_detail::Spmv>("kfem::bsr_spmv", exec, node, C, values, x, y);
}

// y = A x for A symmetric in lower block storage (blocks on the node graph's lower triangle
// `node`), on exec: y is zeroed, then every block adds its product and, off the diagonal, its
// transpose's, atomically (summation order differs from a full product's and between GPU runs).
// x and y must not alias.
template <class Exec, class S>
void bsr_symmetric_spmv(const Exec& exec, const CsrGraph<typename Exec::memory_space>& node, int C,
                        const Kokkos::View<const S*, typename Exec::memory_space>& values,
                        const Kokkos::View<const S*, typename Exec::memory_space>& x,
                        const Kokkos::View<S*, typename Exec::memory_space>& y) {
  fill_zero(exec, y);
  bsr_detail::for_node_rows<bsr_detail::SpmvLower>("kfem::bsr_symmetric_spmv", exec, node, C, values, x, y);
}

// d = 1 / diag(A) for A in BSR, 1 where the diagonal is 0 (Jacobi's preconditioner), on exec.
template <class Exec, class S, class Out>
void bsr_inverse_diagonal(const Exec& exec, const CsrGraph<typename Exec::memory_space>& node, int C,
                          const Kokkos::View<const S*, typename Exec::memory_space>& values, const Out& d) {
  using Mem = typename Exec::memory_space;
  Kokkos::parallel_for("kfem::bsr_inverse_diagonal", Kokkos::RangePolicy<Exec>(exec, 0, node.num_rows),
                       bsr_detail::InverseDiagonal<S, Mem, Out>{node.row_map, node.cols, values, d, C});
}
}  // namespace kfem

template <class S, int C>
struct Kokkos::reduction_identity<kfem::bsr_detail::RowSums<S, C>> {
  KOKKOS_FORCEINLINE_FUNCTION static kfem::bsr_detail::RowSums<S, C> sum() { return {}; }
};
