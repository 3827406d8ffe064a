// Lower-triangular storage of a symmetric matrix: each row keeps its columns <= row. Taken from the
// full DOF pattern, where the kept columns of a sorted row are a prefix: a binary search finds its
// length, and the copy runs with the vector lanes on neighbouring entries of a row (a thread per row
// would read and write 32 rows' worth of scattered lines per warp).
#pragma once
#include <Kokkos_Core.hpp>
#include <string>

#include "kfem/core/exec_spaces.hpp"
#include "kfem/core/scan.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem {
namespace lower_detail {
// Named functors, not KOKKOS_LAMBDAs: set-ups and tests in several translation units instantiate
// them (see core/fill.hpp).
template <class Mem>
struct Count {  // kept(i) = the columns <= i of row i
  Kokkos::View<const offset_t*, Mem> rows;
  Kokkos::View<const ordinal_t*, Mem> cols;
  Kokkos::View<offset_t*, Mem> kept;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t i) const {
    offset_t lo = rows(i), hi = rows(i + 1);
    while (lo < hi) {
      const offset_t mid = (lo + hi) / 2;
      if (cols(mid) <= i)
        lo = mid + 1;
      else
        hi = mid;
    }
    kept(i) = lo - rows(i);
  }
};

template <class Exec>
struct Copy {  // one row per team member, its lanes over the row's kept prefix
  using Mem = typename Exec::memory_space;
  using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
  Kokkos::View<const offset_t*, Mem> rows, lrows;
  Kokkos::View<const ordinal_t*, Mem> cols;
  Kokkos::View<ordinal_t*, Mem> lcols;
  ordinal_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& t) const {
    const ordinal_t i = ordinal_t(t.league_rank()) * t.team_size() + t.team_rank();
    if (i >= n) return;
    const offset_t from = rows(i), to = lrows(i);
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, lrows(i + 1) - to),
                         [&](offset_t k) { lcols(to + k) = cols(from + k); });
  }
};
}  // namespace lower_detail

template <class Exec>
CsrGraph<typename Exec::memory_space> lower_triangle(const Exec& exec,
                                                     const CsrGraph<typename Exec::memory_space>& full) {
  using Mem = typename Exec::memory_space;
  using Team = Kokkos::TeamPolicy<Exec>;
  const ordinal_t n = full.num_rows;
  Kokkos::View<offset_t*, Mem> lrows("kfem::lower_row_map", n + 1);
  Kokkos::parallel_for("kfem::lower_count", Kokkos::RangePolicy<Exec>(exec, 0, n),
                       lower_detail::Count<Mem>{full.row_map, full.cols, lrows});
  const offset_t nnz = exclusive_scan(exec, "kfem::lower_scan", lrows, lrows, n);
  Kokkos::View<ordinal_t*, Mem> lcols(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kfem::lower_cols")), nnz);
  // As the DOF graph's row writes: 8 rows of 32 lanes per team on a device, a row per host thread.
  constexpr bool host = on_host<Exec>;
  const int members = host ? 1 : 8, lanes = host ? 1 : 32;
  if (n > 0)
    Kokkos::parallel_for("kfem::lower_copy", Team(exec, int((n + members - 1) / members), members, lanes),
                         lower_detail::Copy<Exec>{full.row_map, lrows, full.cols, lcols, n});
  return {n, lrows, lcols};
}
}  // namespace kfem
