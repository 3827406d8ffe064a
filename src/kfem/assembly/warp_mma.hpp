// A warp's FP64 matrix product C += A B, 16 x 8 x 4, in the fragment layout of PTX's m16n8k4:
// with g = lane / 4, t = lane % 4, lane holds a = {A[g][t], A[g + 8][t]}, b = B[t][g] and
// c = {C[g][2t], C[g][2t + 1], C[g + 8][2t], C[g + 8][2t + 1]}. On CUDA sm_80+ it is one mma.sync
// (two m8n8k4 on Ampere, which lacks m16n8k4); where a team member's 32 lanes run in turn (host
// backends, HIP), the same product is computed from the lanes' rows of lanes::Private, so CI checks every
// fragment index a kernel uses.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/assembly/lanes.hpp"

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__) && \
    (defined(KOKKOS_ARCH_AMPERE) || defined(KOKKOS_ARCH_ADA89) || defined(KOKKOS_ARCH_HOPPER))
#define KFEM_FP64_MMA 1
#endif

namespace kfem::lanes {
// Whether team members of Exec can run warp_mma: emulated where lanes run in turn, or CUDA sm_80+.
template <class Exec>
constexpr bool has_fp64_mma() {
#if defined(KFEM_FP64_MMA)
  return true;
#else
  return in_turn<Exec>;
#endif
}

#if defined(KFEM_FP64_MMA) && defined(__CUDA_ARCH__)
__device__ __forceinline__ void mma_16x8x4(double& c0, double& c1, double& c2, double& c3, double a0,
                                           double a1, double b) {
#if __CUDA_ARCH__ >= 900
  asm volatile(
      "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
      : "+d"(c0), "+d"(c1), "+d"(c2), "+d"(c3)
      : "d"(a0), "d"(a1), "d"(b));
#else
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
               : "+d"(c0), "+d"(c1)
               : "d"(a0), "d"(b));
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
               : "+d"(c2), "+d"(c3)
               : "d"(a1), "d"(b));
#endif
}
#endif

// C += A B on per-lane storage: c(lane, c0 .. c0 + 3), a(lane, a0 .. a0 + 1), b(lane, b0). Call it
// where a team member's code runs on all 32 lanes at once (outside vector loops), with offsets that
// unrolling makes compile-time constants, so that the fragments stay in registers on the GPU.
template <int NC, int NA, int NB>
KOKKOS_FORCEINLINE_FUNCTION void warp_mma(Private<double, NC>& c, int c0, const Private<double, NA>& a,
                                          int a0, const Private<double, NB>& b, int b0) {
#if defined(__CUDA_ARCH__)
#if defined(KFEM_FP64_MMA)
  mma_16x8x4(c.v[c0], c.v[c0 + 1], c.v[c0 + 2], c.v[c0 + 3], a.v[a0], a.v[a0 + 1], b.v[b0]);
#else
  Kokkos::abort("kfem: warp_mma needs the FP64 matrix units of CUDA sm_80 or newer");
#endif
#else
  for (int lane = 0; lane < width; ++lane) {
    const int g = lane / 4, t = lane % 4;
    for (int h = 0; h < 2; ++h)
      for (int j = 0; j < 2; ++j) {
        double s = 0;
        for (int k = 0; k < 4; ++k) s += a.v[4 * g + k][a0 + h] * b.v[4 * (2 * t + j) + k][b0];
        c.v[lane][c0 + 2 * h + j] += s;
      }
  }
#endif
}
}  // namespace kfem::lanes
