// Work mapping `batch-owner` (kfem's own, a host fast path; issue 18's write-once route on CPUs):
// batch's element math (hex8_batch.hpp: W elements per thread, one per SIMD lane) with owner
// computes by partition. The elements' Morton order is cut into partitions. A node, and so its 3
// rows, belongs to the partition of the first element (in that order) that holds it. A partition
// assembles, in that order, every element holding one of its nodes (its own elements, then the
// later elements of others along its interface, which every owner computes again) and adds only
// to its own rows. The element that first touches a row block zeroes it just before its first add,
// so the zeros and all later adds hit cache: each value goes out to memory once, with no zeroing
// pass, no colours and no atomics. A value's contributions always arrive in the Morton order,
// whatever the number of partitions or threads: the result is bitwise that of a serial assembly in
// that order (race `none`). On a GPU a thread takes a partition of ~64 elements and W = 1: correct,
// but not the strategy to pick there.
#pragma once
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>

#include "kfem/assembly/hex8_element_data.hpp"
#include "kfem/assembly/mapping/hex8_batch.hpp"
#include "kfem/assembly/problem.hpp"
#include "kfem/core/carve.hpp"
#include "kfem/core/scan.hpp"
#include "kfem/core/sort.hpp"
#include "kfem/mesh/morton.hpp"

namespace kfem::mapping {
template <class S, class Mem>
struct Hex8BatchOwnerData {
  using scalar_type = S;
  using Elements = Hex8ElementData<S, Kokkos::LayoutLeft, Mem>;
  Elements elements;  // partition by partition, each in Morton order; interface elements repeated
  // Per entry of `elements`, bit a: node a's rows are the partition's; bit 8 + a: this is the
  // first element to touch them, which zeroes them before adding.
  Kokkos::View<std::uint16_t*, Mem> rows;
  Kokkos::View<ordinal_t*, Mem> starts;  // partition k's entries: starts(k) .. starts(k + 1)
  ordinal_t partitions = 0, num_elements = 0;
};

namespace batch_owner_detail {
// The plan's kernels, named functors rather than KOKKOS_LAMBDAs (see core/fill.hpp). Position i is
// the i-th element of the Morton order; partition k holds positions begin(k) = k ne / P onwards.
KOKKOS_INLINE_FUNCTION ordinal_t partition_of(std::int64_t i, std::int64_t ne, std::int64_t parts) {
  return ordinal_t(((i + 1) * parts - 1) / ne);  // the last k with begin(k) <= i
}
template <class Mem, class Conn>
struct FirstTouch {  // first(n): the first position whose element holds node n
  Kokkos::View<const ordinal_t*, Mem> order;
  Conn conn;
  Kokkos::View<ordinal_t*, Mem> first;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t i) const {
    for (int a = 0; a < 8; ++a) Kokkos::atomic_fetch_min(&first(conn(order(i), a)), i);
  }
};
// The partitions owning position i's nodes, each once (owners[0, returned count)).
template <class Mem, class Conn>
struct Owners {
  Kokkos::View<const ordinal_t*, Mem> order;
  Conn conn;
  Kokkos::View<const ordinal_t*, Mem> first;
  std::int64_t ne, parts;
  KOKKOS_INLINE_FUNCTION int operator()(ordinal_t i, ordinal_t (&owner)[8], ordinal_t (&distinct)[8]) const {
    int d = 0;
    for (int a = 0; a < 8; ++a) {
      owner[a] = partition_of(first(conn(order(i), a)), ne, parts);
      bool seen = false;
      for (int b = 0; b < d; ++b) seen = seen || distinct[b] == owner[a];
      if (!seen) distinct[d++] = owner[a];
    }
    return d;
  }
};
template <class Mem, class Conn>
struct CountEntries {
  Owners<Mem, Conn> owners;
  Kokkos::View<offset_t*, Mem> count;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t i) const {
    ordinal_t owner[8], distinct[8];
    count(i) = owners(i, owner, distinct);
  }
};
template <class Mem, class Conn>
struct EntryKeys {  // key (k, i) of each partition k that position i adds to
  Owners<Mem, Conn> owners;
  Kokkos::View<const offset_t*, Mem> at;
  Kokkos::View<std::uint64_t*, Mem> keys;
  int ibits;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t i) const {
    ordinal_t owner[8], distinct[8];
    const int d = owners(i, owner, distinct);
    for (int q = 0; q < d; ++q) keys(at(i) + q) = std::uint64_t(distinct[q]) << ibits | std::uint64_t(i);
  }
};
template <class Mem, class Conn>
struct PlaceEntries {  // entry j of the (k, i) order: its element, its masks, and the partition starts
  Owners<Mem, Conn> owners;
  Kokkos::View<const std::uint64_t*, Mem> sorted;
  Kokkos::View<ordinal_t*, Mem> element, starts;
  Kokkos::View<std::uint16_t*, Mem> rows;
  int ibits;
  std::int64_t entries;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t j) const {
    const auto k = [&](std::int64_t at) {
      return ordinal_t(at < entries ? sorted(at) >> ibits : owners.parts);
    };
    for (ordinal_t q = j == 0 ? 0 : k(j - 1) + 1; q <= k(j); ++q) starts(q) = ordinal_t(j);
    if (j == entries) return;
    const ordinal_t i = ordinal_t(sorted(j) & ((std::uint64_t(1) << ibits) - 1)), part = k(j);
    ordinal_t owner[8], distinct[8];
    owners(i, owner, distinct);
    unsigned m = 0;
    for (int b = 0; b < 8; ++b)
      if (owner[b] == part)
        m |= 1u << b | (owners.first(owners.conn(owners.order(i), b)) == i ? 1u << (8 + b) : 0u);
    element(j) = owners.order(i);
    rows(j) = std::uint16_t(m);
  }
};
}  // namespace batch_owner_detail

// The plan on exec: every position i of the launch order goes to each partition that owns one of
// its nodes (a node is the partition's of the first position that holds it), with that partition's
// masks; each partition's entries in the launch order, as the keys (k, i) sorted. Fills d.rows and
// d.starts and returns the entries' elements. On exec, not on one host thread with the mesh copied
// back to the host for it: that serial plan outweighed the rest of the element data.
template <class S, class Exec, class Conn>
Kokkos::View<ordinal_t*, typename Exec::memory_space> plan_hex8_owner_partitions(
    const Exec& exec, const Kokkos::View<const ordinal_t*, typename Exec::memory_space>& order,
    const Conn& conn, ordinal_t num_nodes, ordinal_t parts,
    Hex8BatchOwnerData<S, typename Exec::memory_space>& d) {
  using Mem = typename Exec::memory_space;
  using range = Kokkos::RangePolicy<Exec>;
  using Ids = Kokkos::View<ordinal_t*, Mem>;
  using Words = Kokkos::View<offset_t*, Mem>;
  using Keys = Kokkos::View<std::uint64_t*, Mem>;
  namespace bd = batch_owner_detail;
  const ordinal_t ne = ordinal_t(order.extent(0));
  parts = std::max<ordinal_t>(1, std::min(parts, ne));
  d.partitions = parts;
  int ibits = 1, pbits = 1;
  while ((std::int64_t(1) << ibits) < ne) ++ibits;
  while ((std::int64_t(1) << pbits) < parts) ++pbits;
  using C = Carve<Mem>;
  const C counts("kfem::owner_plan_counts",
                 {C::template bytes<Ids>(num_nodes), C::template bytes<Words>(ne + 1)});
  const Ids first = counts.template part<Ids>(0, num_nodes);
  const Words at = counts.template part<Words>(1, ne + 1);
  Kokkos::deep_copy(exec, first, ne);
  Kokkos::parallel_for("kfem::owner_first_touch", range(exec, 0, ne),
                       bd::FirstTouch<Mem, Conn>{order, conn, first});
  const bd::Owners<Mem, Conn> owners{order, conn, first, ne, parts};
  Kokkos::parallel_for("kfem::owner_count_entries", range(exec, 0, ne),
                       bd::CountEntries<Mem, Conn>{owners, at});
  const offset_t entries = exclusive_scan(exec, "kfem::owner_entry_offsets", at, at, ne);
  const std::int64_t words = sort_workspace_words(entries);
  const C sort("kfem::owner_plan_keys", {C::template bytes<Keys>(entries), C::template bytes<Keys>(entries),
                                         C::template bytes<Words>(words)});
  const Keys keys = sort.template part<Keys>(0, entries), sorted = sort.template part<Keys>(1, entries);
  Kokkos::parallel_for("kfem::owner_entry_keys", range(exec, 0, ne),
                       bd::EntryKeys<Mem, Conn>{owners, at, keys, ibits});
  // The sort leaves the keys in order in `sorted` (its bins); its own output is not needed here.
  sort_unique_keys(exec, Kokkos::View<const std::uint64_t*, Mem>(keys), ibits + pbits, ~std::uint64_t(0),
                   sorted, sort.template part<Words>(2, words), keys);
  const Ids element(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kfem::owner_sequence")),
                    entries);
  d.rows = decltype(d.rows)(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kfem::owner_rows")),
                            entries);
  d.starts = decltype(d.starts)(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kfem::owner_starts")), parts + 1);
  Kokkos::parallel_for(
      "kfem::owner_place_entries",
      Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, entries + 1),
      bd::PlaceEntries<Mem, Conn>{owners, sorted, element, d.starts, d.rows, ibits, entries});
  exec.fence();  // the temporaries are freed here
  return element;
}

template <class S, class Exec>
Hex8BatchOwnerData<S, typename Exec::memory_space> make_hex8_batch_owner_data(const Exec& exec,
                                                                              const Problem<Exec>& p,
                                                                              ordinal_t parts) {
  using Mem = typename Exec::memory_space;
  // The Morton order of renumber.hpp's morton_order, sorted on exec (on every host thread, not one),
  // and the plan on exec too.
  const Kokkos::View<const ordinal_t*, Mem> order =
      morton::order(exec, p.mesh.coords, p.mesh.conn, hex8_nodes);
  Hex8BatchOwnerData<S, Mem> d;
  d.num_elements = p.num_elements();
  const auto sequence = plan_hex8_owner_partitions(exec, order, p.mesh.conn, p.mesh.num_nodes, parts, d);
  d.elements = make_hex8_element_data<S, Kokkos::LayoutLeft>(exec, p.mesh.coords, p.mesh.conn, sequence,
                                                             p.graph, p.graph.dof);
  return d;
}

struct Hex8BatchOwner {
  static constexpr const char* name = "batch-owner";
  static constexpr const char* help =
      "batch's math in partitions of the Morton order that own their rows: no zeroing pass, deterministic "
      "(for CPUs)";
  static constexpr bool owner_computes = true;
  ordinal_t partitions = 0;  // 0: 2 per host thread (dynamic schedule), one per ~64 elements on a GPU

  template <class Exec>
  ordinal_t partition_count(const Exec& exec, ordinal_t ne) const {
    if (partitions > 0) return partitions;
    return lanes::in_turn<Exec> ? 2 * ordinal_t(exec.concurrency()) : (ne + 63) / 64;
  }
  template <class S, class Exec>
  auto make_data(const Exec& exec, const Problem<Exec>& p) const {
    return make_hex8_batch_owner_data<S>(exec, p, partition_count(exec, p.num_elements()));
  }
  // The element index of every entry (interface elements count once per owner) and its masks.
  template <class Data>
  static double index_bytes_per_element(const Data& d) {
    const double entries = double(d.elements.num_elements) / double(d.num_elements > 0 ? d.num_elements : 1);
    return entries * (hex8_index_bytes + sizeof(std::uint16_t));
  }

  // tour: first-touch
  // Whether node a's rows are the partition's, zeroing them (through `write`) on the first touch.
  template <class Elements, class Rows, class Write>
  struct Owned {
    Elements d;
    Rows rows;
    Write write;
    KOKKOS_INLINE_FUNCTION bool operator()(ordinal_t e, int a) const {
      const unsigned m = rows(e);
      if (!(m >> a & 1u)) return false;
      if (m >> (8 + a) & 1u) {
        const slot_t r = d.row(e, a), end = r + 3 * slot_t(d.stride(e, a));
        for (slot_t s = r; s < end; ++s) write(s, typename Elements::scalar_type(0));
      }
      return true;
    }
  };
  template <class Write>
  struct Add {
    Write write;
    template <class S>
    KOKKOS_INLINE_FUNCTION void operator()(slot_t s, S x) const {
      write.add(s, x);
    }
  };
  // tour: end first-touch

  // Partition k, entry by entry, W at a time. A named functor, not a KOKKOS_LAMBDA: the tests
  // instantiate it outside make_assembler_hex8_*.cpp too (see core/fill.hpp).
  template <int W, class Elements, class Rows, class Starts, class Write>
  struct Kernel {
    Elements els;
    Rows rows;
    Starts starts;
    Write write;
    Isotropic<typename Elements::scalar_type> m;
    KOKKOS_INLINE_FUNCTION void operator()(ordinal_t k) const {
      const Owned<Elements, Rows, Write> owned{els, rows, write};
      const Add<Write> add{write};
      const ordinal_t last = starts(k + 1);
      for (ordinal_t e0 = starts(k); e0 < last; e0 += W)
        Hex8Batch::elements<W>(els, m, e0, last - e0 < W ? int(last - e0) : W, add, owned);
    }
  };

  // `write(slot, value)` stores, `write.add(slot, value)` adds; every value has one writer.
  template <class Exec, class Data, class Op, class Write>
  void launch(const Exec& exec, const Data& d, const Op& op, const Write& write) const {
    using S = typename Data::scalar_type;
    const Isotropic<S> m = op.material;
    using Policy = Kokkos::RangePolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>>;
    Kokkos::parallel_for("kfem::assemble[batch-owner]", Policy(exec, 0, d.partitions, Kokkos::ChunkSize(1)),
                         Kernel<Hex8Batch::width<Exec, S>(), typename Data::Elements, decltype(d.rows),
                                decltype(d.starts), Write>{d.elements, d.rows, d.starts, write, m});
  }
};
}  // namespace kfem::mapping
