// a-COO rows -> CSR (amorim §III.B): one thread per row applies the Dirichlet conditions, sorts and
// consolidates the row (duplicates summed, eliminated entries dropped) and counts it; a prefix sum
// of the counts gives the CSR row map, and the rows are written into CSR.
//
// Rows are gathered first, so that any row length sorts in place without per-row allocation
// (prism p = 3 rows hold thousands of pushes): list lengths -> prefix sum -> each row copies its
// list into its own segment of one array; then the lists are released.
//
// Determinism: list order depends on thread timing, but each segment is sorted by (column, value),
// a total order, so every column's duplicates are summed in one fixed order: the CSR is bitwise
// the same run to run. It still differs from an atomic or coloured CSR assembly by summation-order
// rounding (~1e-16 relative in double, ~1e-7 in float).
//
// Dirichlet, exactly as apply_dirichlet (problems/dirichlet.hpp) on full storage, then without the
// entries it zeroes:
//  - with values (non-homogeneous): a free row r drops its fixed columns c after
//    rhs(r) -= sum_c A(r, c) g(c) (ascending c, as apply_dirichlet); a fixed row keeps only its
//    diagonal d (1 where d <= 0) and rhs(r) = d g(r);
//  - without values (homogeneous): the same eliminations, a unit diagonal and rhs(r) = 0.
// A fixed row whose list lacks the diagonal (a DOF in no element) still gets (r, d = 1), where
// apply_dirichlet requires the diagonal in the pattern.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "kfem/assembly/acoo/acoo_lists.hpp"
#include "kfem/core/error.hpp"
#include "kfem/core/types.hpp"
#include "kfem/report/timing.hpp"
#include "kfem/sparsity/csr.hpp"
#include "kfem/sparsity/dof_graph.hpp"

namespace kfem::acoo {
// Fixed DOFs (device ids), their prescribed values (one per DOF; empty: homogeneous conditions)
// and the right-hand side they update (num_rows entries). No dofs: no conditions.
template <class S, class MemorySpace>
struct Dirichlet {
  Kokkos::View<const ordinal_t*, MemorySpace> dofs;
  Kokkos::View<const S*, MemorySpace> values;
  Kokkos::View<S*, MemorySpace> rhs;
  bool active() const { return dofs.extent(0) > 0; }
};

template <class S, class MemorySpace>
struct Csr {
  CsrGraph<MemorySpace> graph;
  Kokkos::View<S*, MemorySpace> values;
};

struct ConsolidateTimes {
  double consolidate_s = 0;       // gather, sort, sum, Dirichlet, row counts
  double csr_s = 0;               // prefix sum of the counts + CSR write
  std::size_t scratch_bytes = 0;  // row segments + gathered entries, live together with the lists
};

namespace detail {
// A gathered push; ordered by column, then value (see "Determinism" above). sort_row needs < and >.
template <class S>
struct Entry {
  ordinal_t col;
  S val;
  KOKKOS_INLINE_FUNCTION bool operator<(const Entry& o) const {
    return col < o.col || (col == o.col && val < o.val);
  }
  KOKKOS_INLINE_FUNCTION bool operator>(const Entry& o) const { return o < *this; }
};

// In place: v(i) <- v(0) + ... + v(i-1) over [0, n]; v(n) ends as the total (v(n)'s input is ignored).
template <class MemorySpace>
struct ExclusiveScan {
  using value_type = offset_t;
  Kokkos::View<offset_t*, MemorySpace> v;
  ordinal_t n;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t i, offset_t& sum, bool final) const {
    const offset_t x = i < n ? v(i) : 0;
    if (final) v(i) = sum;
    sum += x;
  }
};

template <class MemorySpace>
struct ListLength {
  Kokkos::View<const link_t*, MemorySpace> head, next;
  Kokkos::View<offset_t*, MemorySpace> length;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const {
    offset_t n = 0;
    for (link_t k = head(r); k != end_of_list; k = next(k)) ++n;
    length(r) = n;
  }
};

template <class S, class MemorySpace>
struct Gather {
  Kokkos::View<const link_t*, MemorySpace> head, next;
  Kokkos::View<const ordinal_t*, MemorySpace> cols;
  Kokkos::View<const S*, MemorySpace> vals;
  Kokkos::View<const offset_t*, MemorySpace> segment;
  Kokkos::View<Entry<S>*, MemorySpace> out;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const {
    offset_t i = segment(r);
    for (link_t k = head(r); k != end_of_list; k = next(k)) out(i++) = Entry<S>{cols(k), vals(k)};
  }
};

template <class MemorySpace>
struct ZeroMask {
  Kokkos::View<unsigned char*, MemorySpace> fixed;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const { fixed(r) = 0; }
};

template <class S, class MemorySpace>
struct MarkFixed {
  Kokkos::View<unsigned char*, MemorySpace> fixed;
  Kokkos::View<S*, MemorySpace> g;  // empty for homogeneous conditions
  Kokkos::View<const ordinal_t*, MemorySpace> dofs;
  Kokkos::View<const S*, MemorySpace> values;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i) const {
    fixed(dofs(i)) = 1;
    if (g.extent(0) > 0) g(dofs(i)) = values(i);
  }
};

enum class Conditions { none, homogeneous, values };

// Row r: sort its segment, sum duplicates, apply the conditions, compact to the segment's front,
// count into count(r) (the CSR row length; a fixed row always counts its diagonal).
template <class S, class MemorySpace>
struct ConsolidateRow {
  Kokkos::View<Entry<S>*, MemorySpace> entries;
  Kokkos::View<const offset_t*, MemorySpace> segment;
  Kokkos::View<offset_t*, MemorySpace> count;
  Kokkos::View<const unsigned char*, MemorySpace> fixed;
  Kokkos::View<const S*, MemorySpace> g;
  Kokkos::View<S*, MemorySpace> rhs;
  Conditions bc;

  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const {
    const offset_t b = segment(r), e = segment(r + 1);
    Entry<S>* const v = e > b ? &entries(b) : nullptr;
    sort_row(v, e - b);
    const bool row_fixed = bc != Conditions::none && fixed(r);
    S lift = S(0), diag = S(1);
    offset_t out = 0;
    for (offset_t i = 0; i < e - b;) {
      const ordinal_t c = v[i].col;
      S sum = S(0);
      for (; i < e - b && v[i].col == c; ++i) sum += v[i].val;
      if (row_fixed) {  // only the diagonal survives
        if (c == r && bc == Conditions::values && sum > S(0)) diag = sum;
        continue;
      }
      if (bc != Conditions::none && c != r && fixed(c)) {
        if (bc == Conditions::values) lift += sum * g(c);
        continue;
      }
      v[out++] = Entry<S>{c, sum};
    }
    if (row_fixed) {
      if (e > b) v[0] = Entry<S>{r, diag};  // else the CSR write supplies (r, 1)
      out = 1;
      rhs(r) = bc == Conditions::values ? diag * g(r) : S(0);
    } else if (bc == Conditions::values) {
      rhs(r) -= lift;
    }
    count(r) = out;
  }
};

template <class S, class MemorySpace>
struct WriteCsr {
  Kokkos::View<const Entry<S>*, MemorySpace> entries;
  Kokkos::View<const offset_t*, MemorySpace> segment, row_map;
  Kokkos::View<ordinal_t*, MemorySpace> cols;
  Kokkos::View<S*, MemorySpace> vals;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const {
    const offset_t o = row_map(r), n = row_map(r + 1) - o, b = segment(r);
    if (n > 0 && segment(r + 1) == b) {  // a fixed row with an empty list
      cols(o) = r;
      vals(o) = S(1);
      return;
    }
    for (offset_t k = 0; k < n; ++k) {
      cols(o + k) = entries(b + k).col;
      vals(o + k) = entries(b + k).val;
    }
  }
};

// Exclusive scan of v[0, n) in place on exec; v has n + 1 entries and v(n) becomes the total.
template <class Exec>
offset_t exclusive_scan(const Exec& exec, const char* label,
                        const Kokkos::View<offset_t*, typename Exec::memory_space>& v, ordinal_t n) {
  offset_t total = 0;
  Kokkos::parallel_scan(label, Kokkos::RangePolicy<Exec>(exec, 0, n + 1),
                        ExclusiveScan<typename Exec::memory_space>{v, n}, total);
  exec.fence();
  return total;
}
}  // namespace detail

// The lists -> CSR with sorted columns (plus the conditions in bc); lists are released (reset to
// empty views) once gathered. InputError if the pool overflowed. times, if given, receives the
// fenced stage times and the scratch bytes.
template <class Exec, class S>
Csr<S, typename Exec::memory_space> consolidate(const Exec& exec,
                                                Lists<S, typename Exec::memory_space>& lists,
                                                const Dirichlet<S, typename Exec::memory_space>& bc = {},
                                                ConsolidateTimes* times = nullptr) {
  using Mem = typename Exec::memory_space;
  using policy = Kokkos::RangePolicy<Exec>;
  const ordinal_t rows = lists.num_rows();
  const detail::Conditions kind = !bc.active()              ? detail::Conditions::none
                                  : bc.values.extent(0) > 0 ? detail::Conditions::values
                                                            : detail::Conditions::homogeneous;
  if (kind == detail::Conditions::values && bc.values.extent(0) != bc.dofs.extent(0))
    throw InputError("a-COO Dirichlet: " + std::to_string(bc.dofs.extent(0)) + " fixed DOFs but " +
                     std::to_string(bc.values.extent(0)) + " values");
  if (kind != detail::Conditions::none && bc.rhs.extent(0) != std::size_t(rows))
    throw InputError("a-COO Dirichlet: the right-hand side has " + std::to_string(bc.rhs.extent(0)) +
                     " entries, the matrix " + std::to_string(rows) + " rows");
  const offset_t used = check_pool(exec, lists);
  const auto raw = [](const char* label) {
    return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label));
  };

  Csr<S, Mem> out;
  Kokkos::View<offset_t*, Mem> segment(raw("kfem::acoo_segment"), rows + 1);
  Kokkos::View<detail::Entry<S>*, Mem> entries;
  ConsolidateTimes t;
  t.consolidate_s = time_fenced(exec, [&] {
    Kokkos::parallel_for("kfem::acoo_list_length", policy(exec, 0, rows),
                         detail::ListLength<Mem>{lists.head, lists.next, segment});
    const offset_t total = detail::exclusive_scan(exec, "kfem::acoo_segments", segment, rows);
    if (total != used)
      throw std::logic_error("a-COO: the lists hold " + std::to_string(total) + " of " +
                             std::to_string(used) + " pushes");
    entries = decltype(entries)(raw("kfem::acoo_entries"), total);
    Kokkos::parallel_for(
        "kfem::acoo_gather", policy(exec, 0, rows),
        detail::Gather<S, Mem>{lists.head, lists.next, lists.cols, lists.vals, segment, entries});
    exec.fence();
    lists = Lists<S, Mem>{};  // the a-COO storage is released here

    Kokkos::View<unsigned char*, Mem> fixed;
    Kokkos::View<S*, Mem> g;
    if (kind != detail::Conditions::none) {
      fixed = decltype(fixed)(raw("kfem::acoo_fixed"), rows);
      Kokkos::parallel_for("kfem::acoo_fixed_zero", policy(exec, 0, rows), detail::ZeroMask<Mem>{fixed});
      if (kind == detail::Conditions::values) g = decltype(g)(raw("kfem::acoo_fixed_values"), rows);
      Kokkos::parallel_for("kfem::acoo_fixed_mark", policy(exec, 0, bc.dofs.extent(0)),
                           detail::MarkFixed<S, Mem>{fixed, g, bc.dofs, bc.values});
    }
    out.graph.num_rows = rows;
    out.graph.row_map = decltype(out.graph.row_map)(raw("kfem::acoo_row_map"), rows + 1);
    Kokkos::parallel_for(
        "kfem::acoo_consolidate", policy(exec, 0, rows),
        detail::ConsolidateRow<S, Mem>{entries, segment, out.graph.row_map, fixed, g, bc.rhs, kind});
  });
  t.scratch_bytes = segment.extent(0) * sizeof(offset_t) + entries.extent(0) * sizeof(detail::Entry<S>);
  t.csr_s = time_fenced(exec, [&] {
    const offset_t nnz = detail::exclusive_scan(exec, "kfem::acoo_row_map", out.graph.row_map, rows);
    out.graph.cols = decltype(out.graph.cols)(raw("kfem::acoo_csr_cols"), nnz);
    out.values = decltype(out.values)(raw("kfem::acoo_csr_values"), nnz);
    Kokkos::parallel_for(
        "kfem::acoo_write_csr", policy(exec, 0, rows),
        detail::WriteCsr<S, Mem>{entries, segment, out.graph.row_map, out.graph.cols, out.values});
  });
  if (times) *times = t;
  return out;
}
}  // namespace kfem::acoo
