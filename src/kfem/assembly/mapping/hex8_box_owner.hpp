// Work mapping `box-owner` (kfem's own, issue 18): owner computes by columns of nodes, a fast path
// for hex8 meshes with the topology of a structured box (mesh/box_grid_device.hpp; any node numbering).
// A team owns the rows of a tile of Tx x Ty node columns over a range of z planes and sweeps its
// element layers upwards:
//  - per layer the (Tx + 1) (Ty + 1) elements around the tile, in 4 phases of the elements' (i, j)
//    parity: no two elements of a phase share a node, so the adds to team scratch need no atomics.
//    The ring around the tile is computed again by the neighbouring tiles: (Tx + 1) (Ty + 1) /
//    (Tx Ty) of the element work (1.52x at 7 x 3, 1.78x at 3 x 3), where the per-node `owner`
//    pays 8x;
//  - one warp per element. In double the node-pair products run on the FP64 matrix units
//    (Hex8PairsMma's) and each lane adds the two blocks of its row node where the team owns that
//    node. In float (and where there are no such units) they are pairs' products in the scalar
//    (hex8_pairs.hpp): lane p < 28 adds pair p's block and its transpose, and no lane computes a
//    diagonal block. A row's diagonal block is minus the sum of its 26 neighbour blocks, formed at
//    the flush: rigid translations are in the null space of the assembled matrix as of every Ke;
//  - team scratch holds the rows of two node planes, 27 neighbour blocks per node. After layer L
//    plane L has all its elements: its rows go out once, as runs of 3 x 3k values per node (one run
//    per tile row in the natural numbering), and its scratch takes plane L + 2.
// No zeroing pass, no atomics, no colouring, and every value is summed in the same order on every
// run: bitwise deterministic (race `none`). The values leave the GPU once: the write floor.
// `symbox-owner` writes only the lower triangle (columns <= row) into lower-triangular storage.
#pragma once
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kfem/assembly/mapping/hex8_pairs.hpp"
#include "kfem/assembly/mapping/hex8_pairs_mma.hpp"
#include "kfem/assembly/problem.hpp"
#include "kfem/core/kokkos_compat.hpp"
#include "kfem/mesh/box_grid_device.hpp"

namespace kfem::mapping {
template <class S, class Mem>
struct Hex8BoxOwnerData {
  using scalar_type = S;
  ordinal_t nx = 0, ny = 0, nz = 0;  // elements per direction
  // Element (i, j, k) at i + nx (j + ny k): coordinates relative to its node 0, as Hex8ElementData.
  Kokkos::View<S* [24], Kokkos::LayoutRight, Mem> coords;
  Kokkos::View<ordinal_t*, Mem> node;  // node id of grid point (i, j, k) at i + (nx+1) (j + (ny+1) k)
  // Per grid point: where neighbour o = (dx+1) + 3 (dy+1) + 9 (dz+1) sits among the sorted node
  // columns of its row (-1: none), then the row's node count. Any numbering, no search in the kernel.
  Kokkos::View<std::int8_t* [28], Kokkos::LayoutRight, Mem> place;
  Kokkos::View<offset_t*, Mem> dof_rows;  // of the full pattern, or of the lower triangle's
  // Block storage (blocks): node row n's first block, of the node graph or of its lower triangle.
  // A row's 27 neighbour blocks then go out whole, one after another in place order.
  bool blocks = false;
  Kokkos::View<const offset_t*, Mem> block_rows;
};

// The set-up kernels are named functors, not KOKKOS_LAMBDAs: the library and the tests instantiate
// them (scripts/check-kernel-lambdas).
namespace box_owner_detail {
// Grid point g's neighbours in the order of their node ids (an insertion sort of at most 27).
template <class Mem>
struct RowPlaces {
  Kokkos::View<std::int8_t* [28], Kokkos::LayoutRight, Mem> out;
  Kokkos::View<ordinal_t*, Mem> node;
  std::int64_t px, py, pz;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t g) const {
    const std::int64_t i = g % px, j = g / px % py, k = g / px / py;
    ordinal_t id[27];
    int at[27], n = 0;
    for (int o = 0; o < 27; ++o) {
      out(g, o) = -1;
      const std::int64_t x = i + o % 3 - 1, y = j + o / 3 % 3 - 1, z = k + o / 9 - 1;
      if (x < 0 || x >= px || y < 0 || y >= py || z < 0 || z >= pz) continue;
      const ordinal_t v = node(x + px * (y + py * z));
      int r = n++;
      for (; r > 0 && id[r - 1] > v; --r) id[r] = id[r - 1], at[r] = at[r - 1];
      id[r] = v, at[r] = o;
    }
    for (int r = 0; r < n; ++r) out(g, at[r]) = std::int8_t(r);
    out(g, 27) = std::int8_t(n);
  }
};

// One thread per (cell, node): neighbouring threads write neighbouring coordinates.
template <class S, class Mem, class Conn, class Coords>
struct CellCoordinates {
  Kokkos::View<S* [24], Kokkos::LayoutRight, Mem> out;
  Kokkos::View<ordinal_t*, Mem> cells;
  Conn conn;
  Coords xyz;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const ordinal_t c = ordinal_t(i / 8), e = cells(c);
    const int a = int(i % 8);
    for (int j = 0; j < 3; ++j) out(c, 3 * a + j) = S(xyz(conn(e, a), j) - xyz(conn(e, 0), j));
  }
};
}  // namespace box_owner_detail

// The place table of a grid on exec: each point's neighbours in the order of their node ids.
template <class Exec, class Mem>
Kokkos::View<std::int8_t* [28], Kokkos::LayoutRight, Mem> box_row_places(
    const Exec& exec, const Kokkos::View<ordinal_t*, Mem>& node, ordinal_t nx, ordinal_t ny, ordinal_t nz) {
  const std::int64_t px = nx + 1, py = ny + 1, pz = nz + 1;
  Kokkos::View<std::int8_t* [28], Kokkos::LayoutRight, Mem> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::box_places"), px * py * pz);
  Kokkos::parallel_for("kfem::box_places", Kokkos::RangePolicy<Exec>(exec, 0, px * py * pz),
                       box_owner_detail::RowPlaces<Mem>{out, node, px, py, pz});
  return out;
}

template <class S, class Exec>
Hex8BoxOwnerData<S, typename Exec::memory_space> make_hex8_box_owner_data(const Exec& exec,
                                                                          const Problem<Exec>& p, bool lower,
                                                                          bool blocks = false) {
  DeviceBoxGrid<typename Exec::memory_space> g;
  try {
    // Its temporaries in the graph's kept workspace (SetupChoice::spare_bytes), freed after the stage.
    g = box_grid(
        exec, p.mesh.conn, p.mesh.num_nodes, [&] { return to_host(p.mesh); }, p.spare.lend());
  } catch (const InputError& e) {
    throw InputError(std::string("mapping box-owner: ") + e.what() + " (use owner or pairs)");
  }
  Hex8BoxOwnerData<S, typename Exec::memory_space> d;
  d.nx = g.nx, d.ny = g.ny, d.nz = g.nz;
  d.node = g.node;
  d.place = box_row_places(exec, d.node, g.nx, g.ny, g.nz);
  d.dof_rows = lower ? p.lower.row_map : p.graph.dof.row_map;
  d.blocks = blocks;
  if (blocks) d.block_rows = p.block_pattern(lower).row_map;
  const auto cells = g.element;
  d.coords = decltype(d.coords)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::box_coords"),
                                cells.extent(0));
  using Mem = typename Exec::memory_space;
  Kokkos::parallel_for(
      "kfem::box_owner_data",
      Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, std::int64_t(cells.extent(0)) * 8),
      box_owner_detail::CellCoordinates<S, Mem, decltype(p.mesh.conn), decltype(p.mesh.coords)>{
          d.coords, cells, p.mesh.conn, p.mesh.coords});
  exec.fence();
  return d;
}

// An element's coordinates X[3a + j] read from the element data where monomial_coefficient wants
// them: the float path's monomials load them themselves, with no lane loop to stage them in scratch.
template <class M, class View>
struct CellCoords {
  const View& coords;
  ordinal_t cell;
  KOKKOS_INLINE_FUNCTION M operator[](int k) const { return M(coords(cell, k)); }
};

// Node columns per tile side, x and y.
struct BoxTile {
  int x = 0, y = 0;
};

// The two element blocks a lane adds, fixed for a kernel: their row nodes r0 | r1 << 3 in the cell,
// and where each sits in a tile's rows relative to the cell's lowest corner, o0 | o1 << 16 (in
// scalars: the row node's column in the tile and the column node's neighbour slot). Worked out once
// per team: redone per element (pair_nodes, corner bits, neighbour offsets) it is integer work in
// every lane of every element.
struct alignas(8) BlockSlots {
  int rows;
  unsigned offsets;
};

template <bool Lower>
struct Hex8BoxOwner {
  static constexpr const char* name = Lower ? "symbox-owner" : "box-owner";
  static constexpr const char* help =
      Lower
          ? "lower triangle: box-owner's tiles, lower-triangular storage, each value written once"
          : "structured box meshes: teams own columns of nodes, each value written once (node-pair products "
            "on the FP64 matrix units in double on CUDA sm_80+, in the scalar elsewhere)";
  static constexpr bool owner_computes = true;
  static constexpr bool lower = Lower;
  // The tile; 0 (default): tile_for's choice. Odd sides give four equal phases of
  // (x + 1) (y + 1) / 4 elements, one per warp.
  BoxTile tile;
  // Node planes per team at most, spread evenly over the teams of a column (129 planes: 5 ranges
  // of 26): every team but the lowest computes the element layer below its range again, so fewer
  // planes recompute more layers and more planes leave fewer teams.
  int planes = 32;
  // Set by the storage (AssemblerChoice::blocks): write node blocks, bsr (box-owner) or bsr-lower
  // (symbox-owner), instead of CSR rows.
  bool blocks = false;

  // The node-pair products on the FP64 matrix units (double, where Exec has them), else pairs'
  // products in S: float math in float.
  template <class S, class Exec>
  static constexpr bool on_mma() {
    return std::is_same_v<S, double> && lanes::has_fp64_mma<Exec>();
  }
  // Per warp, in the math's scalar: coordinates X (24, read by the matrix-unit path; pairs' products
  // read them from the element data) and monomial coefficients C (24); then on the matrix units the
  // Gauss points' J^-1 and det J (80), with pairs' products PairScratch from c_at (C included). Per
  // team: two planes of row blocks.
  static constexpr int x_at = 0, c_at = 24, j_at = 48;
  template <class S, class Exec>
  static constexpr int warp_words() {
    return on_mma<S, Exec>() ? 128 : padded(c_at + PairScratch<S>::words);
  }
  template <class S, class Exec>
  using math_type = std::conditional_t<on_mma<S, Exec>(), double, S>;
  static constexpr int row_words = 243;  // 3 rows x 27 neighbours x 3 components
  static constexpr int slot_bytes = lanes::width * sizeof(BlockSlots);
  static constexpr int self = 13;  // the neighbour (0, 0, 0): the row's diagonal block

  // The diagonal block of three rows (81 values each: 27 neighbour blocks x 3 components) set to minus
  // the sum of the other 26 blocks. On a GPU lane l < 27 sums a third of entry l % 9's neighbours and
  // two shuffles add the thirds: 27 lanes share what 9 lanes would each sum alone. Host backends,
  // whose lanes run in turn: the plain loop.
  template <class Member, class S>
  static KOKKOS_INLINE_FUNCTION void diagonal_from_neighbours(const Member& t, S* row) {
    using Kokkos::ThreadVectorRange;
    if constexpr (lanes::native()) {
      lanes::for_lanes(t, lanes::width, [&](int l) {
        const int w = l % 9, third = l < 27 ? l / 9 : 0;  // lanes 27..31 repeat the first third, unused
        const S* r = row + 81 * (w / 3) + 27 * third + w % 3;
        S v = 0;  // the diagonal block itself is still 0 (no lane adds one): summed with the rest
        KFEM_UNROLL
        for (int k = 0; k < 9; ++k) v -= r[3 * k];
        v += lanes::broadcast(v, l + 9) + lanes::broadcast(v, l + 18);  // lane l < 9: all three thirds
        if (l < 9) row[81 * (w / 3) + 3 * self + w % 3] = v;
      });
    } else {
      Kokkos::parallel_for(ThreadVectorRange(t, 9), [&](int w) {
        S v = 0;
        for (int o = 0; o < 27; ++o)
          if (o != self) v -= row[81 * (w / 3) + 3 * o + w % 3];
        row[81 * (w / 3) + 3 * self + w % 3] = v;
      });
    }
  }

  static constexpr int max_threads = 512;  // a team's, on a GPU (the launch bound)
  template <class Exec>
  static int warps(BoxTile t) {
    return lanes::in_turn<Exec> ? 1 : ((t.x + 1) * (t.y + 1) + 3) / 4;
  }
  template <class S, class Exec>
  static std::size_t warp_bytes() {
    return std::size_t(warp_words<S, Exec>()) * sizeof(math_type<S, Exec>);
  }
  // Team scratch of a tile: two planes of rows, and each warp's own.
  template <class S, class Exec>
  static std::size_t team_bytes(BoxTile t) {
    return std::size_t(2) * t.x * t.y * row_words * sizeof(S) + slot_bytes + scratch_alignment +
           std::size_t(warps<Exec>(t)) * warp_bytes<S, Exec>();
  }
  // Shared memory on a GPU (beyond 48 KB where the Kokkos build lets the kernel opt in); host
  // backends take the planes from level 1, the same memory there, which caps them less.
  template <class Exec>
  static std::size_t scratch_limit(const Exec& exec) {
    return lanes::in_turn<Exec> ? std::size_t(Kokkos::TeamPolicy<Exec>::scratch_size_max(1))
                                : kokkos_compat::team_scratch_max(exec);
  }
  // 7 x 3 where it fits (90 KB in double: host backends, and CUDA where Kokkos lets the kernel opt
  // in to more than 48 KB), else 3 x 3 (39 KB). 7 x 3 recomputes less of the ring than 3 x 3, and
  // its eight warps leave room for two teams per SM; larger tiles leave one team per SM, whose warps
  // all meet at every phase's barrier.
  template <class S, class Exec>
  BoxTile tile_for(const Exec& exec) const {
    if (tile.x > 0 && tile.y > 0) return tile;
    if (team_bytes<S, Exec>(BoxTile{7, 3}) <= scratch_limit(exec)) return BoxTile{7, 3};
    return BoxTile{3, 3};
  }

  // The grid search's temporaries (box_grid), held in the set-up's kept graph workspace.
  template <class Mem>
  static std::size_t set_up_scratch(ordinal_t ne, ordinal_t nn) {
    return Carve<Mem>::total(box_grid_parts<Mem>(ne, nn));
  }
  template <class S, class Exec>
  auto make_data(const Exec& exec, const Problem<Exec>& p) const {
    if (Lower && !blocks && p.lower.num_rows != p.graph.dof.num_rows)
      throw std::logic_error("mapping symbox-owner needs Problem::lower");
    if (blocks && p.block_pattern(Lower).num_rows != p.graph.node.num_rows)
      throw std::logic_error(std::string("mapping ") + name + " needs the pattern of its block storage");
    return make_hex8_box_owner_data<S>(exec, p, Lower, blocks);
  }
  // The grid's node and place tables, per element.
  template <class Data>
  static double index_bytes_per_element(const Data& d) {
    const double cells = double(d.nx) * d.ny * d.nz;
    return cells > 0 ? double(d.node.extent(0)) * (sizeof(ordinal_t) + 28) / cells : 0.0;
  }

  // The kernel: one team per tile of node columns and range of planes. A named functor, not a
  // KOKKOS_LAMBDA: the library and the tests instantiate it (scripts/check-kernel-lambdas).
  template <class Exec, class Data, class Write>
  struct Kernel {
    using S = typename Data::scalar_type;
    using Mma = std::bool_constant<on_mma<S, Exec>()>;
    using M = math_type<S, Exec>;  // the element math's scalar
    using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
    static constexpr int words = warp_words<S, Exec>();
    static constexpr int level = lanes::in_turn<Exec> ? 1 : 0;
    Data d;
    Write write;
    Isotropic<M> mat;
    int Tx, Ty, NT, P;
    ordinal_t nx, ny, nz, tiles_x, tiles_y;
    KOKKOS_INLINE_FUNCTION void operator()(const Member& t) const {
      using Kokkos::ThreadVectorRange;
      const ordinal_t r = t.league_rank();
      const ordinal_t i0 = Tx * (r % tiles_x), j0 = Ty * (r / tiles_x % tiles_y),
                      k0 = P * (r / tiles_x / tiles_y);
      const ordinal_t i1 = i0 + Tx < nx + 1 ? i0 + Tx : nx + 1, j1 = j0 + Ty < ny + 1 ? j0 + Ty : ny + 1,
                      k1 = k0 + P < nz + 1 ? k0 + P : nz + 1;
      // Elements touching the owned columns: cells i0 - 1 .. i1 - 1 within the box (same in y, z).
      const ordinal_t ex0 = i0 > 0 ? i0 - 1 : 0, ex1 = i1 - 1 < nx ? i1 - 1 : nx - 1;
      const ordinal_t ey0 = j0 > 0 ? j0 - 1 : 0, ey1 = j1 - 1 < ny ? j1 - 1 : ny - 1;
      const ordinal_t L0 = k0 > 0 ? k0 - 1 : 0, L1 = k1 - 1 < nz ? k1 - 1 : nz - 1;
      S* const R = static_cast<S*>(t.team_scratch(int(level)).get_shmem(sizeof(S) * 2 * NT * row_words));
      BlockSlots* const slots =
          static_cast<BlockSlots*>(t.team_scratch(0).get_shmem(std::size_t(slot_bytes)));
      M* const W = thread_scratch<M>(t, words);
      M* const X = W + x_at;
      M* const C = W + c_at;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 2 * NT), [&](int s) {
        Kokkos::parallel_for(ThreadVectorRange(t, row_words), [&](int w) { R[row_words * s + w] = S(0); });
      });
      Kokkos::single(Kokkos::PerTeam(t), [&] {
        for (int l = 0; l < lanes::width; ++l) {
          // Matrix units: lane (g, t) adds blocks (g, 2t) and (g, 2t + 1); else lane p < 28 pair p's
          // blocks (a, b) and (b, a).
          int row[2] = {l / 4, l / 4}, col[2] = {2 * (l % 4), 2 * (l % 4) + 1};
          if (!Mma::value) {
            pair_nodes(l < 28 ? l : 0, row[0], row[1]);
            col[0] = row[1], col[1] = row[0];
          }
          unsigned o[2];
          for (int k = 0; k < 2; ++k) {
            const int neighbour = 13 + (hex8::corner(col[k], 0) - hex8::corner(row[k], 0)) +
                                  3 * (hex8::corner(col[k], 1) - hex8::corner(row[k], 1)) +
                                  9 * (hex8::corner(col[k], 2) - hex8::corner(row[k], 2));
            o[k] = unsigned(row_words * (hex8::corner(row[k], 0) + Tx * hex8::corner(row[k], 1)) +
                            3 * neighbour);
          }
          slots[l] = BlockSlots{row[0] | row[1] << 3, o[0] | o[1] << 16};
        }
      });
      t.team_barrier();
      // Plane k's rows out, then zeroed for plane k + 2. Its lane loops run in one pass (for_lanes):
      // they hold few values, so one pass costs no warps, and Kokkos' loops cost a run-time mask each.
      const auto flush = [&](ordinal_t k) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(t, NT), [&](int s) {
          const int sy = lanes::small_quotient(s, Tx);  // NT < 1024: team_bytes' scratch limit
          const ordinal_t i = i0 + (s - Tx * sy), j = j0 + sy;
          if (i >= i1 || j >= j1) return;
          S* const row = R + row_words * (NT * (k % 2) + s);
          if constexpr (!Mma::value) diagonal_from_neighbours(t, row);
          const ordinal_t gp = i + (nx + 1) * (j + (ny + 1) * k);
          const ordinal_t n = d.node(gp);
          // CSR: rows 3n .. 3n + 2 follow each other; blocks: node row n's blocks, 9 values each.
          const slot_t start = d.blocks ? 9 * slot_t(d.block_rows(n)) : slot_t(d.dof_rows(3 * slot_t(n)));
          const int own = d.place(gp, int(self)), count = d.place(gp, 27);
          // Lane o < 27: neighbour o, its 3 x 3 values of the three rows: one place load and no e / 3,
          // where a lane per value (e < 81) takes 3 passes.
          lanes::for_lanes(t, 27, [&](int o) {
            const int at = d.place(gp, o);
            KFEM_UNROLL
            for (int c = 0; c < 3; ++c) {
              // Row 3n + c: 3 count columns, or in the lower triangle 3 own + c + 1 (diagonal last);
              // blocks: component row c of the block at place `at`.
              const slot_t row_start = d.blocks ? start + 3 * c + 6 * at
                                       : Lower  ? start + 3 * own * c + c * (c + 1) / 2
                                                : start + 3 * count * c;
              KFEM_UNROLL
              for (int dd = 0; dd < 3; ++dd) {
                S& v = row[81 * c + 3 * o + dd];
                // Lower block storage keeps a diagonal block whole: its entries above the diagonal are
                // written as zeros (bsr.hpp), as nothing zeroes the values before this mapping.
                if (d.blocks && Lower && at == own && dd > c)
                  write(row_start + 3 * at + dd, S(0));
                else if (at >= 0 && (!Lower || at < own || (at == own && dd <= c)))
                  write(row_start + 3 * at + dd, v);
                v = S(0);
              }
            }
          });
        });
      };
      for (ordinal_t L = L0; L <= L1; ++L) {
        for (int phase = 0; phase < 4; ++phase) {
          // Cells of parity (phase & 1, phase >> 1) in the tile's range: no two share a node.
          const ordinal_t fx = ex0 + ((ex0 & 1) != (phase & 1)), fy = ey0 + ((ey0 & 1) != (phase >> 1));
          const ordinal_t cx = fx <= ex1 ? (ex1 - fx) / 2 + 1 : 0, cy = fy <= ey1 ? (ey1 - fy) / 2 + 1 : 0;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(t, cx * cy), [&](ordinal_t n) {
            const int ny_ = lanes::small_quotient(int(n), int(cx));  // cx cy <= (Tx + 2) (Ty + 2) / 4
            const ordinal_t ei = fx + 2 * (n - cx * ny_), ej = fy + 2 * ny_;
            const ordinal_t cell = ei + nx * (ej + ny * L);
            // The coordinates' and the prefetch's lane loops: nothing lives across them. In one pass
            // (lanes::for_lanes) only in double, where they save instructions and cost no warps; in
            // float one pass costs registers and warps per SM, so float keeps Kokkos' loops.
            const auto light_loop = [&](int lanes_used, const auto& f) {
              if constexpr (Mma::value)
                lanes::for_lanes(t, lanes_used, f);
              else
                Kokkos::parallel_for(ThreadVectorRange(t, lanes_used), f);
            };
            // The warp's cell in the next phase (the same n, where the phases have as many cells):
            // its coordinates head for L1 while this one computes.
            light_loop(2, [&](int w) {
              const int q = (phase + 1) % 4;
              const ordinal_t ni = ei + ((ex0 & 1) != (q & 1)) - ((ex0 & 1) != (phase & 1)),
                              nj = ej + ((ey0 & 1) != (q >> 1)) - ((ey0 & 1) != (phase >> 1)),
                              nL = L + (q == 0);
              if (ni <= ex1 && nj <= ey1 && nL <= L1)
                lanes::prefetch(&d.coords(ni + nx * (nj + ny * nL), 16 * w));
            });
            // The corners the team owns (bit a: node a; the corner bits' node sets 0x99 / 0x66 in x,
            // 0x33 / 0xCC in y, 0x0F / 0xF0 in z), and the rows of the cell's lowest corner in the
            // scratch planes of its two node planes.
            const int owned = ((ei >= i0 ? 0x99 : 0) | (ei + 1 < i1 ? 0x66 : 0)) &
                              ((ej >= j0 ? 0x33 : 0) | (ej + 1 < j1 ? 0xCC : 0)) &
                              ((L >= k0 ? 0x0F : 0) | (L + 1 < k1 ? 0xF0 : 0));
            const int corner0 = row_words * (NT * (L & 1) + (ei - i0) + Tx * (ej - j0));
            const int corner1 = corner0 + row_words * NT * (1 - 2 * (L & 1));
            // Adds block k of the lane's slots to its row's scratch where the team owns the row node:
            // K(c, d, r) is r + Ke(3 row + c, 3 column + d).
            const auto add_block = [&](const BlockSlots& sl, int k, const auto& K) {
              const int a = (sl.rows >> 3 * k) & 7;
              if (!((owned >> a) & 1)) return;
              S* const row = R + ((a & 4 ? corner1 : corner0) + int((sl.offsets >> 16 * k) & 0xFFFFu));
              KFEM_UNROLL
              for (int q = 0; q < 9; ++q) {
                S& r = row[81 * (q / 3) + q % 3];
                r = S(K(q / 3, q % 3, r));
              }
            };
            if constexpr (Mma::value) {
              light_loop(24, [&](int w) { X[w] = M(d.coords(cell, w)); });
              lanes::Private<double, 24> Tp;
              // The geometry's lane loops and the block adds in one pass: fewer instructions, and the
              // registers it adds still leave two teams per SM. pairs-mma keeps Kokkos' loops: there one
              // pass adds many registers.
              pair_products_mma<lanes::OnePass>(t, X, C, W + j_at, Tp);
              lanes::for_lanes(t, lanes::width, [&](int l) {
                const BlockSlots sl = slots[l];
                KFEM_UNROLL
                for (int jb = 0; jb < 2; ++jb) {  // lane (g, t) holds blocks (g, 2t) and (g, 2t + 1)
                  const auto p = [&](int c, int dd) -> double { return Tp(l, pair_product(c, dd, jb)); };
                  add_block(sl, jb, [&](int c, int dd, double acc) {
                    return elasticity::add_products(mat, p, c, dd, acc);
                  });
                }
              });
            } else {
              lanes::Private<M, 9> A;
              // Lane l < 28 adds pair l's block (a, b) and its transpose in the products' own loop: one
              // lane loop fewer, and with the coordinates read above, fewer registers.
              const CellCoords<M, decltype(d.coords)> Xc{d.coords, cell};
              const auto table = [&](int l, int& a, int& b) {
                const int rows = slots[l].rows;
                a = rows & 7, b = rows >> 3;
              };
              pair_products<lanes::OnePass>(
                  t, Xc, C, A,
                  [&](int l, int, int) {
                    const BlockSlots sl = slots[l];
                    const auto p = [&](int c, int dd) -> M { return A(l, 3 * c + dd); };
                    add_block(sl, 0,
                              [&](int c, int dd, M r) { return elasticity::add_products(mat, p, c, dd, r); });
                    add_block(sl, 1,
                              [&](int c, int dd, M r) { return elasticity::add_products(mat, p, dd, c, r); });
                  },
                  table);
            }
          });
          t.team_barrier();
        }
        if (L >= k0 && L < k1) flush(L);
        if (L == nz - 1 && nz < k1) flush(nz);  // the top plane has no layer above it
        t.team_barrier();
      }
    }
  };

  // `write(slot, value)` receives every value of the pattern (or of its lower triangle) once.
  template <class Exec, class Data, class Op, class Write>
  void launch(const Exec& exec, const Data& d, const Op& op, const Write& write) const {
    using S = typename Data::scalar_type;
    using M = math_type<S, Exec>;
    // Double launches with at most 128 registers a thread (512 threads a block, one block): a 7 x 3
    // tile's 8 warps then fit twice on a multiprocessor and a 7 x 7 tile's 16 warps once. Unbounded,
    // nvcc takes more for double (Kokkos 4 builds did), leaving one 7 x 3 team per multiprocessor.
    // Float stays below the bound unbounded, and the bound's hint made its schedule slower: float
    // launches without it.
    using Bounded = Kokkos::TeamPolicy<Exec, Kokkos::LaunchBounds<max_threads, 1>>;
    using Policy = std::conditional_t<std::is_same_v<S, double>, Bounded, Kokkos::TeamPolicy<Exec>>;
    const BoxTile tl = tile_for<S>(exec);
    if (tl.x < 1 || tl.y < 1 || planes < 1)
      throw InputError(std::string("mapping ") + name + ": tile and planes must be positive");
    const ordinal_t ranges = (d.nz + planes) / planes;  // of the nz + 1 planes of a column
    const int Tx = tl.x, Ty = tl.y, NT = Tx * Ty, P = int((d.nz + ranges) / ranges);
    constexpr int level = Kernel<Exec, Data, Write>::level;
    const std::size_t plane_bytes = std::size_t(2) * NT * row_words * sizeof(S);
    if (team_bytes<S, Exec>(tl) > scratch_limit(exec))
      throw InputError(std::string("mapping ") + name + ": a tile of " + std::to_string(Tx) + " x " +
                       std::to_string(Ty) + " nodes needs " + std::to_string(team_bytes<S, Exec>(tl)) +
                       " bytes of team scratch; this backend allows " + std::to_string(scratch_limit(exec)));
    if (row_words * (Tx + 2) >= 65536)  // BlockSlots' 16-bit offsets
      throw InputError(std::string("mapping ") + name + ": tile x side " + std::to_string(Tx) + " is over " +
                       std::to_string(65536 / row_words - 2));
    const ordinal_t nx = d.nx, ny = d.ny, nz = d.nz;
    const ordinal_t tiles_x = (nx + Tx) / Tx, tiles_y = (ny + Ty) / Ty, chunks = (nz + P) / P;
    const Kernel<Exec, Data, Write> body{
        d, write, {M(op.material.lambda), M(op.material.mu)}, Tx, Ty, NT, P, nx, ny, nz, tiles_x, tiles_y};
    // A team of more than max_threads threads would not launch (double's bound, above).
    if (!lanes::in_turn<Exec> && warps<Exec>(tl) * lanes::width > max_threads)
      throw InputError(std::string("mapping ") + name + ": a tile of " + std::to_string(Tx) + " x " +
                       std::to_string(Ty) + " nodes needs " + std::to_string(warps<Exec>(tl)) +
                       " warps; a team has at most " + std::to_string(max_threads / lanes::width));
    Policy policy(exec, tiles_x * tiles_y * chunks, warps<Exec>(tl), lanes::vector_length<Exec>());
    // Level 0 holds the block slots, the warps' scratch and thread_scratch's alignment slack, and on a
    // GPU the planes.
    policy.set_scratch_size(0,
                            Kokkos::PerTeam((level == 0 ? plane_bytes : 0) + slot_bytes + scratch_alignment),
                            Kokkos::PerThread(warp_bytes<S, Exec>()));
    if (level == 1) policy.set_scratch_size(1, Kokkos::PerTeam(plane_bytes));
    Kokkos::parallel_for(Lower ? "kfem::assemble[symbox-owner]" : "kfem::assemble[box-owner]", policy, body);
  }
};
}  // namespace kfem::mapping
