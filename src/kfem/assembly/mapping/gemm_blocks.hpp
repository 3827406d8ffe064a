// Work mapping `gemm` (beyond banas): with isotropic elasticity every block (a, b) of Ke is a
// combination of the node-pair products A_ab = sum_q w_q det J_q g_a g_b^T, so all of them together
// are one symmetric rank-N_Q product P = Gw^T G of the (N_Q x dim N_sh) matrix of physical gradients
// (Gw: weighted by w det J) with itself, plus the operator's O(N_sh^2) combination. A team computes
// P like a shared-memory GEMM: the output is cut into tiles of tile x tile nodes, only tiles on or
// above the diagonal (P is symmetric: half the work, the mirrored block written from the same
// products); for each tile the points stream through team scratch in chunks, the gradients of the
// tile's row and column nodes computed there once per chunk, and each thread accumulates an M x M
// micro-tile of node pairs in registers (9 FMAs per pair and point; banas' Algorithm 3/4 spend 63 per
// block plus the gradients again for every part). In double on CUDA sm_80+ the product runs on the
// FP64 matrix units instead (gemm_blocks_mma.hpp); this team kernel is the portable path.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>

#include "kfem/assembly/lanes.hpp"
#include "kfem/assembly/mapping/gemm_blocks_mma.hpp"
#include "kfem/assembly/mapping/gemm_panels.hpp"
#include "kfem/assembly/mapping_traits.hpp"
#include "kfem/assembly/target/block.hpp"
#include "kfem/core/error.hpp"
#include "kfem/core/types.hpp"
#include "kfem/fe/operator.hpp"

namespace kfem::mapping {
struct GemmBlocks {
  using layout = Kokkos::LayoutRight;
  static constexpr const char* name = "gemm";
  static constexpr const char* help =
      "the node-pair products as one symmetric GEMM per element in team scratch (in double on CUDA sm_80+: "
      "the FP64 matrix units)";
  static constexpr int chunk = 16;  // quadrature points per pass through scratch

  // Micro-tile: 2 x 2 node pairs per GPU thread (36 accumulators), 4 x 4 on a host thread (the
  // whole team), where the longer strip amortises the per-chunk geometry over more pairs.
  template <class Exec>
  static constexpr int micro() {
    return lanes::in_turn<Exec> ? 4 : 2;
  }
  // Threads per tile side: up to 16 (a 256-thread team), fewer for small elements; 1 on a host.
  template <class Exec>
  static int side(int n) {
    if (lanes::in_turn<Exec>) return 1;
    const int s = (n + micro<Exec>() - 1) / micro<Exec>();
    return s < 16 ? s : 16;
  }
  template <class Exec, class S, int D, int V>
  static std::size_t scratch_bytes(int n) {
    const int tile = side<Exec>(n) * micro<Exec>();
    return sizeof(S) *
           (std::size_t(V) * D + std::size_t(chunk) * (1 + D * D) + 2 * std::size_t(chunk) * tile * D);
  }

  // Whether elements of n nodes and nq points run on the matrix units (gemm_blocks_mma.hpp) here.
  template <class Exec, class S, int D>
  static bool matrix_units(int n, int nq) {
    if constexpr (gemm_mma::available<Exec, S>()) return gemm_mma::serves<Exec, D>(n, nq);
    return false;
  }

  // Flops one element costs here, counted from the code: per tile pair and point the geometry and
  // the gradients of the tile's 2 x tile nodes (2 D^2 each, D more to weight a row node), the
  // tile^2 pairs' products (2 D^2 each, padding included); per block the operator's combination.
  template <class Exec, class S, int D>
  static double executed_flops(int n, int nq, double geometry, double combination) {
    if (matrix_units<Exec, S, D>(n, nq)) return gemm_mma::executed_flops(n, nq, D, geometry, combination);
    const int tile = side<Exec>(n) * micro<Exec>(), ntile = (n + tile - 1) / tile;
    const double pairs = ntile * (ntile + 1) / 2.0;
    const double per_point = geometry + 2.0 * tile * 2 * D * D + tile * D + double(tile) * tile * 2 * D * D;
    return pairs * nq * per_point + double(n) * n * combination;
  }
  struct Parameters {
    int team_size, tile, tile_pairs, chunk;
    std::size_t scratch_bytes;
    const char* unit;
  };
  template <class Exec, class S, int D, int V>
  static Parameters parameters(int n, int nq) {
    if (matrix_units<Exec, S, D>(n, nq)) {
      const int ntile = (n + gemm_mma::panel - 1) / gemm_mma::panel;
      return {gemm_mma::team_size,
              gemm_mma::panel,
              ntile * (ntile + 1) / 2,
              gemm_mma::chunk,
              gemm_mma::scratch_bytes<D>(nq),
              gemm_mma::unit};
    }
    const int tile = side<Exec>(n) * micro<Exec>(), ntile = (n + tile - 1) / tile;
    return {side<Exec>(n) * side<Exec>(n),   tile,    ntile * (ntile + 1) / 2, chunk,
            scratch_bytes<Exec, S, D, V>(n), "vector"};
  }

  // The stage bench's report of the kernel (mapping_traits.hpp), 3D elements of 6 vertices.
  template <class Exec, class S>
  static StageParameters stage_parameters(const StageQuery& q) {
    constexpr int D = 3, V = 6;
    const Parameters g = parameters<Exec, S, D, V>(q.nsh, q.nq);
    StageParameters out;
    out.counts = {{"team_size", g.team_size},
                  {"tile", g.tile},
                  {"tile_pairs", g.tile_pairs},
                  {"chunk", g.chunk},
                  {"scratch_bytes", long(g.scratch_bytes)}};
    out.labels = {{"unit", g.unit}};
    out.executed_flops_per_element =
        executed_flops<Exec, S, D>(q.nsh, q.nq, q.geometry_flops, q.combination_flops);
    return out;
  }

  template <class Exec, class In, class Op, class Adder>
  void launch(const Exec& exec, const In& in, const Op& op, ordinal_t begin, ordinal_t end,
              const Adder& add) const {
    using Elements = typename In::elements_type;
    const Elements& els = in.els;
    const auto& where = in.where;
    using S = typename Elements::scalar_type;
    using F = typename Elements::family;
    using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
    constexpr int D = F::dim, V = F::vertices, G = 1 + D * D, M = micro<Exec>(), Q = chunk;
    if (end <= begin) return;
    const int n = els.ref.num_nodes(), nq = els.ref.num_qp();
    if constexpr (gemm_mma::available<Exec, S>())  // instantiated only where the unit exists
      if (gemm_mma::serves<Exec, D>(n, nq)) return gemm_mma::launch<F>(exec, els, op, where, begin, end, add);
    const int tx_n = side<Exec>(n), tile = tx_n * M, ntile = (n + tile - 1) / tile;
    const int tile_pairs = ntile * (ntile + 1) / 2;
    const std::size_t scratch = scratch_bytes<Exec, S, D, V>(n);
    if (scratch > std::size_t(Kokkos::TeamPolicy<Exec>::scratch_size_max(0)))
      throw InputError("mapping gemm: " + std::to_string(scratch) +
                       " bytes of team scratch exceed the device's " +
                       std::to_string(Kokkos::TeamPolicy<Exec>::scratch_size_max(0)));
    Kokkos::TeamPolicy<Exec> policy(exec, end - begin, tx_n * tx_n);
    Kokkos::parallel_for(
        "kfem::assemble[gemm]", policy.set_scratch_size(0, Kokkos::PerTeam(scratch)),
        KOKKOS_LAMBDA(const Member& t) {
          const ordinal_t e = begin + t.league_rank();
          S* const X = static_cast<S*>(t.team_scratch(0).get_shmem(scratch));
          S* const Wc = X + V * D;          // chunk x (w det J, J^-1)
          S* const GA = Wc + Q * G;         // chunk x tile x D: w det J g of the tile's row nodes
          S* const GB = GA + Q * tile * D;  // chunk x tile x D: g of its column nodes
          const int tid = t.team_rank(), tx = tid % tx_n, ty = tid / tx_n;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(t, V * D), [&](int i) { X[i] = els.coords(e, i); });
          const auto acc = add.access();
          for (int tp = 0; tp < tile_pairs; ++tp) {
            int I = 0, rest = tp;  // tile pair tp -> (I, J), I <= J
            while (rest >= ntile - I) rest -= ntile - I, ++I;
            const int J = I + rest;
            fe::Products<S, D> A[M][M] = {};
            for (int q0 = 0; q0 < nq; q0 += Q) {
              const int qn = nq - q0 < Q ? nq - q0 : Q;
              t.team_barrier();  // the previous chunk's readers are done
              gemm_panels::geometry<F>(t, els, X, q0, qn, Wc);
              t.team_barrier();
              gemm_panels::gradients<F>(t, els, Wc, q0, qn, qn, tile, tile * D, I, J, n, GA, GB);
              t.team_barrier();
              for (int k = 0; k < qn; ++k) {
                S ga[M][D], gb[M][D];
                for (int m = 0; m < M; ++m)
                  for (int d = 0; d < D; ++d) {
                    ga[m][d] = GA[(k * tile + ty * M + m) * D + d];
                    gb[m][d] = GB[(k * tile + tx * M + m) * D + d];
                  }
                for (int mi = 0; mi < M; ++mi)
                  for (int mj = 0; mj < M; ++mj)
                    for (int i = 0; i < D; ++i)
                      for (int j = 0; j < D; ++j) A[mi][mj].v[i][j] += ga[mi][i] * gb[mj][j];
              }
            }
            for (int mi = 0; mi < M; ++mi)
              for (int mj = 0; mj < M; ++mj) {
                const int a = I * tile + ty * M + mi, b = J * tile + tx * M + mj;
                if (a >= n || b >= n) continue;
                gemm_panels::add_pair(where, acc, op, e, a, b, A[mi][mj], I != J);
              }
          }
        });
  }
};
}  // namespace kfem::mapping
