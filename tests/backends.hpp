// The category header: the execution spaces every typed test runs on in this build.
// The one place a test names a backend; tests themselves are written once.
#pragma once
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

namespace kfem::test {
#if defined(KOKKOS_ENABLE_CUDA) && defined(KOKKOS_ENABLE_SERIAL)
using ExecSpaces = ::testing::Types<Kokkos::Cuda, Kokkos::Serial>;
#elif defined(KOKKOS_ENABLE_OPENMP) && defined(KOKKOS_ENABLE_SERIAL)
using ExecSpaces = ::testing::Types<Kokkos::OpenMP, Kokkos::Serial>;
#else
using ExecSpaces = ::testing::Types<Kokkos::DefaultExecutionSpace>;
#endif

// Readable test names: "OpenMP", "Serial", "Cuda".
struct SpaceName {
  template <class T>
  static std::string GetName(int) {
    return T::name();
  }
};
}  // namespace kfem::test
