// Node graph -> DOF CSR pattern with sorted columns, built on the execution space, for any family.
// Each node's neighbours are the nodes of the elements around it: an incidence list (node ->
// elements) gathers them, one node per team member, into scratch, where they are made a sorted
// set (bitonic-sorted by the vector lanes on a GPU, insertion- or heap-sorted by the one lane of a
// host thread); a second pass writes each node row and its C x C DOF expansion with the lanes side by
// side, so the 2 GB of mesh4's DOF pattern goes out coalesced. DOF r = components * node + c
// (components: 3 for elasticity, 1 for electrostatics).
#pragma once
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kfem/core/carve.hpp"
#include "kfem/core/exec_spaces.hpp"
#include "kfem/core/fill.hpp"
#include "kfem/core/populate.hpp"
#include "kfem/core/scan.hpp"
#include "kfem/core/simd.hpp"
#include "kfem/core/sort.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem {
template <class MemorySpace>
struct DofGraph {
  CsrGraph<MemorySpace> node;  // node adjacency (includes the node itself)
  CsrGraph<MemorySpace> dof;   // DOF pattern: row C n + c, columns C m + d for m in node row n
  int components = 3;          // C, DOFs per node
  // Elements around the busiest node (0: unknown). A node row holds at most this many x the nodes
  // per element, a bound the hex8 element data checks its 16-bit offsets against without a pass.
  offset_t most_elements = 0;
};

// Indices of the N columns m[k] within the sorted row n of a CSR graph (each must be present), in
// one pass over the row: m[k]'s index is the number of columns below it. The row's loads do not
// depend on each other, as N binary searches' do, and it takes fewer instructions (hex8's element
// data: 8 nodes in rows of 27).
template <int N, class Rows, class Cols>
KOKKOS_INLINE_FUNCTION void positions_in_row(const Rows& rows, const Cols& cols, ordinal_t n,
                                             const ordinal_t (&m)[N], int (&at)[N]) {
  for (int k = 0; k < N; ++k) at[k] = 0;
  const offset_t end = rows(n + 1);
  for (offset_t p = rows(n); p < end; ++p) {
    const ordinal_t c = cols(p);
    // The N counters as one vector on CPUs (KFEM_LANE_LOOP). Left to itself g++ 12 vectorised the
    // row instead, with N horizontal sums per call.
    KFEM_LANE_LOOP
    for (int k = 0; k < N; ++k) at[k] += c < m[k] ? 1 : 0;
  }
}

// Index of column m within the sorted row n of a CSR graph (binary search; m must be present).
template <class Rows, class Cols>
KOKKOS_INLINE_FUNCTION offset_t position_in_row(const Rows& rows, const Cols& cols, ordinal_t n,
                                                ordinal_t m) {
  offset_t lo = rows(n), hi = rows(n + 1);
  while (lo < hi) {
    const offset_t mid = (lo + hi) / 2;
    if (cols(mid) < m)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo - rows(n);
}

namespace graph_detail {
// The kernels of build_dof_graph, as named functors rather than KOKKOS_LAMBDAs: the pipelines build
// graphs from several translation units, which nvcc's extended-lambda wrappers do not survive
// (see core/fill.hpp).
template <class Mem, class Conn>
struct CountIncidence {  // 1. elements around each node, and the most around one
  Conn conn;
  Kokkos::View<offset_t*, Mem> count, most;
  int npe;
  // The busiest node's count is the largest of the counts the atomics return: no second pass over
  // the nodes. It goes to most(0) by an atomic max only where it exceeds what most(0) holds, so
  // few of the 8 per element are atomics. A parallel_for and not a max reduction: Kokkos 3.4 runs
  // a RangePolicy reduction on at most 256 blocks, a fraction of a large GPU's warps.
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t e) const {
    offset_t top = 0;
    for (int a = 0; a < npe; ++a) {
      const offset_t k = Kokkos::atomic_fetch_add(&count(conn(e, a)), offset_t(1)) + 1;
      top = k > top ? k : top;
    }
    // A plain (volatile) read: Kokkos 3.4 has no public atomic_load; a stale value costs one atomic more.
    if (top > *static_cast<volatile const offset_t*>(&most(0))) Kokkos::atomic_fetch_max(&most(0), top);
  }
};

template <class Mem, class Conn>
struct FillIncidence {  // 2. their ids, in any order (the rows are sorted later)
  Conn conn;
  Kokkos::View<offset_t*, Mem> rows, fill;
  Kokkos::View<ordinal_t*, Mem> elements;
  int npe;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t e) const {
    for (int a = 0; a < npe; ++a) {
      const ordinal_t n = conn(e, a);
      elements(rows(n) + Kokkos::atomic_fetch_add(&fill(n), offset_t(1))) = e;
    }
  }
};

// The least power of two >= n (n >= 1).
KOKKOS_INLINE_FUNCTION int next_power_of_two(int n) {
  int p = 1;
  while (p < n) p *= 2;
  return p;
}

// 3. Node n's neighbours as a sorted set, written to set(npe rows(n) ...) with their count.
template <class Exec, class Conn>
struct SortedNeighbours {
  using Mem = typename Exec::memory_space;
  using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
  Conn conn;
  Kokkos::View<offset_t*, Mem> rows, degree;
  Kokkos::View<ordinal_t*, Mem> elements, set;
  int npe, lanes, level;
  ordinal_t num_nodes;
  int room;  // candidates each member's scratch holds: the busiest node's, to a power of two

  // Words of a member's scratch: the candidates, and on one lane the set's 2 room slots after them.
  KOKKOS_INLINE_FUNCTION static int scratch_words(int room, int lanes) {
    return lanes == 1 ? 3 * room : room;
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& t) const {
    const ordinal_t n = ordinal_t(t.league_rank()) * t.team_size() + t.team_rank();
    if (n >= num_nodes) return;
    ordinal_t* const c = static_cast<ordinal_t*>(
        t.thread_scratch(level).get_shmem(sizeof(ordinal_t) * scratch_words(room, lanes)));
    const offset_t e0 = rows(n), out = e0 * npe;
    // Candidate indices are 32-bit: a 64-bit division per candidate is a long instruction sequence on a GPU.
    const int m = int(rows(n + 1) - e0) * npe;
    if (lanes == 1) {  // one lane: each candidate into an open-addressed set, then sort the ones kept
      // A hex8 node has 64 candidates and 27 distinct: sorting the 27 after the set has dropped the
      // repeats does a fifth of the insertion sort's moves over all 64. The table: 2 room slots after c.
      constexpr ordinal_t none = -1;
      ordinal_t* const table = c + room;
      const unsigned slots = unsigned(2 * room), mask = slots - 1;
      for (unsigned k = 0; k < slots; ++k) table[k] = none;
      int d = 0;
      for (offset_t q = e0; q < rows(n + 1); ++q)
        for (int a = 0; a < npe; ++a) {
          const ordinal_t v = conn(elements(q), a);
          unsigned h = (unsigned(v) * 2654435761u) & mask;
          while (table[h] != none && table[h] != v) h = (h + 1) & mask;
          if (table[h] == none) table[h] = v, c[d++] = v;
        }
      sort_row(c, offset_t(d));
      for (int k = 0; k < d; ++k) set(out + k) = c[k];
      degree(n) = d;
      return;
    }
    if (lanes == 32 && m <= 64) {  // every hex8 node (at most 8 x 8 candidates)
      if (warp_sorted_set(n, e0, out, m)) return;
    }
    // Lanes: a bitonic sort of the candidates, padded to a power of two with `none` (above every
    // node id): log2(P) (log2(P) + 1) / 2 compare-exchange rounds of P / 2 pairs, where ranking each
    // candidate against all others took m^2 compares. A candidate is kept where it differs from its
    // left neighbour; its place in the row is the count of kept ones before it (a lane scan).
    static_assert(sizeof(ordinal_t) == 4, "none is the largest 32-bit id");
    constexpr ordinal_t none = INT32_MAX;  // (std::numeric_limits is host-only under nvcc)
    const int P = next_power_of_two(m);
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, P), [&](int k) {
      const int q = k / npe;
      c[k] = k < m ? conn(elements(e0 + q), k - q * npe) : none;
    });
    for (int size = 2; size <= P; size *= 2)
      for (int stride = size / 2; stride > 0; stride /= 2)
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, P / 2), [&](int q) {
          const int i = 2 * q - (q & (stride - 1)), j = i + stride;  // i: bit `stride` clear
          const ordinal_t a = c[i], b = c[j];
          if ((a > b) == ((i & size) == 0)) c[i] = b, c[j] = a;  // ascending where bit `size` is clear
        });
    Kokkos::parallel_scan(Kokkos::ThreadVectorRange(t, m), [&](int k, offset_t& kept, bool final) {
      const bool keep = k == 0 || c[k] != c[k - 1];
      if (final && keep) set(out + kept) = c[k];
      kept += keep;
      if (final && k == m - 1) degree(n) = kept;
    });
  }

  // On CUDA, up to 64 candidates as two per lane (positions l and l + 32) of the member's warp,
  // sorted by the same bitonic network through warp shuffles: registers, no scratch, and none of
  // the run-time mask that each of Kokkos' vector loops builds (21 rounds of them per node). The
  // kept ones are placed by ballot counts. False (nothing done) elsewhere.
  KOKKOS_INLINE_FUNCTION bool warp_sorted_set(ordinal_t n, offset_t e0, offset_t out, int m) const {
#if defined(__CUDA_ARCH__)
    constexpr ordinal_t none = INT32_MAX;
    constexpr unsigned all = 0xffffffffu;
    const int l = int(threadIdx.x);
    const auto candidate = [&](int k) {
      const int q = k / npe;
      return k < m ? conn(elements(e0 + q), k - q * npe) : none;
    };
    ordinal_t lo = candidate(l), hi = candidate(l + 32);
    for (int size = 2; size <= 64; size *= 2)
      for (int stride = size / 2; stride > 0; stride /= 2) {
        if (stride == 32) {  // partners in one lane; the last merge is ascending
          const ordinal_t a = lo < hi ? lo : hi, b = lo < hi ? hi : lo;
          lo = a, hi = b;
          continue;
        }
        const bool lower = (l & stride) == 0;  // ascending where bit `size` of the position is clear
        const bool up_lo = (l & size) == 0, up_hi = ((l + 32) & size) == 0;
        const ordinal_t p_lo = __shfl_xor_sync(all, lo, stride), p_hi = __shfl_xor_sync(all, hi, stride);
        lo = (lower == up_lo) == (p_lo < lo) ? p_lo : lo;
        hi = (lower == up_hi) == (p_hi < hi) ? p_hi : hi;
      }
    const ordinal_t left_lo = __shfl_up_sync(all, lo, 1), left_hi = __shfl_up_sync(all, hi, 1);
    const ordinal_t last_lo = __shfl_sync(all, lo, 31);
    const bool keep_lo = lo != none && (l == 0 || lo != left_lo);
    const bool keep_hi = hi != none && hi != (l == 0 ? last_lo : left_hi);
    const unsigned kept_lo = __ballot_sync(all, keep_lo), kept_hi = __ballot_sync(all, keep_hi);
    const unsigned below = (1u << l) - 1u;
    if (keep_lo) set(out + __popc(kept_lo & below)) = lo;
    if (keep_hi) set(out + __popc(kept_lo) + __popc(kept_hi & below)) = hi;
    if (l == 0) degree(n) = __popc(kept_lo) + __popc(kept_hi);
    return true;
#else
    (void)n, (void)e0, (void)out, (void)m;
    return false;
#endif
  }
};

// 4. Row n of the node pattern and rows C n + c of the DOF pattern (row C n + c starts at
// C^2 node_rows(n) + c C deg(n)), the lanes writing neighbouring entries.
template <class Exec>
struct ExpandRows {
  using Mem = typename Exec::memory_space;
  using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
  Kokkos::View<offset_t*, Mem> incidence_rows, node_rows, dof_rows;
  Kokkos::View<ordinal_t*, Mem> set, node_cols, dof_cols;
  int npe, C;
  ordinal_t num_nodes;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& t) const {
    const ordinal_t n = ordinal_t(t.league_rank()) * t.team_size() + t.team_rank();
    if (n >= num_nodes) return;
    const offset_t from = incidence_rows(n) * npe, base = node_rows(n), len = node_rows(n + 1) - base;
    // Locals, not members: the column stores might alias the functor for all a host compiler
    // knows, and g++ reloaded C and the views after each one.
    const int nc = C;
    const ordinal_t* const from_set = set.data() + from;
    ordinal_t* const node_out = node_cols.data() + base;
    const offset_t dof_base = offset_t(nc) * nc * base, row_len = nc * len;
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, len), [&](offset_t k) { node_out[k] = from_set[k]; });
    // Row C n + c: for each neighbour k its C columns C m + d, lane k writing entries C k .. C k + C - 1
    // (no division per entry: a 64-bit one is tens of instructions on a GPU and ~40 cycles on a CPU).
    // Lanes writing entry after entry instead (a division by a compile-time C) were no faster: the
    // writes are not what holds this kernel back.
    for (int c = 0; c < nc; ++c) {
      const offset_t row = dof_base + c * row_len;
      Kokkos::single(Kokkos::PerThread(t), [&] { dof_rows(nc * n + c) = row; });
      ordinal_t* const out = dof_cols.data() + row;
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, len), [&](offset_t k) {
        const ordinal_t m = nc * from_set[k];
        for (int d = 0; d < nc; ++d) out[nc * k + d] = m + d;
      });
    }
    if (n == num_nodes - 1)
      Kokkos::single(Kokkos::PerThread(t),
                     [&] { dof_rows(C * num_nodes) = offset_t(C) * C * node_rows(num_nodes); });
  }
};
}  // namespace graph_detail

// The graph's temporaries kept for the caller's next stage instead of freed: the workspace is made
// at least `at_least` bytes and handed on in `spare` (the set-up passes it to the element data).
template <class Mem>
struct KeepWorkspace {
  std::size_t at_least = 0;
  const Spare<Mem>* spare = nullptr;
};

// conn(e, a): node a of element e, a < conn.extent(1) (the DOF nodes of the element). lanes: 0 =
// the backend's (32 on a device, 1 on a host); the tests pass 1 and 32 to check both ways anywhere.
template <class Exec, class Conn>
DofGraph<typename Exec::memory_space> build_dof_graph(const Exec& exec, const Conn& conn, ordinal_t num_nodes,
                                                      int components = 3, int lanes = 0,
                                                      KeepWorkspace<typename Exec::memory_space> keep = {}) {
  using Mem = typename Exec::memory_space;
  using range = Kokkos::RangePolicy<Exec>;
  using Team = Kokkos::TeamPolicy<Exec>;
  const ordinal_t ne = static_cast<ordinal_t>(conn.extent(0));
  const int npe = static_cast<int>(conn.extent(1));
  const int C = components;
  const auto alloc = [](const char* label) {
    return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label));
  };
  DofGraph<Mem> g;
  g.components = C;
  if (num_nodes == 0) {
    g.node = {0, Kokkos::View<offset_t*, Mem>("kfem::node_row_map", 1), {}};
    g.dof = {0, Kokkos::View<offset_t*, Mem>("kfem::row_map", 1), {}};
    return g;
  }
  // The row maps before any kernel, while the device is idle: a Kokkos 3.4 device allocation waits
  // for the kernels queued before it.
  const ordinal_t nd = C * num_nodes;
  Kokkos::View<offset_t*, Mem> node_rows(alloc("kfem::node_row_map"), num_nodes + 1);
  Kokkos::View<offset_t*, Mem> dof_rows(alloc("kfem::row_map"), nd + 1);

  // The temporaries (incidence rows, node degrees, fill counters, incidence, neighbour sets) share
  // one allocation, its counters zeroed by one fill: each device allocation and free costs set-up
  // time (core/carve.hpp). Its size is known before any kernel:
  // every element counts each of its npe nodes once, so the incidence scan's total need not come back.
  const offset_t incidences = offset_t(ne) * npe;
  // inc_rows, degree (num_nodes + 1 each), fill, the busiest node's count
  const std::size_t counters = 3 * std::size_t(num_nodes) + 3;
  using Words = Kokkos::View<offset_t*, Mem>;
  using Ids = Kokkos::View<ordinal_t*, Mem>;
  std::vector<std::size_t> parts{Carve<Mem>::template bytes<Words>(counters),
                                 Carve<Mem>::template bytes<Ids>(incidences),
                                 Carve<Mem>::template bytes<Ids>(incidences * npe)};
  const std::size_t needed = Carve<Mem>::total(parts);
  if (keep.spare && keep.at_least > needed) parts.push_back(keep.at_least - needed);
  const Carve<Mem> workspace("kfem::graph_workspace", parts);
  const Words counts = workspace.template part<Words>(0, counters);
  // A host's pages: the graph's own here, the part kept for the next stage in that stage.
  populate(exec, Kokkos::subview(workspace.storage, std::make_pair(std::size_t(0), needed)));
  fill_zero(exec, counts);
  const auto words = [&](std::size_t at, std::size_t n) {
    return Kokkos::subview(counts, Kokkos::make_pair(at, at + n));
  };
  const Words inc_rows = words(0, num_nodes + 1);
  const Words degree = words(num_nodes + 1, num_nodes + 1);
  const Words fill = words(2 * std::size_t(num_nodes) + 2, num_nodes);
  const Words most_word = words(3 * std::size_t(num_nodes) + 2, 1);
  const Ids elements = workspace.template part<Ids>(1, incidences);
  const Ids set = workspace.template part<Ids>(2, incidences * npe);

  // 1-2. Node -> element incidence; the one host wait before the neighbour sets is the busiest node's
  // count, which sizes their scratch.
  Kokkos::parallel_for("kfem::count_incidence", range(exec, 0, ne),
                       graph_detail::CountIncidence<Mem, Conn>{conn, inc_rows, most_word, npe});
  exclusive_scan_queued(exec, "kfem::scan_incidence", inc_rows, inc_rows, num_nodes);
  offset_t most = 0;
  Kokkos::deep_copy(exec, Kokkos::View<offset_t, Kokkos::HostSpace>(&most), Kokkos::subview(most_word, 0));
  exec.fence();
  const int room = graph_detail::next_power_of_two(int(most * npe));

  // One node per team member; on a GPU 32 lanes per member sort its candidates, on a host thread
  // one lane does. Candidates live in team scratch, global scratch when a node has too many.
  constexpr bool host = on_host<Exec>;
  if (lanes == 0) lanes = host ? 1 : 32;
  const std::size_t per_member =
      sizeof(ordinal_t) * std::size_t(graph_detail::SortedNeighbours<Exec, Conn>::scratch_words(room, lanes));
  int members = host ? 1 : 8;
  while (members > 1 && per_member * members > std::size_t(Team::scratch_size_max(0))) members /= 2;
  const int level = per_member * members > std::size_t(Team::scratch_size_max(0)) ? 1 : 0;
  const auto teams = [&](int per_team) { return int((num_nodes + per_team - 1) / per_team); };

  Kokkos::parallel_for("kfem::fill_incidence", range(exec, 0, ne),
                       graph_detail::FillIncidence<Mem, Conn>{conn, inc_rows, fill, elements, npe});
  // 3. Sorted neighbour sets, each at npe x its incidence offset. Where every node's candidates fit
  // the warp sort (hex8: at most 64), at most 40 registers a thread (6 teams of 256 an SM): left to
  // itself nvcc takes more and leaves half the warps idle. The bound is not for the scratch sorts:
  // 6 teams' scratch would not fit an SM.
  const auto sort = [&](auto policy) {
    Kokkos::parallel_for("kfem::sorted_neighbours",
                         policy.set_scratch_size(level, Kokkos::PerThread(per_member)),
                         graph_detail::SortedNeighbours<Exec, Conn>{conn, inc_rows, degree, elements, set,
                                                                    npe, lanes, level, num_nodes, room});
  };
  if (lanes == 32 && room <= 64)
    sort(Kokkos::TeamPolicy<Exec, Kokkos::LaunchBounds<256, 6>>(exec, teams(members), members, lanes));
  else
    sort(Team(exec, teams(members), members, lanes));

  // 4. Node and DOF patterns, the columns allocated once their count is back.
  const offset_t node_nnz = exclusive_scan(exec, "kfem::scan_degree", degree, node_rows, num_nodes);
  Kokkos::View<ordinal_t*, Mem> node_cols(alloc("kfem::node_cols"), node_nnz);
  Kokkos::View<ordinal_t*, Mem> dof_cols(alloc("kfem::cols"), offset_t(C) * C * node_nnz);
  populate(exec, node_cols);  // host memory: its pages in bulk, not one fault per page (core/populate.hpp)
  populate(exec, dof_cols);
  const int per_team = host ? 1 : 8;
  Kokkos::parallel_for("kfem::expand_rows", Team(exec, teams(per_team), per_team, lanes),
                       graph_detail::ExpandRows<Exec>{inc_rows, node_rows, dof_rows, set, node_cols, dof_cols,
                                                      npe, C, num_nodes});
  g.node = {num_nodes, node_rows, node_cols};
  g.dof = {nd, dof_rows, dof_cols};
  g.most_elements = most;
  if (keep.spare) {
    keep.spare->give(workspace.storage);  // the next stage's kernels queue behind expand_rows
  } else {
    exec.fence();  // the workspace is freed here
  }
  return g;
}
}  // namespace kfem
