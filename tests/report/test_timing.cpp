// Fenced timing helpers and the profiling-region RAII wrapper.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "kfem/report/timing.hpp"

TEST(Timing, TimeRepeatedResetsBeforeEveryRun) {
  std::string log;
  const auto samples = kfem::time_repeated(
      Kokkos::DefaultExecutionSpace(), 2, 3, [&] { log += 'R'; }, [&] { log += 'F'; });
  EXPECT_EQ(log, "RFRFRFRFRF");  // 2 warm-ups + 3 timed, each preceded by its reset
  ASSERT_EQ(samples.size(), 3u);
  for (double t : samples) EXPECT_GE(t, 0.0);
}

TEST(Timing, TimeRepeatedWithoutWarmup) {
  int resets = 0, runs = 0;
  const auto samples = kfem::time_repeated(
      Kokkos::DefaultHostExecutionSpace(), 0, 4, [&] { ++resets; }, [&] { ++runs; });
  EXPECT_EQ(samples.size(), 4u);
  EXPECT_EQ(resets, 4);
  EXPECT_EQ(runs, 4);
  EXPECT_THROW(kfem::time_repeated(
                   Kokkos::DefaultExecutionSpace(), -1, 1, [] {}, [] {}),
               std::invalid_argument);
}

TEST(Timing, TimeFencedCountsKernelAndWallTime) {
  const double t = kfem::time_fenced(Kokkos::DefaultExecutionSpace(),
                                     [] { std::this_thread::sleep_for(std::chrono::milliseconds(20)); });
  EXPECT_GE(t, 0.019);
  EXPECT_LT(t, 5.0);

  Kokkos::View<double*> v("v", 1 << 20);
  EXPECT_GE(kfem::time_fenced(Kokkos::DefaultExecutionSpace(), [&] { Kokkos::deep_copy(v, 2.0); }), 0.0);
}

namespace {
std::vector<std::string> g_regions;  // "+name" on push, "-" on pop
void on_push(const char* name) {
  g_regions.push_back(std::string("+") + name);
}
void on_pop() {
  g_regions.emplace_back("-");
}
}  // namespace

TEST(Timing, ScopedRegionPushesAndPops) {
  // Register tool callbacks directly (what a loaded Kokkos Tools library would see).
  Kokkos::Tools::Experimental::set_push_region_callback(on_push);
  Kokkos::Tools::Experimental::set_pop_region_callback(on_pop);
  g_regions.clear();
  {
    kfem::ScopedRegion outer("kfem::outer");
    { kfem::ScopedRegion inner("kfem::inner"); }
  }
  Kokkos::Tools::Experimental::set_push_region_callback(nullptr);
  Kokkos::Tools::Experimental::set_pop_region_callback(nullptr);
  EXPECT_EQ(g_regions, (std::vector<std::string>{"+kfem::outer", "+kfem::inner", "-", "-"}));
}
