// The category header: the execution spaces every typed test runs on in this build, those the
// library instantiates its kernels for (core/exec_spaces.hpp). The one place a test names a
// backend; tests themselves are written once.
#pragma once
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <tuple>

#include "kfem/core/exec_spaces.hpp"

namespace kfem::test {
template <class Tuple>
struct AsTypes;
template <class... Spaces>
struct AsTypes<std::tuple<Spaces...>> {
  using type = ::testing::Types<Spaces...>;
};
using ExecSpaces = typename AsTypes<EnabledSpaces>::type;

// Readable test names: "OpenMP", "Serial", "Cuda".
struct SpaceName {
  template <class T>
  static std::string GetName(int) {
    return T::name();
  }
};
}  // namespace kfem::test
