// Shared pieces of the warp-per-element mappings (kiran §4): which 18 entries lane l owns, the
// per-Gauss-point accumulation of those entries, and their scatter through the CSR index.
#pragma once
#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>

#include "kfem/assembly/lanes.hpp"
#include "kfem/core/error.hpp"
#include "kfem/core/kokkos_compat.hpp"
#include "kfem/core/types.hpp"
#include "kfem/fe/elasticity.hpp"

namespace kfem::mapping {
// Lane l owns the node blocks (a(l,i), b(l,k)) of Ke: kiran Fig. 2 (4 threads per row: one row
// node, two column nodes = 3 rows x 6 columns) and Fig. 6 (8 threads per row: 6 rows x 3 columns).
template <int ThreadsPerRow>
struct LaneEntries;
template <>
struct LaneEntries<4> {
  static constexpr int na = 1, nb = 2;
  KOKKOS_INLINE_FUNCTION static int a(int l, int) { return l / 4; }
  KOKKOS_INLINE_FUNCTION static int b(int l, int k) { return 2 * (l % 4) + k; }
};
template <>
struct LaneEntries<8> {
  static constexpr int na = 2, nb = 1;
  KOKKOS_INLINE_FUNCTION static int a(int l, int k) { return 2 * (l / 8) + k; }
  KOKKOS_INLINE_FUNCTION static int b(int l, int) { return l % 8; }
};
inline constexpr int entries_per_lane = 18;

// Adds Gauss point q's contribution to lane l's 18 entries; K(k) indexes them as
// ((ia * nb + ib) * 3 + c) * 3 + d. Jinv is any 3x3-indexable; wd = weight * det J.
template <class E, class S, class Inv, class Store>
KOKKOS_INLINE_FUNCTION void accumulate_lane(int l, int q, const Inv& Jinv, S wd, const Isotropic<S>& m,
                                            Store&& K) {
  S ga[E::na][3], gb[E::nb][3];
  for (int i = 0; i < E::na; ++i) hex8::gradient<S>(Jinv, q, E::a(l, i), ga[i]);
  for (int k = 0; k < E::nb; ++k) hex8::gradient<S>(Jinv, q, E::b(l, k), gb[k]);
  for (int i = 0; i < E::na; ++i)
    for (int k = 0; k < E::nb; ++k) {
      S blk[3][3] = {};
      elasticity::add_block(m, wd, ga[i], gb[k], blk);
      for (int c = 0; c < 3; ++c)
        for (int d = 0; d < 3; ++d) K(((i * E::nb + k) * 3 + c) * 3 + d) += blk[c][d];
    }
}

// Lane l adds its entries to the global matrix; the k loop is the paper's two passes over the
// CSR index (even, then odd column nodes for 4 threads/row; even, then odd row nodes for 8).
template <class E, class Data, class Acc, class Load>
KOKKOS_INLINE_FUNCTION void scatter_lane(int l, ordinal_t e, const Data& d, const Acc& acc, Load&& K) {
  for (int i = 0; i < E::na; ++i)
    for (int k = 0; k < E::nb; ++k)
      for (int c = 0; c < 3; ++c)
        for (int dd = 0; dd < 3; ++dd)
          acc(d.slot(e, 3 * E::a(l, i) + c, 3 * E::b(l, k) + dd), K(((i * E::nb + k) * 3 + c) * 3 + dd));
}

// Entry k of a lower triangle in row-major order: row m = floor((sqrt(8k + 1) - 1) / 2), column
// n = k - m(m+1)/2 <= m (sanfui eqs. 1-2); no loop or branch. Exact: 8k+1 is a perfect square at
// row starts.
KOKKOS_INLINE_FUNCTION void lower_entry(int k, int& m, int& n) {
  m = static_cast<int>((kokkos_compat::sqrt(8.0f * k + 1.0f) - 1.0f) * 0.5f);
  n = k - m * (m + 1) / 2;
}

// Element e's nodes ranked by global number: rank[a] of local node a, order[r] its inverse.
template <class Member, class Data>
KOKKOS_INLINE_FUNCTION void node_order(const Member& t, const Data& d, ordinal_t e, int* order, int* rank) {
  Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, 8), [&](int a) {
    const ordinal_t n = d.nodes(e, a);
    int r = 0;
    for (int b = 0; b < 8; ++b) r += d.nodes(e, b) < n ? 1 : 0;
    order[r] = a;
    rank[a] = r;
  });
}
// Coalesced scatter of a Ke the warp holds in scratch with rows and columns sorted by global node
// number (Ks[24 ri + rj]; order[r] = local node of rank r, rank[a] its inverse). Lane rj owns a
// sorted column and the warp walks the rows: the 24 lanes of one add hit the element's 4 runs of
// 6 neighbouring CSR slots of that row (natural numbering) instead of 24 scattered ones. Lower
// storage keeps the lanes with rj <= ri: sorted, that is exactly the global lower triangle.
template <class Member, class Data, class Acc, class S>
KOKKOS_INLINE_FUNCTION void scatter_sorted(const Member& t, const Data& d, ordinal_t e, const int* order,
                                           const Acc& acc, const S* Ks) {
  Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, 24), [&](int rj) {
    const int b = order[rj / 3];
    for (int ra = 0; ra < 8; ++ra) {
      const int a = order[ra];
      const slot_t start = d.block_start(e, a, b) + rj % 3;
      for (int c = 0; c < 3; ++c) {
        const int ri = 3 * ra + c;
        if (!Data::lower || rj <= ri) acc(start + d.row_offset(e, a, c), Ks[24 * ri + rj]);
      }
    }
  });
}

// Per-warp scratch sizes are padded to 16 bytes: member k's scratch starts at k * size, and every
// one of them stays 16-byte aligned for lanes::Packed records (thread_scratch).
constexpr int padded(int count) {
  return (count + 3) / 4 * 4;
}
// Kokkos aligns scratch to 8 bytes; thread_scratch's 16 may skip 8 of them, once per team. A policy
// adds this much team scratch for it.
inline constexpr int scratch_alignment = 16;

// Team policy for warp mappings: each team member is one element handled by 32 lanes; host
// backends run one element per team whatever the tunable says. Props: e.g. Kokkos::LaunchBounds.
template <class Exec, class... Props>
Kokkos::TeamPolicy<Exec, Props...> warp_policy(const Exec& exec, ordinal_t n, int elements_per_team,
                                               std::size_t scratch_bytes) {
  const int ept = lanes::in_turn<Exec> ? 1 : elements_per_team;
  const int limit = Kokkos::TeamPolicy<Exec, Props...>::scratch_size_max(0);
  if (scratch_bytes * ept + scratch_alignment > std::size_t(limit))
    throw InputError(std::to_string(ept) + " elements per team need " +
                     std::to_string(scratch_bytes * ept + scratch_alignment) +
                     " bytes of team scratch; this backend allows " + std::to_string(limit) +
                     " (lower assembly.elements_per_team)");
  Kokkos::TeamPolicy<Exec, Props...> p(exec, (n + ept - 1) / ept, ept, lanes::vector_length<Exec>());
  return p.set_scratch_size(0, Kokkos::PerTeam(scratch_alignment), Kokkos::PerThread(scratch_bytes));
}

// Whether an adder's adds are plain (race::Colored: no two threads of a launch share a slot).
template <class Adder, class = void>
struct plain_adds : std::false_type {};
template <class Adder>
struct plain_adds<Adder, std::void_t<decltype(Adder::plain)>> : std::bool_constant<Adder::plain> {};

// The element of team member t (one per warp) in [begin, end), or -1 past the end.
template <class Member>
KOKKOS_INLINE_FUNCTION ordinal_t warp_element(const Member& t, ordinal_t begin, ordinal_t end) {
  const ordinal_t e = begin + t.league_rank() * t.team_size() + t.team_rank();
  return e < end ? e : -1;
}

// The warp's lanes copy element e's 24 coordinates into scratch (coalesced with LayoutRight).
template <class Member, class Data, class S>
KOKKOS_INLINE_FUNCTION void load_coords(const Member& t, const Data& d, ordinal_t e, S* X) {
  Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, 24), [&](int i) { X[i] = d.coords(e, i); });
}

// Team member t's count scalars of level-0 scratch, 16-byte aligned (count: padded).
template <class S, class Member>
KOKKOS_INLINE_FUNCTION S* thread_scratch(const Member& t, int count) {
  return static_cast<S*>(t.thread_scratch(0).get_shmem_aligned(sizeof(S) * count, scratch_alignment));
}
}  // namespace kfem::mapping
