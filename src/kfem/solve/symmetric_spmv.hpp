// Symmetric SpMV on lower-triangular storage (sanfui): y = (L + L^T - D) x, where L holds the
// columns <= row of a symmetric matrix (sorted, diagonal last, as lower_triangle() builds them).
#pragma once
#include <Kokkos_Core.hpp>
#include <type_traits>

#include "kfem/core/exec_spaces.hpp"
#include "kfem/core/fill.hpp"
#include "kfem/core/types.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem {
// Which kernel symmetric_spmv launches. automatic: row on host backends, team on devices.
enum class SymSpmvKernel {
  automatic,
  row,   // one thread per row, sequential over its entries
  team,  // a team handles a group of rows, one per team thread, vector lanes across each row
};

namespace solve_detail {
// Keeps a parameter out of template deduction, so a View<S*, Device<Exec, Mem>> (or a non-const
// View) converts to the View<const S*, Mem> the signature names.
template <class T>
struct nondeduced {
  using type = T;
};
template <class T>
using nondeduced_t = typename nondeduced<T>::type;

struct RowTag {};
struct TeamTag {};

// Row i contributes its full dot product L(i, 0..i) . x to y_i and, for each strictly lower entry,
// the mirrored term L_ij x_i to y_j. Other rows write y_i concurrently, so every update is atomic.
template <class Exec, class S>
struct SymmetricSpmv {
  using Mem = typename Exec::memory_space;
  using member_type = typename Kokkos::TeamPolicy<Exec, TeamTag>::member_type;

  // tour: symmetric-spmv
  ordinal_t num_rows;
  Kokkos::View<const offset_t*, Mem> row_map;
  Kokkos::View<const ordinal_t*, Mem> cols;
  Kokkos::View<const S*, Mem> values, x;
  Kokkos::View<S*, Mem, Kokkos::MemoryTraits<Kokkos::Atomic>> y;

  // Entry k of row i: scatters its transpose and returns its share of the row's dot product.
  KOKKOS_INLINE_FUNCTION S entry(ordinal_t i, S xi, offset_t k) const {
    const ordinal_t j = cols(k);
    const S a = values(k);
    if (j != i) y(j) += a * xi;
    return a * x(j);
  }

  KOKKOS_INLINE_FUNCTION void operator()(RowTag, ordinal_t i) const {
    const S xi = x(i);
    S sum = S(0);
    for (offset_t k = row_map(i); k < row_map(i + 1); ++k) sum += entry(i, xi, k);
    y(i) += sum;
  }
  // tour: end symmetric-spmv

  KOKKOS_INLINE_FUNCTION void operator()(TeamTag, const member_type& t) const {
    const ordinal_t i = t.league_rank() * t.team_size() + t.team_rank();
    if (i >= num_rows) return;
    const S xi = x(i);
    S sum = S(0);
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(t, row_map(i), row_map(i + 1)),
        [&](offset_t k, S& s) { s += entry(i, xi, k); }, sum);
    Kokkos::single(Kokkos::PerThread(t), [&] { y(i) += sum; });
  }
};
}  // namespace solve_detail

// y = (L + L^T - D) x on exec, for L the lower triangle (diagonal included) of a symmetric matrix.
// y is zeroed first and then receives nnz(L) atomic adds: one per row sum plus one per strictly
// lower entry (the mirrored upper half), i.e. n + (nnz(full) - n) / 2. In exchange the matrix read
// is about half of a full spmv's. Summation order differs from a full spmv (and, with atomics on a
// GPU, between runs), so results agree with it to rounding, not bitwise. x and y must not alias.
template <class Exec, class S>
void symmetric_spmv(
    const Exec& exec, const CsrGraph<typename Exec::memory_space>& L,
    const Kokkos::View<S*, typename Exec::memory_space>& values,
    const solve_detail::nondeduced_t<
        Kokkos::View<const std::remove_const_t<S>*, typename Exec::memory_space>>& x,
    const solve_detail::nondeduced_t<Kokkos::View<std::remove_const_t<S>*, typename Exec::memory_space>>& y,
    SymSpmvKernel kernel = SymSpmvKernel::automatic) {
  using T = std::remove_const_t<S>;
  using Functor = solve_detail::SymmetricSpmv<Exec, T>;
  const ordinal_t n = L.num_rows;
  fill_zero(exec, y);
  if (n == 0) return;
  const Functor f{n, L.row_map, L.cols, values, x, y};
  if (kernel == SymSpmvKernel::automatic) kernel = on_host<Exec> ? SymSpmvKernel::row : SymSpmvKernel::team;
  if (kernel == SymSpmvKernel::row) {
    Kokkos::parallel_for("kfem::symmetric_spmv_row",
                         Kokkos::RangePolicy<Exec, solve_detail::RowTag>(exec, 0, n), f);
    return;
  }
  // Lanes per row: the power of two (<= 32, a warp) nearest below the mean row length, ~41 for a
  // hex8 elasticity lower row; host backends run lanes in turn, so 1 there. 256 threads per team.
  int lanes = 1;
  if (!on_host<Exec>)
    while (lanes < 32 && 2 * lanes <= L.nnz() / n) lanes *= 2;
  const int rows_per_team = on_host<Exec> ? 1 : 256 / lanes;
  Kokkos::parallel_for("kfem::symmetric_spmv_team",
                       Kokkos::TeamPolicy<Exec, solve_detail::TeamTag>(
                           exec, (n + rows_per_team - 1) / rows_per_team, rows_per_team, lanes),
                       f);
}
}  // namespace kfem
