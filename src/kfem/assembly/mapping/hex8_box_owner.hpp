// Work mapping `box-owner` (kfem's own, issue 18): owner computes by columns of nodes, a fast path
// for hex8 meshes with the topology of a structured box (mesh/box_grid_device.hpp; any node numbering).
// A team owns the rows of a tile of Tx x Ty node columns over a range of z planes and sweeps its
// element layers upwards:
//  - per layer the (Tx + 1) (Ty + 1) elements around the tile, in 4 phases of the elements' (i, j)
//    parity: no two elements of a phase share a node, so the adds to team scratch need no atomics.
//    The ring around the tile is computed again by the neighbouring tiles: (Tx + 1) (Ty + 1) /
//    (Tx Ty) of the element work (1.52x at 7 x 3, 1.78x at 3 x 3), where the per-node `owner`
//    pays 8x;
//  - the element math is Hex8PairsMma's (one warp per element, the node-pair products on the FP64
//    matrix units); each lane adds the blocks of its row node where the team owns that node;
//  - team scratch holds the rows of two node planes, 27 neighbour blocks per node. After layer L
//    plane L has all its elements: its rows go out once, as runs of 3 x 3k values per node (one run
//    per tile row in the natural numbering), and its scratch takes plane L + 2.
// No zeroing pass, no atomics, no colouring, and every value is summed in the same order on every
// run: bitwise deterministic (race `none`). The values leave the GPU once: the write floor.
#pragma once
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

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
  Kokkos::View<offset_t*, Mem> dof_rows;
};

// The place table of a grid on exec: each point's neighbours in the order of their node ids (an
// insertion sort of at most 27 in each thread).
template <class Exec, class Mem>
Kokkos::View<std::int8_t* [28], Kokkos::LayoutRight, Mem> box_row_places(
    const Exec& exec, const Kokkos::View<ordinal_t*, Mem>& node, ordinal_t nx, ordinal_t ny, ordinal_t nz) {
  const std::int64_t px = nx + 1, py = ny + 1, pz = nz + 1;
  Kokkos::View<std::int8_t* [28], Kokkos::LayoutRight, Mem> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::box_places"), px * py * pz);
  Kokkos::parallel_for(
      "kfem::box_places", Kokkos::RangePolicy<Exec>(exec, 0, px * py * pz),
      KOKKOS_LAMBDA(const std::int64_t g) {
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
      });
  return out;
}

template <class S, class Exec>
Hex8BoxOwnerData<S, typename Exec::memory_space> make_hex8_box_owner_data(const Exec& exec,
                                                                          const Problem<Exec>& p) {
  DeviceBoxGrid<typename Exec::memory_space> g;
  try {
    g = box_grid(exec, p.mesh.conn, p.mesh.num_nodes, [&] { return to_host(p.mesh, CellType::hex8); });
  } catch (const InputError& e) {
    throw InputError(std::string("mapping box-owner: ") + e.what() + " (use owner or pairs)");
  }
  Hex8BoxOwnerData<S, typename Exec::memory_space> d;
  d.nx = g.nx, d.ny = g.ny, d.nz = g.nz;
  d.node = g.node;
  d.place = box_row_places(exec, d.node, g.nx, g.ny, g.nz);
  d.dof_rows = p.graph.dof.row_map;
  const auto cells = g.element;
  d.coords = decltype(d.coords)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::box_coords"),
                                cells.extent(0));
  const auto out = d.coords;
  const auto conn = p.mesh.conn;
  const auto xyz = p.mesh.coords;
  // One thread per (cell, node): neighbouring threads write neighbouring coordinates.
  Kokkos::parallel_for(
      "kfem::box_owner_data",
      Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, std::int64_t(cells.extent(0)) * 8),
      KOKKOS_LAMBDA(std::int64_t i) {
        const ordinal_t c = ordinal_t(i / 8), e = cells(c);
        const int a = int(i % 8);
        for (int j = 0; j < 3; ++j) out(c, 3 * a + j) = S(xyz(conn(e, a), j) - xyz(conn(e, 0), j));
      });
  exec.fence();
  return d;
}

// Node columns per tile side, x and y.
struct BoxTile {
  int x = 0, y = 0;
};

struct Hex8BoxOwner {
  static constexpr const char* name = "box-owner";
  static constexpr const char* help =
      "structured box meshes: teams own columns of nodes, node-pair products on the FP64 matrix units, each "
      "value written once (CUDA "
      "sm_80+)";
  static constexpr bool owner_computes = true;
  // The tile; 0 (default): tile_for's choice. Odd sides give four equal phases of
  // (x + 1) (y + 1) / 4 elements, one per warp.
  BoxTile tile;
  // Node planes per team at most, spread evenly over the teams of a column (mesh4's 129 planes:
  // 5 ranges of 26): every team but the lowest computes the element layer below its range again
  // (tile 3 x 3 on the H200, mesh4, uneven ranges: 32 planes 7.21 ms, 16: 7.29, 64: 7.35).
  int planes = 32;

  // Per warp, in doubles: coordinates X (24) and monomial coefficients C (24). Per team: two
  // planes of row blocks.
  static constexpr int x_at = 0, c_at = 24;
  static constexpr int warp_words = 48;
  static constexpr int row_words = 243;  // 3 rows x 27 neighbours x 3 components

  template <class Exec>
  static int warps(BoxTile t) {
    return lanes::on_host<Exec> ? 1 : ((t.x + 1) * (t.y + 1) + 3) / 4;
  }
  // Team scratch of a tile: two planes of rows, and each warp's X and C.
  template <class S, class Exec>
  static std::size_t team_bytes(BoxTile t) {
    return std::size_t(2) * t.x * t.y * row_words * sizeof(S) +
           std::size_t(warps<Exec>(t)) * warp_words * sizeof(double);
  }
  // Shared memory on a GPU (beyond 48 KB where the Kokkos build lets the kernel opt in); host
  // backends take the planes from level 1, the same memory there, which caps them less.
  template <class Exec>
  static std::size_t scratch_limit(const Exec& exec) {
    return lanes::on_host<Exec> ? std::size_t(Kokkos::TeamPolicy<Exec>::scratch_size_max(1))
                                : kokkos_compat::team_scratch_max(exec);
  }
  // 7 x 3 where it fits (84 KB in double: host backends, and CUDA where Kokkos lets the kernel opt
  // in to more than 48 KB), else 3 x 3 (37 KB). 7 x 3's eight warps leave room for two teams per
  // SM. On an H100 (reports/runs/2026-11-27-hopper-box-owner-tiles) 7 x 3 beat 3 x 3 by 2-10 % in
  // double on meshes 1, 3 and 4 (1-2 % slower on mesh2) and by 5-14 % in float; 7 x 7 and 5 x 5
  // were slower (one team per SM, whose warps meet every phase at once: mesh4 7.81 against 7.26 ms).
  template <class S, class Exec>
  BoxTile tile_for(const Exec& exec) const {
    if (tile.x > 0 && tile.y > 0) return tile;
    if (team_bytes<S, Exec>(BoxTile{7, 3}) <= scratch_limit(exec)) return BoxTile{7, 3};
    return BoxTile{3, 3};
  }

  template <class S, class Exec>
  static auto make_data(const Exec& exec, const Problem<Exec>& p) {
    return make_hex8_box_owner_data<S>(exec, p);
  }
  // The grid's node and place tables, per element.
  template <class Data>
  static double index_bytes_per_element(const Data& d) {
    const double cells = double(d.nx) * d.ny * d.nz;
    return cells > 0 ? double(d.node.extent(0)) * (sizeof(ordinal_t) + 28) / cells : 0.0;
  }

  // `write(slot, value)` receives every value of the pattern once.
  template <class Exec, class Data, class Op, class Write>
  void launch(const Exec& exec, const Data& d, const Op& op, const Write& write) const {
    using S = typename Data::scalar_type;
    const Isotropic<S> m = op.material;
    using Policy = Kokkos::TeamPolicy<Exec>;
    using Member = typename Policy::member_type;
    using Kokkos::ThreadVectorRange;
    if constexpr (!lanes::has_fp64_mma<Exec>())
      throw InputError(std::string("mapping box-owner on ") + Exec::name() +
                       ": needs the FP64 matrix units of CUDA sm_80 or newer (use owner)");
    const BoxTile tl = tile_for<S>(exec);
    if (tl.x < 1 || tl.y < 1 || planes < 1)
      throw InputError("mapping box-owner: tile and planes must be positive");
    const ordinal_t ranges = (d.nz + planes) / planes;  // of the nz + 1 planes of a column
    const int Tx = tl.x, Ty = tl.y, NT = Tx * Ty, P = int((d.nz + ranges) / ranges);
    constexpr int level = lanes::on_host<Exec> ? 1 : 0;
    const std::size_t plane_bytes = std::size_t(2) * NT * row_words * sizeof(S);
    if (team_bytes<S, Exec>(tl) > scratch_limit(exec))
      throw InputError("mapping box-owner: a tile of " + std::to_string(Tx) + " x " + std::to_string(Ty) +
                       " nodes needs " + std::to_string(team_bytes<S, Exec>(tl)) +
                       " bytes of team scratch; this backend allows " + std::to_string(scratch_limit(exec)));
    const ordinal_t nx = d.nx, ny = d.ny, nz = d.nz;
    const ordinal_t tiles_x = (nx + Tx) / Tx, tiles_y = (ny + Ty) / Ty, chunks = (nz + P) / P;
    const Isotropic<double> md{double(m.lambda), double(m.mu)};
    const auto body = KOKKOS_LAMBDA(const Member& t) {
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
      double* const W = thread_scratch<double>(t, warp_words);
      double* const X = W + x_at;
      double* const C = W + c_at;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 2 * NT), [&](int s) {
        Kokkos::parallel_for(ThreadVectorRange(t, row_words), [&](int w) { R[row_words * s + w] = S(0); });
      });
      t.team_barrier();
      // Plane k's rows out, then zeroed for plane k + 2.
      const auto flush = [&](ordinal_t k) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(t, NT), [&](int s) {
          const ordinal_t i = i0 + s % Tx, j = j0 + s / Tx;
          if (i >= i1 || j >= j1) return;
          S* const row = R + row_words * (NT * (k % 2) + s);
          const ordinal_t gp = i + (nx + 1) * (j + (ny + 1) * k);
          const slot_t start = d.dof_rows(3 * slot_t(d.node(gp)));  // rows 3n .. 3n + 2 follow each other
          const slot_t width = 3 * slot_t(d.place(gp, 27));
          Kokkos::parallel_for(ThreadVectorRange(t, row_words), [&](int w) {
            const int at = d.place(gp, w % 81 / 3);
            if (at >= 0) write(start + width * (w / 81) + 3 * at + w % 3, row[w]);
            row[w] = S(0);
          });
        });
      };
      for (ordinal_t L = L0; L <= L1; ++L) {
        for (int phase = 0; phase < 4; ++phase) {
          // Cells of parity (phase & 1, phase >> 1) in the tile's range: no two share a node.
          const ordinal_t fx = ex0 + ((ex0 & 1) != (phase & 1)), fy = ey0 + ((ey0 & 1) != (phase >> 1));
          const ordinal_t cx = fx <= ex1 ? (ex1 - fx) / 2 + 1 : 0, cy = fy <= ey1 ? (ey1 - fy) / 2 + 1 : 0;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(t, cx * cy), [&](ordinal_t n) {
            const ordinal_t ei = fx + 2 * (n % cx), ej = fy + 2 * (n / cx);
            const ordinal_t cell = ei + nx * (ej + ny * L);
            Kokkos::parallel_for(ThreadVectorRange(t, 24), [&](int w) { X[w] = double(d.coords(cell, w)); });
            // The warp's cell in the next phase (the same n, where the phases have as many cells):
            // its coordinates head for L1 while this one computes.
            Kokkos::parallel_for(ThreadVectorRange(t, 2), [&](int w) {
              const int q = (phase + 1) % 4;
              const ordinal_t ni = ei + ((ex0 & 1) != (q & 1)) - ((ex0 & 1) != (phase & 1)),
                              nj = ej + ((ey0 & 1) != (q >> 1)) - ((ey0 & 1) != (phase >> 1)),
                              nL = L + (q == 0);
              if (ni <= ex1 && nj <= ey1 && nL <= L1)
                lanes::prefetch(&d.coords(ni + nx * (nj + ny * nL), 16 * w));
            });
            lanes::Private<double, 24> Tp;
            pair_products_mma(t, X, C, Tp);
            Kokkos::parallel_for(ThreadVectorRange(t, lanes::width), [&](int l) {
              const int a = l / 4;  // the row node: the lane adds its blocks (a, 2 (l % 4) + j)
              const int ax = hex8::corner(a, 0), ay = hex8::corner(a, 1), az = hex8::corner(a, 2);
              const ordinal_t i = ei + ax, j = ej + ay, k = L + az;
              if (i < i0 || i >= i1 || j < j0 || j >= j1 || k < k0 || k >= k1) return;
              S* const row = R + row_words * (NT * (k % 2) + (i - i0) + Tx * (j - j0));
              KFEM_UNROLL
              for (int jb = 0; jb < 2; ++jb) {
                const int b = 2 * (l % 4) + jb;
                const int o = hex8::corner(b, 0) - ax + 1 + 3 * (hex8::corner(b, 1) - ay + 1) +
                              9 * (hex8::corner(b, 2) - az + 1);
                const auto p = [&](int c, int dd) -> double { return Tp(l, pair_product(c, dd, jb)); };
                KFEM_UNROLL
                for (int q = 0; q < 9; ++q)
                  row[81 * (q / 3) + 3 * o + q % 3] += S(elasticity::from_products(md, p, q / 3, q % 3));
              }
            });
          });
          t.team_barrier();
        }
        if (L >= k0 && L < k1) flush(L);
        if (L == nz - 1 && nz < k1) flush(nz);  // the top plane has no layer above it
        t.team_barrier();
      }
    };
    // A 128 x 5 launch bound at tile 3 (96 registers, 76 bytes spilled) gave 5 teams per SM instead
    // of 4 and ran 1.3 % slower on the H200 (reports/runs/2026-11-26-h200-hex8-box-owner).
    Policy policy(exec, tiles_x * tiles_y * chunks, warps<Exec>(tl), lanes::vector_length<Exec>());
    Kokkos::parallel_for("kfem::assemble[box-owner]",
                         policy.set_scratch_size(level, Kokkos::PerTeam(plane_bytes))
                             .set_scratch_size(0, Kokkos::PerThread(warp_words * sizeof(double))),
                         body);
  }
};
}  // namespace kfem::mapping
