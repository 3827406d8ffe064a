// The execution spaces this build enables, for explicit template instantiation: the one place a
// library file names a backend. KFEM_FOR_EACH_EXEC_SPACE(M) expands to M(Space) for each of them.
#pragma once
#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_SERIAL)
#define KFEM_IF_SERIAL(M) M(Kokkos::Serial)
#else
#define KFEM_IF_SERIAL(M)
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
#define KFEM_IF_OPENMP(M) M(Kokkos::OpenMP)
#else
#define KFEM_IF_OPENMP(M)
#endif
#if defined(KOKKOS_ENABLE_CUDA)
#define KFEM_IF_CUDA(M) M(Kokkos::Cuda)
#else
#define KFEM_IF_CUDA(M)
#endif

#define KFEM_FOR_EACH_EXEC_SPACE(M) KFEM_IF_SERIAL(M) KFEM_IF_OPENMP(M) KFEM_IF_CUDA(M)
