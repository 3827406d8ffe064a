// Mapping `gemm` on the FP64 matrix units (DMMA, m8n8k4): the CUDA path GemmBlocks takes in double
// on sm_80 and newer (A100, H100, H200), for elements of at least one panel of nodes. The product is
// the same, P = Gw^T G over the quadrature points, but a warp-wide mma.sync does 256 FMAs where the
// vector path's thread does one. One team of 8 warps computes one 32 x 32 node tile (96 x 96 entries
// of P in 3D) of one element, tiles on or above the diagonal only. The team first computes w det J
// and J^-1 at every point into scratch (once per tile, all warps sharing the work); then the points
// stream through scratch 8 at a time as two panels (the tile's row nodes' weighted gradients, its
// column nodes' gradients), a point per warp and a node per lane. Each warp owns 8 x 16 nodes, D x 2D
// accumulator fragments in registers; afterwards it stages 8 x 8 node blocks in scratch and turns
// them into Ke blocks through the operator. Portable fallback: GemmBlocks' own team kernel (other
// backends, float, elements smaller than a panel).
#pragma once
#include <Kokkos_Core.hpp>
#include <climits>
#include <cstddef>
#include <string>
#include <type_traits>

#include "kfem/assembly/mapping/gemm_panels.hpp"
#include "kfem/core/error.hpp"
#include "kfem/core/types.hpp"
#include "kfem/fe/operator.hpp"

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__) && \
    (defined(KOKKOS_ARCH_AMPERE) || defined(KOKKOS_ARCH_ADA89) || defined(KOKKOS_ARCH_HOPPER))
#include <mma.h>
#define KFEM_GEMM_FP64_MMA 1
#endif

namespace kfem::mapping::gemm_mma {
inline constexpr int panel = 32;  // nodes per tile side
inline constexpr int warps = 8;   // 4 x 2 warps over the tile: 8 x 16 nodes each
inline constexpr int chunk = 8;   // quadrature points per pass through scratch: one per warp
inline constexpr int team_size = 32 * warps;
static_assert(chunk == warps, "a chunk's point per warp");

// Whether this build runs `gemm` on the matrix units for this space and scalar.
template <class Exec, class S>
constexpr bool available() {
#if defined(KFEM_GEMM_FP64_MMA)
  return std::is_same_v<Exec, Kokkos::Cuda> && std::is_same_v<S, double>;
#else
  return false;
#endif
}

// Team scratch, in doubles: the vertex coordinates, then (w det J, J^-1) at every point and the
// two panels; once the products are done, the warps' staged blocks reuse the space after the coordinates.
template <int D>
struct Layout {
  // Panel row stride: the +4 spreads a fragment's rows over the shared-memory banks.
  static constexpr int ld = panel * D + 4;
  static constexpr int stage = 8 * D;  // a warp's staged 8 x 8 node block: (8 D)^2 entries
  // Room for the vertex coordinates: 6 vertices, as gemm serves prisms only (strategies.hpp).
  static constexpr int coords = (6 * D + 3) / 4 * 4;
  static constexpr int panels = 2 * chunk * ld;
  static constexpr int staging = warps * stage * stage;
  // (w det J, J^-1) at nq points, rounded up to 4 doubles: the panels start 32-byte aligned.
  KOKKOS_INLINE_FUNCTION static constexpr int geometry(int nq) { return (nq * (1 + D * D) + 3) / 4 * 4; }
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t bytes(int nq) {
    const int work = geometry(nq) + panels;
    return sizeof(double) * (coords + (work > staging ? work : staging));
  }
};
// Team scratch to request: the layout plus room to align its start for the fragment loads.
template <int D>
constexpr std::size_t scratch_bytes(int nq) {
  return Layout<D>::bytes(nq) + 128;
}
// Elements smaller than a panel would mostly multiply padding, and every point's geometry must fit
// in team scratch: the others stay on the vector path.
template <class Exec, int D>
bool serves(int nsh, int nq) {
  return nsh >= panel && scratch_bytes<D>(nq) <= std::size_t(Kokkos::TeamPolicy<Exec>::scratch_size_max(0));
}

// Flops per element, counted from the code: per tile pair and point the geometry, both panels'
// gradients (2 D^2 each, D more to weight a row node) and the full (32 D)^2 product, padding
// included (the matrix unit multiplies it); per block the operator's combination.
inline double executed_flops(int n, int nq, int D, double geometry, double combination) {
  const int ntile = (n + panel - 1) / panel, nq4 = (nq + 3) / 4 * 4;  // k-steps of 4 points
  const double pairs = ntile * (ntile + 1) / 2.0, width = double(panel) * D;
  const double per_point = geometry + 2.0 * panel * 2 * D * D + panel * D;
  return pairs * (nq * per_point + nq4 * 2.0 * width * width) + double(n) * n * combination;
}

template <class Family, class Elements, class Op, class Target, class Adder, class Member>
struct Kernel {
  static constexpr int D = Family::dim, V = Family::vertices;
  using L = Layout<D>;
  Elements els;
  Op op;
  Target where;
  Adder add;
  ordinal_t begin;
  int n, nq, ntile, tile_pairs;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& t) const {
#if defined(KFEM_GEMM_FP64_MMA) && defined(__CUDA_ARCH__)
    namespace wmma = nvcuda::wmma;
    constexpr int G = 1 + D * D;
    const ordinal_t e = begin + t.league_rank() / tile_pairs;
    int I = 0, rest = t.league_rank() % tile_pairs;  // tile pair -> (I, J), I <= J
    while (rest >= ntile - I) rest -= ntile - I, ++I;
    const int J = I + rest;
    double* const X = static_cast<double*>(t.team_scratch(0).get_shmem_aligned(L::bytes(nq), 128));
    double* const Wq = X + L::coords;         // nq x (w det J, J^-1)
    double* const PA = Wq + L::geometry(nq);  // chunk x ld: w det J g of the row nodes
    double* const PB = PA + chunk * L::ld;    // chunk x ld: g of the column nodes
    const int warp = t.team_rank() / 32, lane = t.team_rank() % 32, wr = warp / 2, wc = warp % 2;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, V * D), [&](int i) { X[i] = els.coords(e, i); });
    t.team_barrier();
    gemm_panels::geometry<Family>(t, els, X, 0, nq, Wq);

    // A thread's share of a chunk's panels: point q0 + warp, node `lane` of the row tile and of the
    // column tile (zero past the points or the nodes, so the last chunk's k-steps of 4 may overrun).
    const int na = I * panel + lane, nb = J * panel + lane;
    const auto put = [&](int q0) {
      const int q = q0 + warp;
      double dna[D], dnb[D];
      for (int d = 0; d < D; ++d) {
        dna[d] = q < nq && na < n ? els.ref.dshape(q, na, d) : 0.0;
        dnb[d] = q < nq && nb < n ? els.ref.dshape(q, nb, d) : 0.0;
      }
      const double* W = Wq + (q < nq ? q : 0) * G;
      const auto Jinv = reinterpret_cast<const double(*)[D]>(W + 1);
      double ga[D], gb[D];
      fe::physical_gradient<D>(Jinv, dna, ga);
      fe::physical_gradient<D>(Jinv, dnb, gb);
      for (int d = 0; d < D; ++d) {
        PA[warp * L::ld + lane * D + d] = W[0] * ga[d];
        PB[warp * L::ld + lane * D + d] = gb[d];
      }
    };

    wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc_f[D][2 * D];
#pragma unroll
    for (int i = 0; i < D; ++i)
#pragma unroll
      for (int j = 0; j < 2 * D; ++j) wmma::fill_fragment(acc_f[i][j], 0.0);
    for (int q0 = 0; q0 < nq; q0 += chunk) {
      t.team_barrier();  // the geometry (first chunk) or the previous chunk's products are done
      put(q0);
      t.team_barrier();
      for (int kk = 0; kk < chunk && q0 + kk < nq; kk += 4) {
        wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::col_major> fa[D];  // A = Gw^T
#pragma unroll
        for (int i = 0; i < D; ++i) wmma::load_matrix_sync(fa[i], PA + kk * L::ld + (wr * D + i) * 8, L::ld);
#pragma unroll
        for (int j = 0; j < 2 * D; ++j) {
          wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
          wmma::load_matrix_sync(fb, PB + kk * L::ld + (wc * 2 * D + j) * 8, L::ld);
#pragma unroll
          for (int i = 0; i < D; ++i) wmma::mma_sync(acc_f[i][j], fa[i], fb, acc_f[i][j]);
        }
      }
    }
    t.team_barrier();  // the geometry and panels are free: each warp stages its blocks there
    double* const s = Wq + warp * L::stage * L::stage;
    const auto acc = add.access();
#pragma unroll                     // fragment indices must be compile-time constants to stay in registers
    for (int h = 0; h < 2; ++h) {  // the warp's two 8 x 8 node blocks
      __syncwarp();
#pragma unroll
      for (int i = 0; i < D; ++i)
#pragma unroll
        for (int j = 0; j < D; ++j)
          wmma::store_matrix_sync(s + i * 8 * L::stage + j * 8, acc_f[i][h * D + j], L::stage,
                                  wmma::mem_row_major);
      __syncwarp();
      for (int p = lane; p < 64; p += 32) {
        const int ai = p / 8, bj = p % 8;
        const int a = I * panel + wr * 8 + ai, b = J * panel + wc * 16 + h * 8 + bj;
        if (a >= n || b >= n) continue;
        fe::Products<double, D> A;
        for (int i = 0; i < D; ++i)
          for (int j = 0; j < D; ++j) A.v[i][j] = s[(ai * D + i) * L::stage + bj * D + j];
        gemm_panels::add_pair(where, acc, op, e, a, b, A, I != J);
      }
    }
#else
    (void)t;
    Kokkos::abort("kfem: the FP64 matrix-unit gemm kernel runs on CUDA sm_80+ only");
#endif
  }
};

// One launch per batch of elements, so that elements x tile pairs stays a valid league size.
template <class Family, class Exec, class Elements, class Op, class Target, class Adder>
void launch(const Exec& exec, const Elements& els, const Op& op, const Target& where, ordinal_t begin,
            ordinal_t end, const Adder& add) {
  using Policy = Kokkos::TeamPolicy<Exec, Kokkos::LaunchBounds<team_size, 2>>;
  using Member = typename Policy::member_type;
  constexpr int D = Family::dim;
  const int n = els.ref.num_nodes(), nq = els.ref.num_qp();
  const int ntile = (n + panel - 1) / panel, tile_pairs = ntile * (ntile + 1) / 2;
  const std::size_t scratch = scratch_bytes<D>(nq);
  if (scratch > std::size_t(Policy::scratch_size_max(0)))
    throw InputError("mapping gemm (matrix units): " + std::to_string(scratch) +
                     " bytes of team scratch exceed the device's " +
                     std::to_string(Policy::scratch_size_max(0)));
  const ordinal_t batch = ordinal_t(INT_MAX / 2 / tile_pairs);
  for (ordinal_t b0 = begin; b0 < end; b0 += batch) {
    const ordinal_t b1 = end - b0 < batch ? end : b0 + batch;
    Kernel<Family, Elements, Op, Target, Adder, Member> k{els, op, where, add, b0, n, nq, ntile, tile_pairs};
    Kokkos::parallel_for(
        "kfem::assemble[gemm:fp64-mma]",
        Policy(exec, int((b1 - b0) * tile_pairs), team_size).set_scratch_size(0, Kokkos::PerTeam(scratch)),
        k);
  }
}
}  // namespace kfem::mapping::gemm_mma
