// summarize(): median/min/max/mean/stddev of known samples.
#include <gtest/gtest.h>

#include <cmath>

#include "kfem/report/stats.hpp"

TEST(Stats, OddCount) {
  const auto s = kfem::summarize({5.0, 1.0, 3.0});
  EXPECT_EQ(s.count, 3);
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 5.0);
  EXPECT_DOUBLE_EQ(s.mean, 3.0);
  EXPECT_DOUBLE_EQ(s.stddev, 2.0);  // sample stddev: sqrt((4 + 0 + 4) / 2)
}

TEST(Stats, EvenCountMedianIsMeanOfMiddlePair) {
  const auto s = kfem::summarize({4.0, 1.0, 10.0, 2.0});
  EXPECT_EQ(s.count, 4);
  EXPECT_DOUBLE_EQ(s.median, 3.0);  // (2 + 4) / 2
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 10.0);
  EXPECT_DOUBLE_EQ(s.mean, 4.25);
  EXPECT_NEAR(s.stddev, std::sqrt((3.25 * 3.25 + 2.25 * 2.25 + 5.75 * 5.75 + 0.25 * 0.25) / 3), 1e-12);
}

TEST(Stats, SingleSampleHasZeroSpread) {
  const auto s = kfem::summarize({7.5});
  EXPECT_EQ(s.count, 1);
  EXPECT_DOUBLE_EQ(s.median, 7.5);
  EXPECT_DOUBLE_EQ(s.stddev, 0.0);
}

TEST(Stats, EmptyThrows) {
  EXPECT_THROW(kfem::summarize({}), std::invalid_argument);
}

TEST(Stats, ToJson) {
  const nlohmann::json j = kfem::summarize({1.0, 2.0});
  EXPECT_DOUBLE_EQ(j.at("median").get<double>(), 1.5);
  EXPECT_EQ(j.at("count").get<int>(), 2);
  for (const char* k : {"min", "max", "mean", "stddev"}) EXPECT_TRUE(j.contains(k)) << k;
}
