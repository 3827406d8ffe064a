// Warp-level building blocks for the team mappings. A team member is one warp-sized group of
// 32 logical lanes (a real warp on CUDA with vector length 32; a sequential loop on host backends).
// Native CUDA code lives here and in warp_mma.hpp; every function has a portable fallback.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/core/exec_spaces.hpp"
#include "kfem/core/simd.hpp"

// Full unrolling where lanes::Private indices must become register names (nvcc's device pass;
// the host compiler has no such pragma).
#if defined(__CUDA_ARCH__)
#define KFEM_UNROLL _Pragma("unroll")
#else
#define KFEM_UNROLL
#endif
// No unrolling, where nvcc's unrolled copies of a loop would hold more values in registers than the
// kernel's occupancy allows.
#if defined(__CUDA_ARCH__)
#define KFEM_NO_UNROLL _Pragma("unroll 1")
#else
#define KFEM_NO_UNROLL
#endif

namespace kfem::lanes {
inline constexpr int width = 32;

// tour: lanes
// Per-lane storage that survives across vector loops. On the GPU each lane is its own CUDA
// thread, so N registers suffice; on host backends the 32 lanes run in turn and need a row each.
template <class S, int N>
struct Private {
#if defined(__CUDA_ARCH__)
  S v[N];
  KOKKOS_FORCEINLINE_FUNCTION S& operator()(int, int k) {
    return v[k];
  }
#else
  S v[width][N];
  KOKKOS_FORCEINLINE_FUNCTION S& operator()(int lane, int k) {
    return v[lane][k];
  }
#endif
};

// Sum over the 8 lanes of an aligned group (lane % 8 = node); every lane of the group gets it.
// Only called where all 32 lanes are converged (inside one ThreadVectorRange over 32 lanes on CUDA).
template <class S>
KOKKOS_FORCEINLINE_FUNCTION S group8_sum(S v) {
#if defined(__CUDA_ARCH__)
  for (int m = 4; m >= 1; m /= 2) v += __shfl_xor_sync(0xffffffffu, v, m, 8);
#endif
  return v;
}
// tour: end lanes

// N scalars that one wide load or store moves (16 bytes at most, aligned to their size): a record of
// scratch read as a whole is one LDS.128 or LDS.64 on a GPU instead of N scalar loads.
template <class S, int N>
struct alignas(N * sizeof(S) < 16 ? N * sizeof(S) : 16) Packed {
  S v[N];
};

// Asks for the cache line holding p in L1 ahead of its load (CUDA; the host's prefetch elsewhere).
KOKKOS_FORCEINLINE_FUNCTION void prefetch(const void* p) {
#if defined(__CUDA_ARCH__)
  asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
#else
  __builtin_prefetch(p);
#endif
}

// f(l) for each lane l < n (n <= 32), then the lanes meet: Kokkos' ThreadVectorRange(t, n). On
// CUDA, where a team member is a full warp (vector length lanes::vector_length), in one pass under a
// constant mask: Kokkos 3.4 loops and builds its mask from blockDim at run time (a MATCH.ANY, REDUX
// and VOTE per loop in the SASS). The freedom lets nvcc keep more values live across the loop: use
// it only where the registers it adds cost no warps per SM.
template <class Member, class F>
KOKKOS_FORCEINLINE_FUNCTION void for_lanes(const Member& t, int n, const F& f) {
#if defined(__CUDA_ARCH__)
  (void)t;
  if (int(threadIdx.x) < n) f(int(threadIdx.x));
  __syncwarp();
#else
  Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, n), f);
#endif
}

// The two forms of a lane loop, for a kernel to pick by what ptxas gives it: Kokkos' loop, or
// for_lanes' one pass, whose fewer instructions can cost registers and with them warps per SM.
struct VectorLoop {
  template <class Member, class F>
  static KOKKOS_FORCEINLINE_FUNCTION void run(const Member& t, int n, const F& f) {
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, n), f);
  }
};
struct OnePass {
  template <class Member, class F>
  static KOKKOS_FORCEINLINE_FUNCTION void run(const Member& t, int n, const F& f) {
    for_lanes(t, n, f);
  }
};

// Value of v held by lane src (all 32 lanes converged).
template <class S>
KOKKOS_FORCEINLINE_FUNCTION S broadcast(S v, int src) {
#if defined(__CUDA_ARCH__)
  return __shfl_sync(0xffffffffu, v, src);
#else
  (void)src;
  return v;
#endif
}

// Value of v held by lane l ^ mask, for lane l (all 32 lanes converged).
template <class S>
KOKKOS_FORCEINLINE_FUNCTION S exchange(S v, int mask) {
#if defined(__CUDA_ARCH__)
  return __shfl_xor_sync(0xffffffffu, v, mask);
#else
  (void)mask;
  return v;
#endif
}

// n / d for 0 <= n, d < 1024. On a GPU by a float quotient: (n + 1/2) / d lies at least 1 / (2d)
// from an integer, far beyond __fdividef's error there; 5 instructions where a run-time int
// division is about 25. Host backends divide.
KOKKOS_FORCEINLINE_FUNCTION int small_quotient(int n, int d) {
#if defined(__CUDA_ARCH__)
  return int(__fdividef(float(n) + 0.5f, float(d)));
#else
  return n / d;
#endif
}

// True where lanes really run in lock step (the native shuffle paths are valid).
KOKKOS_FORCEINLINE_FUNCTION constexpr bool native() {
#if defined(__CUDA_ARCH__)
  return true;
#else
  return false;
#endif
}

// How a team member's 32 logical lanes run on Exec, the one place that says so: as one CUDA warp in
// lock step (vector length 32; the native paths of this file and warp_mma.hpp), or in turn on one
// thread (vector length 1). Host backends run them in turn. So does HIP: AMD's wavefronts hold 64
// lanes, which the native paths (full-warp masks, lane = threadIdx.x, 32-wide shuffles) do not
// address, so a HIP build runs every mapping through the portable path, correct but not tuned for
// AMD (and compiled, not run, until kfem has an AMD GPU to test on).
template <class Exec>
inline constexpr bool in_turn = true;
#if defined(KOKKOS_ENABLE_CUDA)
template <>
inline constexpr bool in_turn<Kokkos::Cuda> = false;
#endif

// Vector length to request for 32 logical lanes: a full warp where they run in lock step, else 1.
template <class Exec>
constexpr int vector_length() {
  return in_turn<Exec> ? 1 : width;
}
}  // namespace kfem::lanes
