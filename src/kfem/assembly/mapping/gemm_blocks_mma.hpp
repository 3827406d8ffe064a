// Mapping `gemm` on the FP64 matrix units: the CUDA path GemmBlocks takes in double on sm_80 and
// newer (Ampere, Hopper), for elements of at least one panel of nodes. The product is the same,
// P = Gw^T G over the quadrature points, but a warp-wide mma.sync does 512 FMAs where the vector
// path's thread does one. One team of 8 warps computes one 32 x 32 node tile (96 x 96 entries of P
// in 3D) of one element, tiles on or above the diagonal only. The team first computes w det J and
// J^-1 at every point into scratch (once per tile, all warps sharing the work); then the points
// stream through two scratch buffers 4 at a time as two panels (the tile's row nodes' weighted
// gradients, its column nodes' gradients), software-pipelined: while the warps multiply one buffer's
// panels, each thread's reference gradients for two k-steps on are in flight from memory (two
// register sets, so that the loads hide behind two steps' products, not one), and after the
// products each thread puts one physical gradient into the other buffer. Each warp owns 16 x 8 nodes, D x D
// accumulator fragments of 16 x 8 in registers; afterwards it stages 8 x 8 node blocks in scratch
// and turns them into Ke blocks through the operator. Portable fallback: GemmBlocks' own team kernel
// (other backends, float, elements smaller than a panel).
#pragma once
#include <Kokkos_Core.hpp>
#include <climits>
#include <cstddef>
#include <string>
#include <type_traits>

#include "kfem/assembly/mapping/gemm_panels.hpp"
#include "kfem/assembly/warp_mma.hpp"
#include "kfem/core/error.hpp"
#include "kfem/core/types.hpp"
#include "kfem/fe/operator.hpp"

namespace kfem::mapping::gemm_mma {
inline constexpr int panel = 32;  // nodes per tile side
inline constexpr int warps = 8;   // 2 x 4 warps over the tile: 16 x 8 nodes each
inline constexpr int chunk = 4;   // quadrature points per panel buffer: one k-step of the mma
inline constexpr int team_size = 32 * warps;
static_assert(2 * chunk == warps, "a warp per point and panel of a buffer");

// The instruction, for the bench's parameter table: Hopper's m16n8k4 runs at the full FP64 matrix
// rate; Ampere has only m8n8k4, which Hopper runs at half rate.
#if defined(KOKKOS_ARCH_HOPPER)
inline constexpr const char* unit = "FP64 matrix units (mma m16n8k4)";
#else
inline constexpr const char* unit = "FP64 matrix units (mma m8n8k4 pairs)";
#endif

// Whether this build runs `gemm` on the matrix units for this space and scalar.
template <class Exec, class S>
constexpr bool available() {
#if defined(KFEM_FP64_MMA)
  return std::is_same_v<Exec, Kokkos::Cuda> && std::is_same_v<S, double>;
#else
  return false;
#endif
}

// Team scratch, in doubles: the vertex coordinates, then (w det J, J^-1) at every point and two
// buffers of the two panels; once the products are done, the warps' staged blocks reuse the space after the
// coordinates.
template <int D>
struct Layout {
  // Panel row stride: the +4 puts a fragment's 4 k rows on distinct shared-memory banks.
  static constexpr int ld = panel * D + 4;
  static constexpr int stage = 8 * D;  // a warp's staged 8 x 8 node block: (8 D)^2 entries
  // Room for the vertex coordinates: 6 vertices, as gemm serves prisms only (strategies.hpp).
  static constexpr int coords = (6 * D + 3) / 4 * 4;
  static constexpr int panels = 2 * 2 * chunk * ld;
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
#if defined(KFEM_FP64_MMA) && defined(__CUDA_ARCH__)
    constexpr int G = 1 + D * D;
    const ordinal_t e = begin + t.league_rank() / tile_pairs;
    int I = 0, rest = t.league_rank() % tile_pairs;  // tile pair -> (I, J), I <= J
    while (rest >= ntile - I) rest -= ntile - I, ++I;
    const int J = I + rest;
    double* const X = static_cast<double*>(t.team_scratch(0).get_shmem_aligned(L::bytes(nq), 128));
    double* const Wq = X + L::coords;        // nq x (w det J, J^-1)
    double* const P = Wq + L::geometry(nq);  // buffer u, panel s (0: w det J g of the row nodes, 1: g of the
                                             // column nodes) at (2 u + s) chunk ld
    const int warp = t.team_rank() / 32, lane = t.team_rank() % 32, wr = warp / 4, wc = warp % 4;
    const int g = lane / 4, tq = lane % 4;  // fragment row (column of B) and k index
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, V * D), [&](int i) { X[i] = els.coords(e, i); });
    t.team_barrier();
    gemm_panels::geometry<Family>(t, els, X, 0, nq, Wq);

    // A thread's share of a buffer: point q0 + pk, panel `side`, node `lane` of the tile (zero past
    // the points or the nodes, so the last k-step of 4 may overrun nq).
    const int pk = warp % chunk, side = warp / chunk, node = (side ? J : I) * panel + lane;
    const auto fetch = [&](double(&dsh)[D], int q0) {
      const int q = q0 + pk;
      for (int d = 0; d < D; ++d) dsh[d] = q < nq && node < n ? els.ref.dshape(q, node, d) : 0.0;
    };
    const auto put = [&](const double(&dsh)[D], int q0, int u) {
      const int q = q0 + pk < nq ? q0 + pk : 0;
      double gr[D];
      fe::physical_gradient<D>(reinterpret_cast<const double(*)[D]>(Wq + q * G + 1), dsh, gr);
      const double w = side ? 1.0 : Wq[q * G];
      double* const p = P + (2 * u + side) * chunk * L::ld + pk * L::ld + lane * D;
      for (int d = 0; d < D; ++d) p[d] = w * gr[d];
    };

    // tour: mma-step
    // The warp's rows of P are wr * 16 D + 16 i (+ g, + 8), its columns wc * 8 D + 8 j (+ 2 tq, + 1).
    double c[D][D][4] = {};
    const int row0 = wr * 16 * D + g, col0 = wc * 8 * D + g;
    // One k-step: the products of buffer u's points q0.., then the gradients of the points one step
    // on into the other buffer (from `next`, loaded two steps earlier), then `next` reloaded with
    // the points three steps on. Two register sets alternate, so a load has two steps to arrive.
    const auto step = [&](int q0, int u, double(&next)[D]) {
      const double* pa = P + 2 * u * chunk * L::ld + tq * L::ld + row0;  // A = Gw^T: A[r][k] = PA[k][r]
      const double* pb = pa + chunk * L::ld - row0 + col0;
      double a[D][2], b[D];
#pragma unroll
      for (int i = 0; i < D; ++i) a[i][0] = pa[16 * i], a[i][1] = pa[16 * i + 8];
#pragma unroll
      for (int j = 0; j < D; ++j) b[j] = pb[8 * j];
#pragma unroll
      for (int i = 0; i < D; ++i)
#pragma unroll
        for (int j = 0; j < D; ++j)
          lanes::mma_16x8x4(c[i][j][0], c[i][j][1], c[i][j][2], c[i][j][3], a[i][0], a[i][1], b[j]);
      if (q0 + chunk < nq)
        put(next, q0 + chunk, u ^ 1);  // the other buffer: read by nobody since the last barrier
      if (q0 + 3 * chunk < nq) fetch(next, q0 + 3 * chunk);
      t.team_barrier();
    };
    // tour: end mma-step
    double d0[D], d1[D];
    fetch(d0, 0);
    t.team_barrier();  // the geometry is done
    put(d0, 0, 0);
    fetch(d0, chunk);
    fetch(d1, 2 * chunk);
    t.team_barrier();
    for (int q0 = 0; q0 < nq; q0 += 2 * chunk) {
      step(q0, 0, d0);
      if (q0 + chunk < nq) step(q0 + chunk, 1, d1);
    }
    // The loop's last barrier freed the geometry and panels: each warp stages its blocks there.
    double* const s = Wq + warp * L::stage * L::stage;
    const auto acc = add.access();
#pragma unroll                     // fragment indices must be compile-time constants to stay in registers
    for (int h = 0; h < 2; ++h) {  // the warp's two 8 x 8 node blocks: its rows' halves
      __syncwarp();
#pragma unroll
      for (int i = 0; i < D; ++i)
#pragma unroll
        for (int u = 0; u < 2; ++u) {  // rows 16 i + 8 u + g: the half's row block r8, if in it
          const int r8 = 2 * i + u - h * D;
          if (r8 < 0 || r8 >= D) continue;
#pragma unroll
          for (int j = 0; j < D; ++j)  // 16-byte stores, 4 wavefronts a warp: no bank conflict
            *reinterpret_cast<double2*>(s + (8 * r8 + g) * L::stage + 8 * j + 2 * tq) =
                make_double2(c[i][j][2 * u], c[i][j][2 * u + 1]);
        }
      __syncwarp();
      for (int p = lane; p < 64; p += 32) {
        const int ai = p / 8, bj = p % 8;
        const int a = I * panel + wr * 16 + h * 8 + ai, b = J * panel + wc * 8 + bj;
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
