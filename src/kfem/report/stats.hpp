// Summary statistics of repeated timings: median is what we report (robust to the odd slow
// run), min/max/mean/stddev show how much to trust it.
#pragma once
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

namespace kfem {
struct Stats {
  double median, min, max, mean, stddev;  // stddev: sample (n - 1) standard deviation, 0 for n == 1
  int count;
};

// Throws std::invalid_argument on an empty sample: a silent NaN would end up in a report.
inline Stats summarize(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("kfem::summarize: no samples");
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  Stats s{};
  s.count = static_cast<int>(n);
  s.min = samples.front();
  s.max = samples.back();
  s.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  double sum = 0;
  for (double x : samples) sum += x;
  s.mean = sum / n;
  double sq = 0;  // two-pass: no cancellation for tightly clustered timings
  for (double x : samples) sq += (x - s.mean) * (x - s.mean);
  s.stddev = n > 1 ? std::sqrt(sq / (n - 1)) : 0.0;
  return s;
}

// Lets `nlohmann::json j = stats;` work in result files.
inline void to_json(nlohmann::json& j, const Stats& s) {
  j = nlohmann::json{{"median", s.median}, {"min", s.min},       {"max", s.max},
                     {"mean", s.mean},     {"stddev", s.stddev}, {"count", s.count}};
}
}  // namespace kfem
