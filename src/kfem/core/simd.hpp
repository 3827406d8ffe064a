// Loops whose iterations are SIMD lanes on CPUs (`omp simd`), for host code shared with GPUs.
#pragma once
#include <Kokkos_Core.hpp>

// A loop over the elements of a batch, one per SIMD lane (host fast paths), and the function that
// holds it. `omp simd` makes the scalars of the loop's body vector registers; the function is kept
// out of line, since g++ 12 ran the loop scalar once it was inlined into a larger kernel (and
// lane-inner loops with arrays as sums keep the sums in memory).
// Without OpenMP (and on a GPU, where a batch has one lane) both are left out. KFEM_LANE_LOOP also
// keeps small fixed-length counter arrays in one vector (sparsity/dof_graph.hpp, positions_in_row).
#if defined(_OPENMP) && !defined(__CUDA_ARCH__)
#define KFEM_LANE_LOOP _Pragma("omp simd")
#define KFEM_LANE_FUNCTION KOKKOS_INLINE_FUNCTION __attribute__((noinline))
#else
#define KFEM_LANE_LOOP
#define KFEM_LANE_FUNCTION KOKKOS_INLINE_FUNCTION
#endif
