#include "kfem/core/sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "backends.hpp"

namespace kfem::test {
template <class Exec>
class Sort : public ::testing::Test {};
TYPED_TEST_SUITE(Sort, ExecSpaces, SpaceName);

namespace {
// n unique keys of key_bits bits, index in the low 20: spread over the range, or crowded into a
// few of the sort's bins (more than 64 in one, the heap sort's case), shuffled.
std::vector<std::uint64_t> keys(std::int64_t n, int key_bits, bool crowded, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> v(static_cast<std::size_t>(n));
  const std::uint64_t top = key_bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << key_bits) - 1;
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint64_t high = rng() & (top >> 20);
    if (crowded && i % 4 != 0) high &= 3;  // three keys in four fall into the lowest bins
    v[std::size_t(i)] = high << 20 | std::uint64_t(i);
  }
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}
}  // namespace

// sort_unique_keys gives the low bits of the keys in std::sort's order, for sizes from one key to
// many bins, keys of 40 to 64 bits, spread or crowded.
TYPED_TEST(Sort, UniqueKeysInOrder) {
  using Exec = TypeParam;
  using Mem = typename Exec::memory_space;
  const std::uint64_t mask = (std::uint64_t(1) << 20) - 1;
  for (const std::int64_t n : {1L, 2L, 3L, 100L, 4097L, 300001L})
    for (const int key_bits : {40, 64})
      for (const bool crowded : {false, true}) {
        const auto h = keys(n, key_bits, crowded, unsigned(n + key_bits));
        Kokkos::View<std::uint64_t*, Mem> d("keys", h.size()), binned("binned", h.size());
        Kokkos::View<offset_t*, Mem> work("work", sort_workspace_words(n));
        Kokkos::View<ordinal_t*, Mem> out("out", h.size());
        Kokkos::deep_copy(d, Kokkos::View<const std::uint64_t*, Kokkos::HostSpace>(h.data(), h.size()));
        sort_unique_keys(Exec(), Kokkos::View<const std::uint64_t*, Mem>(d), key_bits, mask, binned, work,
                         out);
        Exec().fence();
        auto want = h;
        std::sort(want.begin(), want.end());
        const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
        std::int64_t wrong = 0;
        for (std::int64_t i = 0; i < n; ++i) wrong += got(i) != ordinal_t(want[std::size_t(i)] & mask);
        EXPECT_EQ(wrong, 0) << "n " << n << ", " << key_bits << " bits" << (crowded ? ", crowded" : "");
      }
}
}  // namespace kfem::test
