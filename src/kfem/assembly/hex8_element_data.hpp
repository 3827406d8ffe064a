// Per-element inputs of the assembly kernels, stored element-wise in launch order (colour by
// colour when coloured) so the threads of a warp read them coalesced (kiran §4.1). The layout is
// the mapping's choice: LayoutLeft when one thread owns an element, LayoutRight when a warp does.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kfem/core/carve.hpp"
#include "kfem/core/error.hpp"
#include "kfem/core/exec_spaces.hpp"
#include "kfem/core/populate.hpp"
#include "kfem/sparsity/dof_graph.hpp"

namespace kfem {
template <class S, class Layout, class MemorySpace, bool Lower = false, bool Blocks = false>
struct Hex8ElementData {
  using scalar_type = S;
  static constexpr bool lower = Lower;  // target is the lower triangle only (symmetric storage)
  // Blocks: the target is block storage (sparsity/bsr.hpp): row(e, a) is 9 x the first block of
  // node n_a's row, block(e, 8a+b) 9 x the place of n_b in it, stride 3 (a block's next row).
  // Lower and Blocks: the blocks of the node graph's lower triangle (n_b <= n_a), each stored whole;
  // the adds reach only a diagonal block's lower triangle (slot() mirrors the rest), so its
  // entries above the diagonal stay as the assembly's zeroing left them.
  static constexpr bool blocks = Blocks;
  ordinal_t num_elements = 0;
  Kokkos::View<S* [24], Layout, MemorySpace> coords;        // x_a,j - x_0,j at 3a+j (see below)
  Kokkos::View<ordinal_t* [8], Layout, MemorySpace> nodes;  // global node ids
  // The CSR index (kiran §4.1), split so that it stays small past 2^31 entries: row(e, a) is the
  // position of row 3 n_a's first entry, block(e, 8a+b) how far along that row the block (n_a, n_b)
  // starts (3x n_b's place among n_a's neighbours). 64-bit slots for all 64 blocks would quadruple
  // the index traffic; this layout reads 8 x 8 + 64 x 2 bytes instead of 64 x 8.
  // stride(e,a) is how much later the next component's row of node a starts, less its column offset.
  // Lower storage keeps only blocks with n_b <= n_a; the others are never read (slot() mirrors them).
  Kokkos::View<slot_t* [8], Layout, MemorySpace> row;
  Kokkos::View<block_offset_t* [64], Layout, MemorySpace> block;
  Kokkos::View<row_length_t* [8], Layout, MemorySpace> stride;
  Kokkos::View<unsigned char*, MemorySpace> storage;  // the five views above, one allocation
  // Their sizes for n elements, in the order they are laid out in `storage`.
  static std::vector<std::size_t> parts(std::size_t n) {
    using C = Carve<MemorySpace>;
    return {C::template bytes<decltype(row)>(n), C::template bytes<decltype(coords)>(n),
            C::template bytes<decltype(nodes)>(n), C::template bytes<decltype(stride)>(n),
            C::template bytes<decltype(block)>(n)};
  }

  // Position in the CSR value array of Ke(i, j); for lower storage, of the mirrored entry when
  // Ke(i, j) lies above the diagonal of the global matrix (Ke is symmetric, so its value is the same).
  KOKKOS_INLINE_FUNCTION slot_t slot(ordinal_t e, int i, int j) const {
    if (Lower && (nodes(e, i / 3) < nodes(e, j / 3) || (i / 3 == j / 3 && i % 3 < j % 3)))
      return stored_slot(e, j, i);
    return stored_slot(e, i, j);
  }
  // Position of Ke(i, j) known to be stored (always so for full storage).
  KOKKOS_INLINE_FUNCTION slot_t stored_slot(ordinal_t e, int i, int j) const {
    return block_start(e, i / 3, j / 3) + row_offset(e, i / 3, i % 3) + j % 3;
  }
  // Position of the block (n_a, n_b): its first entry in row 3 n_a.
  KOKKOS_INLINE_FUNCTION slot_t block_start(ordinal_t e, int a, int b) const {
    return row(e, a) + block(e, 8 * a + b);
  }
  // How much later than block(e, 8a+b) the component-c row of that block starts. Lower: row 3n+c
  // of node n holds 3*(lower neighbours) + c + 1 columns; c*(c+1)/2 counts the diagonal-block
  // entries of the earlier component rows.
  KOKKOS_INLINE_FUNCTION row_length_t row_offset(ordinal_t e, int a, int c) const {
    if constexpr (Blocks) return 3 * c;
    return c * stride(e, a) + (Lower ? c * (c + 1) / 2 : 0);
  }
};

// One node's 8 block offsets, as one aligned 16-byte store.
struct alignas(16) EightOffsets {
  block_offset_t at[8];
};
static_assert(sizeof(EightOffsets) == 16);

// Throws where a node row is too long for the 16-bit block offsets (3 x the place of a node in a
// row). The graph's bound (the busiest node's elements x 8) settles it for any usual mesh without
// a pass; the longest row is measured only where the bound is too high. The element data's kernel is
// therefore a parallel_for, not a max reduction: Kokkos 3.4 runs a RangePolicy reduction on at most
// 256 blocks, a fraction of a large GPU.
template <class Rows>
struct LongestRow {
  Rows rows;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t n, offset_t& m) const {
    const offset_t k = rows(n + 1) - rows(n);
    m = k > m ? k : m;
  }
};
template <class Exec>
void check_block_offsets(const Exec& exec, const DofGraph<typename Exec::memory_space>& g,
                         offset_t per_node = 3) {
  constexpr offset_t most = std::numeric_limits<block_offset_t>::max();
  if (g.most_elements > 0 && per_node * (8 * g.most_elements - 1) <= most) return;
  offset_t longest = 0;
  Kokkos::parallel_reduce("kfem::longest_node_row", Kokkos::RangePolicy<Exec>(exec, 0, g.node.num_rows),
                          LongestRow<decltype(g.node.row_map)>{g.node.row_map},
                          Kokkos::Max<offset_t>(longest));
  if (per_node * (longest - 1) > most)
    throw InputError("a mesh node has " + std::to_string(longest) +
                     " neighbouring nodes (itself included); the hex8 element index holds at most " +
                     std::to_string(most / per_node + 1));
}

// One thread per (element, node a): its node, coordinates, row, stride and 8 blocks. On a GPU,
// threads next to each other write next to each other in the layout's order (element-major rows for
// LayoutRight, element-fastest columns for LayoutLeft); one thread per element wrote 432-byte rows
// with a 432-byte stride, most of its bytes in partial sectors. The order is node-major within tiles
// of Tile elements: 1 is element-major, 0 node-major over the whole mesh. Host threads with
// LayoutLeft take tiles of 256: node-major over the whole mesh, a node's row was read in 8 passes
// over the mesh, each time from memory; element-major, a thread wrote 112 columns at once; a tile
// keeps the 8 passes in cache. A named functor, not a KOKKOS_LAMBDA: the library and the tests
// instantiate it (see core/fill.hpp).
template <class D, class Coords, class Conn, class Order, class Rows, class Cols, int Tile>
struct GatherHex8ElementData {
  using S = typename D::scalar_type;
  static constexpr bool rows_of_elements =
      std::is_same_v<typename decltype(D::coords)::array_layout, Kokkos::LayoutRight>;
  D out;
  Coords coords;
  Conn conn;
  Order order;
  Rows node_rows, rows;
  Cols node_cols;
  ordinal_t ne;
  // Items i < items(ne): all (element, node) pairs, and the last tile's padding.
  static std::int64_t items(ordinal_t ne) {
    return Tile > 0 ? (std::int64_t(ne) + Tile - 1) / Tile * Tile * 8 : std::int64_t(ne) * 8;
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    ordinal_t e;
    int a;
    if constexpr (Tile > 0) {
      const std::int64_t in_tile = i % (8 * Tile);
      e = ordinal_t(i / (8 * Tile) * Tile + in_tile % Tile);
      a = int(in_tile / Tile);
      if (e >= ne) return;
    } else {  // the one tile of all ne elements, without its run-time 64-bit divisions by 8 ne
      e = ordinal_t(i % ne);
      a = int(i / ne);
    }
    const ordinal_t src = order(e);
    const ordinal_t n0 = conn(src, 0), na = conn(src, a);
    out.nodes(e, a) = na;
    // Relative to node 0, subtracted in double: J = sum_a dN_a x_a is translation invariant, and
    // absolute coordinates (x ~ 16 m, h ~ 0.03 m) would cost float J ~3 digits to cancellation.
    for (int j = 0; j < 3; ++j) out.coords(e, 3 * a + j) = S(coords(na, j) - coords(n0, j));
    if constexpr (D::blocks) {  // rows: the node graph's
      out.stride(e, a) = 3;
      out.row(e, a) = 9 * rows(na);
    } else {
      out.stride(e, a) = row_length_t(rows(3 * na + 1) - rows(3 * na) - (D::lower ? 1 : 0));
      out.row(e, a) = rows(3 * na);
    }
    ordinal_t nb[8];
    int place[8];
    for (int b = 0; b < 8; ++b) nb[b] = conn(src, b);
    positions_in_row(node_rows, node_cols, na, nb, place);
    EightOffsets blocks;
    for (int b = 0; b < 8; ++b) {
      const offset_t at = D::lower && nb[b] > na ? 0 : (D::blocks ? 9 : 3) * offset_t(place[b]);
      blocks.at[b] = block_offset_t(at);
    }
    // Element-major rows: node a's 8 offsets are 16 aligned bytes, one store instead of 8.
    if constexpr (rows_of_elements)
      *reinterpret_cast<EightOffsets*>(&out.block(e, 8 * a)) = blocks;
    else
      for (int b = 0; b < 8; ++b) out.block(e, 8 * a + b) = blocks.at[b];
  }
};

// Gathers coordinates and node ids of elements order(0..n) and computes their CSR index on the
// device, for the full pattern (target = g.dof) or its lower triangle (Lower, target from lower_triangle),
// or block storage (Blocks, target = g.node, or its lower triangle with Lower), in `reuse` where that
// block is large enough. A node's place in its lower row is its place in the full row (rows are
// sorted: the columns <= the row come first), so one search serves every target.
template <class S, class Layout, bool Lower = false, bool Blocks = false, class Exec, class Coords,
          class Conn, class Order>
Hex8ElementData<S, Layout, typename Exec::memory_space, Lower, Blocks> make_hex8_element_data(
    const Exec& exec, const Coords& coords, const Conn& conn, const Order& order,
    const DofGraph<typename Exec::memory_space>& g, const CsrGraph<typename Exec::memory_space>& target,
    typename Carve<typename Exec::memory_space>::Bytes reuse = {}) {
  using Mem = typename Exec::memory_space;
  using D = Hex8ElementData<S, Layout, Mem, Lower, Blocks>;
  const ordinal_t ne = static_cast<ordinal_t>(order.extent(0));
  D d;
  d.num_elements = ne;
  // One allocation for the five views (each device allocation costs set-up time, core/carve.hpp), or
  // the block an earlier stage handed on where it is large enough.
  const Carve<Mem> block("kfem::element_data", D::parts(ne), std::move(reuse));
  populate(exec, block.storage);
  d.storage = block.storage;
  d.row = block.template part<decltype(d.row)>(0, ne);
  d.coords = block.template part<decltype(d.coords)>(1, ne);
  d.nodes = block.template part<decltype(d.nodes)>(2, ne);
  d.stride = block.template part<decltype(d.stride)>(3, ne);
  d.block = block.template part<decltype(d.block)>(4, ne);
  check_block_offsets(exec, g, Blocks ? 9 : 3);
  // Element-major for LayoutRight; for LayoutLeft, tiles on a host and whole-mesh columns on a GPU.
  constexpr int tile = std::is_same_v<Layout, Kokkos::LayoutRight> ? 1 : on_host<Exec> ? 256 : 0;
  using Gather =
      GatherHex8ElementData<D, Coords, Conn, Order, decltype(target.row_map), decltype(g.node.cols), tile>;
  Kokkos::parallel_for("kfem::element_data",
                       Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, Gather::items(ne)),
                       Gather{d, coords, conn, order, g.node.row_map, target.row_map, g.node.cols, ne});
  return d;
}
}  // namespace kfem
