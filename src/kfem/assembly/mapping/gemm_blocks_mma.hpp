// Mapping `gemm` on the FP64 matrix units (DMMA, m8n8k4): the CUDA path GemmBlocks takes in double
// on sm_80 and newer (A100, H100, H200), for elements of at least one panel of nodes. The product is
// the same, P = Gw^T G over the quadrature points, but a warp-wide mma.sync does 256 FMAs where the
// vector path's thread does one. One team of 8 warps computes one 32 x 32 node tile (96 x 96 entries
// of P in 3D) of one element, tiles on or above the diagonal only; the points stream through team
// scratch 16 at a time as two panels (the tile's row nodes' weighted gradients, its column nodes'
// gradients); each warp owns 8 x 16 nodes, D x 2D accumulator fragments in registers. Afterwards each
// warp stages 8 x 8 node blocks in scratch and turns them into Ke blocks through the operator.
// Portable fallback: GemmBlocks' own team kernel (every other backend, float, small elements).
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
inline constexpr int chunk = 16;  // quadrature points per pass through scratch
inline constexpr int warps = 8;   // 4 x 2 warps over the tile: 8 x 16 nodes each
inline constexpr int team_size = 32 * warps;

// Whether this build runs `gemm` on the matrix units for this space and scalar.
template <class Exec, class S>
constexpr bool available() {
#if defined(KFEM_GEMM_FP64_MMA)
  return std::is_same_v<Exec, Kokkos::Cuda> && std::is_same_v<S, double>;
#else
  return false;
#endif
}
// Elements smaller than a panel would mostly multiply padding: they stay on the vector path.
inline constexpr bool serves(int nsh) {
  return nsh >= panel;
}

template <int D>
struct Layout {
  static constexpr int ld =
      panel * D + 4;                   // panel row stride: the +4 spreads a fragment's rows over the banks
  static constexpr int stage = 8 * D;  // a warp's staged 8 x 8 node block: (8 D)^2 entries
  static constexpr int coords = (6 * D + 3) / 4 * 4;  // room for the vertex coordinates (prisms: 6 vertices)
  static constexpr int geometry = chunk * (1 + D * D);
  static constexpr int panels = 2 * chunk * ld;
  static constexpr int staging = warps * stage * stage;
  static constexpr std::size_t bytes =
      sizeof(double) * (coords + geometry + (panels > staging ? panels : staging));
};
// Team scratch to request: the layout plus room to align its start for the fragment loads.
template <int D>
constexpr std::size_t scratch_bytes() {
  return Layout<D>::bytes + 128;
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
    const ordinal_t e = begin + t.league_rank() / tile_pairs;
    int I = 0, rest = t.league_rank() % tile_pairs;  // tile pair -> (I, J), I <= J
    while (rest >= ntile - I) rest -= ntile - I, ++I;
    const int J = I + rest;
    double* const X = static_cast<double*>(t.team_scratch(0).get_shmem_aligned(std::size_t(L::bytes), 128));
    double* const Wc = X + L::coords;       // chunk x (w det J, J^-1)
    double* const PA = Wc + L::geometry;    // chunk x ld: w det J g of the row nodes
    double* const PB = PA + chunk * L::ld;  // chunk x ld: g of the column nodes
    const int warp = t.team_rank() / 32, lane = t.team_rank() % 32, wr = warp / 2, wc = warp % 2;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, V * D), [&](int i) { X[i] = els.coords(e, i); });

    wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc_f[D][2 * D];
#pragma unroll
    for (int i = 0; i < D; ++i)
#pragma unroll
      for (int j = 0; j < 2 * D; ++j) wmma::fill_fragment(acc_f[i][j], 0.0);
    for (int q0 = 0; q0 < nq; q0 += chunk) {
      const int qn = nq - q0 < chunk ? nq - q0 : chunk;
      t.team_barrier();  // the previous chunk's fragment loads are done
      gemm_panels::geometry<Family>(t, els, X, q0, qn, Wc);
      t.team_barrier();
      // All chunk rows: those past the points are zero, so the last chunk's k-steps of 4 may overrun.
      gemm_panels::gradients<Family>(t, els, Wc, q0, qn, chunk, panel, L::ld, I, J, n, PA, PB);
      t.team_barrier();
      for (int kk = 0; kk < qn; kk += 4) {
        wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::col_major> fa[D];  // A = Gw^T
        wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb[2 * D];
#pragma unroll
        for (int i = 0; i < D; ++i) wmma::load_matrix_sync(fa[i], PA + kk * L::ld + (wr * D + i) * 8, L::ld);
#pragma unroll
        for (int j = 0; j < 2 * D; ++j)
          wmma::load_matrix_sync(fb[j], PB + kk * L::ld + (wc * 2 * D + j) * 8, L::ld);
#pragma unroll
        for (int i = 0; i < D; ++i)
#pragma unroll
          for (int j = 0; j < 2 * D; ++j) wmma::mma_sync(acc_f[i][j], fa[i], fb[j], acc_f[i][j]);
      }
    }
    t.team_barrier();  // the panels are free: each warp stages its blocks there
    double* const s = PA + warp * L::stage * L::stage;
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
  constexpr std::size_t scratch = scratch_bytes<D>();
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
