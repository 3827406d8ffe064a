// a-COO rows -> CSR (amorim §III.B): each row is sorted and consolidated (duplicates summed,
// Dirichlet conditions applied, eliminated entries dropped) and counted; a prefix sum of the counts
// gives the CSR row map, and the rows are written into CSR.
//
// Rows are gathered first, so that any row length sorts without per-row allocation (prism p = 3
// rows hold thousands of pushes): list lengths (and the longest) -> prefix sum -> each row copies
// its list into its own segment of one array; then the lists are released.
//
// Two work mappings of the row consolidation (RowMapping), with the same result bit for bit:
//  - thread: one thread per row sorts its segment in place (sort_row). Right on host backends; on a
//    GPU a warp's 32 threads sort 32 segments in global memory, uncoalesced, and that sort is most
//    of an a-COO assembly's time.
//  - team: one warp per row (a team of a few rows on the GPU, one row per team on host backends)
//    copies the segment into scratch (coalesced), places every entry at its rank, the count of
//    the entries before it in the order below (O(n^2 / lanes) scratch reads, all lanes reading the
//    same entry), then one lane consolidates. Rows longer than the scratch allows use thread.
// Both end in RowRule, one loop over the sorted row, so the sums run in the same order.
//
// Determinism: list order depends on thread timing, but each row is sorted by (column, value),
// a total order (NaN after every number), so every column's duplicates are summed in one fixed
// order: the CSR is bitwise the same run to run and from either mapping. Entries equal in that
// order are equal values (or +0 and -0, whose order cannot change a sum that starts at +0). The
// CSR still differs from an atomic or coloured assembly by summation-order rounding (~1e-16
// relative in double, ~1e-7 in float).
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
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "kfem/assembly/acoo/acoo_lists.hpp"
#include "kfem/assembly/lanes.hpp"
#include "kfem/core/error.hpp"
#include "kfem/core/fill.hpp"
#include "kfem/core/scan.hpp"
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

// Who consolidates a row (see the top of this file). automatic: team on device backends where the
// longest row fits the scratch, thread on host backends (whose lanes run in turn, so ranking would
// cost n^2 comparisons a row). team: team wherever the longest row fits, thread otherwise.
enum class RowMapping { automatic, thread, team };

struct ConsolidateOptions {
  RowMapping rows = RowMapping::automatic;
  // Team scratch bytes a team may use (2 x longest row x entry size per row); the backend's level-0
  // limit caps it too. 48 KB leaves room for several teams per GPU multiprocessor.
  std::size_t team_scratch_limit = 48 * 1024;
};

struct ConsolidateTimes {
  double consolidate_s = 0;              // lengths_s + gather_s + sort_s
  double lengths_s = 0;                  // list lengths and the longest, prefix sum, segments allocated
  double gather_s = 0;                   // lists -> row segments, lists released
  double sort_s = 0;                     // Dirichlet mask; per row: sort, sum, Dirichlet, count
  double csr_s = 0;                      // prefix sum of the counts + CSR write
  std::size_t scratch_bytes = 0;         // row segments + gathered entries, live together with the lists
  offset_t longest_row = 0;              // pushes onto the longest list
  RowMapping rows = RowMapping::thread;  // the mapping that ran: thread or team
  int rows_per_team = 0;                 // team: rows a team consolidated together
};

namespace detail {
// A gathered push; ordered by column, then value, NaN after every number (see "Determinism"
// above; a NaN must not break the order, or ranks would collide). sort_row needs < and >.
template <class S>
struct Entry {
  ordinal_t col;
  S val;
  KOKKOS_INLINE_FUNCTION bool operator<(const Entry& o) const {
    return col < o.col || (col == o.col && (val < o.val || (o.val != o.val && val == val)));
  }
  KOKKOS_INLINE_FUNCTION bool operator>(const Entry& o) const { return o < *this; }
};

// Row lengths, and the longest (a max-reduction) to size the team scratch.
template <class MemorySpace>
struct ListLength {
  Kokkos::View<const link_t*, MemorySpace> head, next;
  Kokkos::View<offset_t*, MemorySpace> length;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r, offset_t& longest) const {
    offset_t n = 0;
    for (link_t k = head(r); k != end_of_list; k = next(k)) ++n;
    length(r) = n;
    if (n > longest) longest = n;
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

// The consolidation of one sorted row, shared by both row mappings so that they sum alike: v[0, n)
// is row r sorted; each column's duplicates are summed in that order, the conditions applied, and
// the kept entries written to dst[0, count) (dst may be v: entry k is written after v[k] is read);
// count(r) gets the CSR row length (a fixed row always counts its diagonal; written to dst only
// where n > 0, else the CSR write supplies (r, 1)).
template <class S, class MemorySpace>
struct RowRule {
  Kokkos::View<offset_t*, MemorySpace> count;
  Kokkos::View<const unsigned char*, MemorySpace> fixed;
  Kokkos::View<const S*, MemorySpace> g;
  Kokkos::View<S*, MemorySpace> rhs;
  Conditions bc;

  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r, const Entry<S>* v, offset_t n, Entry<S>* dst) const {
    const bool row_fixed = bc != Conditions::none && fixed(r);
    S lift = S(0), diag = S(1);
    offset_t out = 0;
    for (offset_t i = 0; i < n;) {
      const ordinal_t c = v[i].col;
      S sum = S(0);
      for (; i < n && v[i].col == c; ++i) sum += v[i].val;
      if (row_fixed) {  // only the diagonal survives
        if (c == r && bc == Conditions::values && sum > S(0)) diag = sum;
        continue;
      }
      if (bc != Conditions::none && c != r && fixed(c)) {
        if (bc == Conditions::values) lift += sum * g(c);
        continue;
      }
      dst[out++] = Entry<S>{c, sum};
    }
    if (row_fixed) {
      if (n > 0) dst[0] = Entry<S>{r, diag};
      out = 1;
      rhs(r) = bc == Conditions::values ? diag * g(r) : S(0);
    } else if (bc == Conditions::values) {
      rhs(r) -= lift;
    }
    count(r) = out;
  }
};

// RowMapping::thread: row r sorts its segment in place, then consolidates it to the segment's front.
template <class S, class MemorySpace>
struct ConsolidateRow {
  Kokkos::View<Entry<S>*, MemorySpace> entries;
  Kokkos::View<const offset_t*, MemorySpace> segment;
  RowRule<S, MemorySpace> rule;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const {
    const offset_t b = segment(r), n = segment(r + 1) - b;
    Entry<S>* const v = n > 0 ? &entries(b) : nullptr;
    sort_row(v, n);
    rule(r, v, n, v);
  }
};

// Per-thread scratch of the team mapping: the row as gathered and the row sorted, `longest` entries
// each, padded to 16 bytes (Kokkos places thread k's scratch at k x size).
template <class S>
std::size_t row_scratch_bytes(offset_t longest) {
  return (2 * std::size_t(longest) * sizeof(Entry<S>) + 15) / 16 * 16;
}

// RowMapping::team: team thread k of team t takes row t x team_size + k with its vector lanes (a
// warp on CUDA). Lanes copy the segment into scratch, then each places its entries at their rank,
// the number of entries before them in Entry's order, ties in segment order: a permutation, so the
// sorted row is sort_row's. One lane then consolidates it into the segment's front. Only vector
// ranges and single(PerThread) synchronise (each ends in a warp sync on CUDA): no team barrier, so
// a thread past the last row may leave at once.
template <class S, class Exec>
struct ConsolidateRowTeam {
  using Mem = typename Exec::memory_space;
  using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
  Kokkos::View<Entry<S>*, Mem> entries;
  Kokkos::View<const offset_t*, Mem> segment;
  RowRule<S, Mem> rule;
  ordinal_t rows;
  offset_t longest;     // entries each scratch half holds
  std::size_t scratch;  // row_scratch_bytes<S>(longest)

  KOKKOS_INLINE_FUNCTION void operator()(const Member& t) const {
    Entry<S>* const in = static_cast<Entry<S>*>(t.thread_scratch(0).get_shmem(scratch));
    Entry<S>* const sorted = in + longest;
    const ordinal_t r = t.league_rank() * t.team_size() + t.team_rank();
    if (r >= rows) return;
    const offset_t b = segment(r), n = segment(r + 1) - b;
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, n), [&](offset_t i) { in[i] = entries(b + i); });
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, n), [&](offset_t i) {
      const Entry<S> x = in[i];
      offset_t rank = 0;  // one uniform loop: every lane reads the same in[j] (a broadcast)
      for (offset_t j = 0; j < n; ++j) rank += (in[j] < x || (j < i && !(x < in[j]))) ? 1 : 0;
      sorted[rank] = x;
    });
    Kokkos::single(Kokkos::PerThread(t), [&] { rule(r, sorted, n, n > 0 ? &entries(b) : nullptr); });
  }
};

// Rows per team for the team mapping, 0 where the thread mapping runs instead.
template <class Exec, class S>
int rows_per_team(const ConsolidateOptions& o, ordinal_t rows, offset_t longest) {
  if (rows == 0 || o.rows == RowMapping::thread || (o.rows == RowMapping::automatic && lanes::in_turn<Exec>))
    return 0;
  const std::size_t per_row = row_scratch_bytes<S>(longest);
  const std::size_t limit =
      std::min(o.team_scratch_limit, std::size_t(Kokkos::TeamPolicy<Exec>::scratch_size_max(0)));
  const std::size_t wanted = lanes::in_turn<Exec> ? 1 : 4;  // 4 warps: 128 threads a block
  return int(per_row == 0 ? wanted : std::min(wanted, limit / per_row));
}

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

}  // namespace detail

// The lists -> CSR with sorted columns (plus the conditions in bc); lists are released (reset to
// empty views) once gathered. InputError if the pool overflowed. times, if given, receives the
// fenced stage times, the scratch bytes and the row mapping that ran; options choose it.
template <class Exec, class S>
Csr<S, typename Exec::memory_space> consolidate(const Exec& exec,
                                                Lists<S, typename Exec::memory_space>& lists,
                                                const Dirichlet<S, typename Exec::memory_space>& bc = {},
                                                ConsolidateTimes* times = nullptr,
                                                const ConsolidateOptions& options = {}) {
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
  t.lengths_s = time_fenced(exec, [&] {
    Kokkos::parallel_reduce("kfem::acoo_list_length", policy(exec, 0, rows),
                            detail::ListLength<Mem>{lists.head, lists.next, segment},
                            Kokkos::Max<offset_t>(t.longest_row));
    if (rows == 0) t.longest_row = 0;  // the reduction's identity is the lowest offset_t
    const offset_t total = exclusive_scan(exec, "kfem::acoo_segments", segment, segment, rows);
    if (total != used)
      throw std::logic_error("a-COO: the lists hold " + std::to_string(total) + " of " +
                             std::to_string(used) + " pushes");
    entries = decltype(entries)(raw("kfem::acoo_entries"), total);
  });
  t.gather_s = time_fenced(exec, [&] {
    Kokkos::parallel_for(
        "kfem::acoo_gather", policy(exec, 0, rows),
        detail::Gather<S, Mem>{lists.head, lists.next, lists.cols, lists.vals, segment, entries});
    exec.fence();
    lists = Lists<S, Mem>{};  // the a-COO storage is released here
  });
  t.sort_s = time_fenced(exec, [&] {
    Kokkos::View<unsigned char*, Mem> fixed;
    Kokkos::View<S*, Mem> g;
    if (kind != detail::Conditions::none) {
      fixed = decltype(fixed)(raw("kfem::acoo_fixed"), rows);
      fill_zero(exec, fixed);
      if (kind == detail::Conditions::values) g = decltype(g)(raw("kfem::acoo_fixed_values"), rows);
      Kokkos::parallel_for("kfem::acoo_fixed_mark", policy(exec, 0, bc.dofs.extent(0)),
                           detail::MarkFixed<S, Mem>{fixed, g, bc.dofs, bc.values});
    }
    out.graph.num_rows = rows;
    out.graph.row_map = decltype(out.graph.row_map)(raw("kfem::acoo_row_map"), rows + 1);
    const detail::RowRule<S, Mem> rule{out.graph.row_map, fixed, g, bc.rhs, kind};
    t.rows_per_team = detail::rows_per_team<Exec, S>(options, rows, t.longest_row);
    if (t.rows_per_team > 0) {
      t.rows = RowMapping::team;
      const std::size_t scratch = detail::row_scratch_bytes<S>(t.longest_row);
      Kokkos::TeamPolicy<Exec> teams(exec, (rows + t.rows_per_team - 1) / t.rows_per_team, t.rows_per_team,
                                     lanes::vector_length<Exec>());
      Kokkos::parallel_for(
          "kfem::acoo_consolidate[team]", teams.set_scratch_size(0, Kokkos::PerThread(scratch)),
          detail::ConsolidateRowTeam<S, Exec>{entries, segment, rule, rows, t.longest_row, scratch});
    } else {
      t.rows = RowMapping::thread;
      Kokkos::parallel_for("kfem::acoo_consolidate", policy(exec, 0, rows),
                           detail::ConsolidateRow<S, Mem>{entries, segment, rule});
    }
  });
  t.consolidate_s = t.lengths_s + t.gather_s + t.sort_s;
  t.scratch_bytes = segment.extent(0) * sizeof(offset_t) + entries.extent(0) * sizeof(detail::Entry<S>);
  t.csr_s = time_fenced(exec, [&] {
    const offset_t nnz =
        exclusive_scan(exec, "kfem::acoo_row_map", out.graph.row_map, out.graph.row_map, rows);
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
