// The execution spaces this build instantiates kfem's kernels for: the one list of backends. Those
// Kokkos enables, less any that CMake's KFEM_BACKENDS leaves out (KFEM_NO_BACKEND_<SPACE>): CI
// compiles its CUDA build for Cuda alone, since the host spaces' kernels are the host builds' to
// check and cost nvcc a third of its time. KFEM_FOR_EACH_EXEC_SPACE(M) expands to M(Space) for each.
#pragma once
#include <Kokkos_Core.hpp>
#include <tuple>
#include <utility>

#if defined(KOKKOS_ENABLE_SERIAL) && !defined(KFEM_NO_BACKEND_SERIAL)
#define KFEM_IF_SERIAL(M) M(Kokkos::Serial)
#else
#define KFEM_IF_SERIAL(M)
#endif
#if defined(KOKKOS_ENABLE_OPENMP) && !defined(KFEM_NO_BACKEND_OPENMP)
#define KFEM_IF_OPENMP(M) M(Kokkos::OpenMP)
#else
#define KFEM_IF_OPENMP(M)
#endif
#if defined(KOKKOS_ENABLE_CUDA) && !defined(KFEM_NO_BACKEND_CUDA)
#define KFEM_IF_CUDA(M) M(Kokkos::Cuda)
#else
#define KFEM_IF_CUDA(M)
#endif

#if defined(KOKKOS_ENABLE_HIP) && !defined(KFEM_NO_BACKEND_HIP)
#define KFEM_IF_HIP(M) M(Kokkos::HIP)
#else
#define KFEM_IF_HIP(M)
#endif

#define KFEM_FOR_EACH_EXEC_SPACE(M) KFEM_IF_SERIAL(M) KFEM_IF_OPENMP(M) KFEM_IF_CUDA(M) KFEM_IF_HIP(M)

namespace kfem {
template <class Space>
inline constexpr bool enabled_space = false;
#define KFEM_ENABLE_SPACE(S) \
  template <>                \
  inline constexpr bool enabled_space<S> = true;
KFEM_FOR_EACH_EXEC_SPACE(KFEM_ENABLE_SPACE)
#undef KFEM_ENABLE_SPACE
static_assert(enabled_space<Kokkos::DefaultExecutionSpace>,
              "KFEM_BACKENDS must keep Kokkos' default execution space ('--backend default')");

// Whether Exec runs on the host: there a team is a thread that runs its lanes in turn (team shapes
// take one member of one lane) and its vectors reach MPI without staging; on a GPU neither.
template <class Exec>
inline constexpr bool on_host =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible;

// std::tuple<Space...> of the enabled spaces, in the order above (the typed tests' list).
#define KFEM_SPACE_TUPLE(S) , std::declval<std::tuple<S>>()
using EnabledSpaces =
    decltype(std::tuple_cat(std::declval<std::tuple<>>() KFEM_FOR_EACH_EXEC_SPACE(KFEM_SPACE_TUPLE)));
#undef KFEM_SPACE_TUPLE
}  // namespace kfem
