#include "kfem/core/staging.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "backends.hpp"

namespace kfem::test {
template <class Exec>
class Staging : public ::testing::Test {};
TYPED_TEST_SUITE(Staging, ExecSpaces, SpaceName);

namespace {
constexpr std::size_t chunk = std::size_t{2} << 20;  // the ring's chunk (core/staging.cpp)

std::vector<std::uint32_t> pattern(std::size_t n, std::uint32_t seed) {
  std::vector<std::uint32_t> v(n);
  std::uint32_t x = seed * 2654435761u + 1;
  for (auto& e : v) e = x = x * 1664525u + 1013904223u;
  return v;
}
}  // namespace

// Every byte arrives, in order, for parts of a few bytes up to more than the ring (16 chunks),
// across chunk edges and several parts in one upload; the same by plain copies and through the ring
// (which host backends take only when asked: here, so the ring's logic runs in every build).
TYPED_TEST(Staging, UploadsEveryByteOfEveryPart) {
  using Exec = TypeParam;
  using Mem = typename Exec::memory_space;
  const std::size_t words = chunk / 4;
  const std::vector<std::size_t> sizes{0,     1,         1000,          words - 1,
                                       words, words + 1, 3 * words + 7, 21 * words + 12345};
  for (const bool ring : {false, true}) {
    std::vector<std::vector<std::uint32_t>> host;
    std::vector<Kokkos::View<std::uint32_t*, Mem>> dev;
    std::vector<HostUpload> parts;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      host.push_back(pattern(sizes[i], std::uint32_t(i)));
      dev.emplace_back("dev", sizes[i]);
      parts.push_back(host_upload(dev.back(), host.back().data(), sizes[i]));
    }
    upload(Exec(), parts, ring);
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const auto back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dev[i]);
      std::size_t wrong = 0;
      for (std::size_t k = 0; k < sizes[i]; ++k) wrong += back(k) != host[i][k];
      EXPECT_EQ(wrong, 0u) << "part " << i << " of " << sizes[i] << " words, ring " << ring;
    }
  }
  EXPECT_EQ(reserve_staging<Exec>(), 0.0);  // the ring is there from the first upload on
}

TYPED_TEST(Staging, ToDeviceCopiesAVector) {
  using Exec = TypeParam;
  const auto v = pattern(3 * chunk / 4 + 5, 7);
  const auto d = to_device(Exec(), v, "v");
  const auto back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  ASSERT_EQ(back.extent(0), v.size());
  for (std::size_t k = 0; k < v.size(); ++k) ASSERT_EQ(back(k), v[k]) << k;
}

// An upload beside work on exec: every byte is there after wait(), while exec ran a kernel of its
// own meanwhile (on CUDA the two share the device; elsewhere the copy is made at once).
TYPED_TEST(Staging, UploadsBesideAKernel) {
  using Exec = TypeParam;
  using Mem = typename Exec::memory_space;
  const auto v = pattern(5 * chunk / 4 + 3, 11);
  Kokkos::View<std::uint32_t*, Mem> d("d", v.size()), busy("busy", std::size_t{1} << 22);
  UploadBeside<Exec> beside(Exec(), {host_upload(d, v.data(), v.size())});
  Kokkos::deep_copy(Exec(), busy, 7u);
  EXPECT_GE(beside.wait(), 0.0);
  const auto back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < v.size(); ++k) wrong += back(k) != v[k];
  EXPECT_EQ(wrong, 0u);
  EXPECT_NO_THROW(beside.wait());  // a second wait has nothing left to wait for
}

TYPED_TEST(Staging, RefusesAViewOfAnotherSize) {
  using Exec = TypeParam;
  Kokkos::View<std::uint32_t*, typename Exec::memory_space> d("d", 10);
  const std::vector<std::uint32_t> v(11);
  EXPECT_THROW(host_upload(d, v.data(), v.size()), std::logic_error);
}
}  // namespace kfem::test
