#include "kfem/core/carve.hpp"

#include <gtest/gtest.h>

#include <cstdint>

#include "backends.hpp"

namespace kfem::test {
template <class Exec>
class CarveTest : public ::testing::Test {};
TYPED_TEST_SUITE(CarveTest, ExecSpaces, SpaceName);

// Parts lie in the block in order, each on a 256-byte boundary, none overlapping the next; a block
// handed on is used where it is large enough and not where it is too small.
TYPED_TEST(CarveTest, PartsAreAlignedDisjointAndReuseOnlyWhatFits) {
  using Mem = typename TypeParam::memory_space;
  using C = Carve<Mem>;
  using Words = Kokkos::View<std::int64_t*, Mem>;
  using Rows = Kokkos::View<float* [24], Kokkos::LayoutLeft, Mem>;
  const std::vector<std::size_t> sizes{C::template bytes<Words>(3), C::template bytes<Rows>(5),
                                       C::template bytes<Words>(1000)};
  EXPECT_EQ(sizes[1], 5u * 24 * sizeof(float));
  EXPECT_EQ(C::total(sizes), 256u + 512 + 8192);
  const C c("test", sizes);
  ASSERT_EQ(c.storage.extent(0), C::total(sizes));
  const Words a = c.template part<Words>(0, 3), z = c.template part<Words>(2, 1000);
  const Rows r = c.template part<Rows>(1, 5);
  const auto at = [&](const void* p) { return static_cast<const unsigned char*>(p) - c.storage.data(); };
  EXPECT_EQ(at(a.data()), 0);
  EXPECT_EQ(at(r.data()), 256);
  EXPECT_EQ(at(z.data()), 768);
  EXPECT_EQ(r.extent(0), 5u);
  EXPECT_EQ(at(r.data() + r.span()), 256 + 480);

  const Spare<Mem> spare;
  spare.give(c.storage);
  EXPECT_EQ(spare.bytes(), C::total(sizes));
  const C again("again", {C::template bytes<Words>(10)}, spare.take());
  EXPECT_EQ(again.storage.data(), c.storage.data());  // large enough: the same block
  EXPECT_EQ(spare.bytes(), 0u);                       // taken once
  const C bigger("bigger", {C::template bytes<Words>(2000)}, again.storage);
  EXPECT_NE(bigger.storage.data(), c.storage.data());  // too small: a new one
  EXPECT_EQ(bigger.storage.extent(0), 63u * 256);      // 16,000 bytes, rounded up
}
}  // namespace kfem::test
