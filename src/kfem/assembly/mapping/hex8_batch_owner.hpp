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
#include <vector>

#include "kfem/assembly/hex8_element_data.hpp"
#include "kfem/assembly/mapping/hex8_batch.hpp"
#include "kfem/assembly/problem.hpp"
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

// The host side of the plan: entry sequence (element ids), masks and partition starts.
struct Hex8OwnerPlan {
  std::vector<ordinal_t> element, starts;
  std::vector<std::uint16_t> rows;
};
inline Hex8OwnerPlan plan_hex8_owner_partitions(const Mesh& mesh, const std::vector<ordinal_t>& order,
                                                ordinal_t parts) {
  const ordinal_t ne = ordinal_t(order.size());
  parts = std::max<ordinal_t>(1, std::min(parts, ne));
  const auto begin = [&](ordinal_t k) { return ordinal_t(std::int64_t(k) * ne / parts); };
  std::vector<ordinal_t> first(mesh.num_nodes(), -1), part_of(ne);
  for (ordinal_t k = 0; k < parts; ++k)
    for (ordinal_t i = begin(k); i < begin(k + 1); ++i) part_of[i] = k;
  for (ordinal_t i = 0; i < ne; ++i)
    for (int a = 0; a < 8; ++a) {
      ordinal_t& f = first[mesh.elements[order[i]][a]];
      if (f < 0) f = i;
    }
  // Position i goes to every partition that owns one of its nodes, with that partition's masks.
  // Walking i upwards keeps each partition's list in the Morton order.
  std::vector<std::vector<std::pair<ordinal_t, std::uint16_t>>> lists(parts);
  for (ordinal_t i = 0; i < ne; ++i) {
    const auto& el = mesh.elements[order[i]];
    ordinal_t owner[8];
    for (int a = 0; a < 8; ++a) owner[a] = part_of[first[el[a]]];
    for (int a = 0; a < 8; ++a) {
      if (std::find(owner, owner + a, owner[a]) != owner + a) continue;  // partition seen already
      std::uint16_t m = 0;
      for (int b = 0; b < 8; ++b)
        if (owner[b] == owner[a]) m |= std::uint16_t((1u << b) | (first[el[b]] == i ? 1u << (8 + b) : 0u));
      lists[owner[a]].emplace_back(i, m);
    }
  }
  Hex8OwnerPlan plan;
  plan.starts.push_back(0);
  for (const auto& list : lists) {
    for (const auto& [i, m] : list) plan.element.push_back(order[i]), plan.rows.push_back(m);
    plan.starts.push_back(ordinal_t(plan.element.size()));
  }
  return plan;
}

template <class S, class Exec>
Hex8BatchOwnerData<S, typename Exec::memory_space> make_hex8_batch_owner_data(const Exec& exec,
                                                                              const Problem<Exec>& p,
                                                                              ordinal_t parts) {
  using Mem = typename Exec::memory_space;
  const Mesh mesh = to_host(p.mesh, CellType::hex8);
  // The Morton order of renumber.hpp's morton_order, sorted on exec's threads: mesh1's took 16 ms
  // on one host thread and 4.4 ms on the development VM's two.
  const auto sorted = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), morton::order(exec, p.mesh.coords, p.mesh.conn, hex8_nodes));
  const std::vector<ordinal_t> order(sorted.data(), sorted.data() + sorted.extent(0));
  const Hex8OwnerPlan plan = plan_hex8_owner_partitions(mesh, order, parts);
  Hex8BatchOwnerData<S, Mem> d;
  d.partitions = ordinal_t(plan.starts.size() - 1);
  d.num_elements = p.num_elements();
  d.rows = to_device(exec, plan.rows, "kfem::owner_rows");
  d.starts = to_device(exec, plan.starts, "kfem::owner_starts");
  d.elements = make_hex8_element_data<S, Kokkos::LayoutLeft>(exec, p.mesh.coords, p.mesh.conn,
                                                        to_device(exec, plan.element, "kfem::owner_sequence"),
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
    return lanes::on_host<Exec> ? 2 * ordinal_t(exec.concurrency()) : (ne + 63) / 64;
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
  // instantiate it outside make_assembler_hex8.cpp too (see core/fill.hpp).
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
  void launch(const Exec& exec, const Data& d, const Op& op,
              const Write& write) const {
    using S = typename Data::scalar_type;
    const Isotropic<S> m = op.material;
    using Policy = Kokkos::RangePolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>>;
    Kokkos::parallel_for("kfem::assemble[batch-owner]", Policy(exec, 0, d.partitions, Kokkos::ChunkSize(1)),
                         Kernel<Hex8Batch::width<Exec, S>(), typename Data::Elements, decltype(d.rows),
                                decltype(d.starts), Write>{d.elements, d.rows, d.starts, write, m});
  }
};
}  // namespace kfem::mapping
