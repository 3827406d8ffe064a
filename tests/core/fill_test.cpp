#include "kfem/core/fill.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "backends.hpp"

namespace kfem::test {
template <class Exec>
class Fill : public ::testing::Test {};
TYPED_TEST_SUITE(Fill, ExecSpaces, SpaceName);

// Every entry zeroed, none past the end touched, for lengths around the 16-per-thread split.
TYPED_TEST(Fill, ZeroesEveryEntryAndNothingElse) {
  using Exec = TypeParam;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const long n : {0L, 1L, 15L, 16L, 17L, 255L, 1000003L}) {
    Kokkos::View<double*, typename Exec::memory_space> all("all", n + 8);
    Kokkos::deep_copy(all, nan);
    const auto v = Kokkos::subview(all, Kokkos::make_pair(0L, n));
    fill_zero(Exec(), v);
    Exec().fence();
    const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), all);
    long zeros = 0;
    for (long i = 0; i < n; ++i) zeros += h(i) == 0.0 ? 1 : 0;
    EXPECT_EQ(zeros, n) << "n = " << n;
    for (long i = n; i < n + 8; ++i) EXPECT_NE(h(i), h(i)) << "entry " << i << " past the end, n = " << n;
  }
}
}  // namespace kfem::test
