// Timing helpers: named Kokkos Tools regions around every phase, and fenced wall-clock timings
// (kernels launch asynchronously, so a time without fences on both sides measures the launch).
#pragma once
#include <Kokkos_Core.hpp>
#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace kfem {
// RAII push/pop of a Kokkos profiling region, so kernel-timer and space-time-stack tools
// attribute kernels to kfem phases. Regions must nest, hence non-copyable and non-movable.
class ScopedRegion {
 public:
  explicit ScopedRegion(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ~ScopedRegion() { Kokkos::Profiling::popRegion(); }
  ScopedRegion(const ScopedRegion&) = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;
};

// Seconds spent in f(), with exec fenced before (earlier work not counted) and after
// (f's asynchronous kernels counted in full).
template <class Exec, class F>
double time_fenced(const Exec& exec, F&& f) {
  exec.fence();
  const auto t0 = std::chrono::steady_clock::now();
  std::forward<F>(f)();
  exec.fence();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// warmup + reps runs of f(); before each one (warm-up included) reset() restores the input
// state outside the timed interval (e.g. zeroing the values f accumulates into). Returns the
// reps timed samples in run order.
template <class Exec, class Reset, class F>
std::vector<double> time_repeated(const Exec& exec, int warmup, int reps, Reset&& reset, F&& f) {
  if (warmup < 0 || reps < 0) throw std::invalid_argument("kfem::time_repeated: negative count");
  std::vector<double> samples;
  samples.reserve(reps);
  for (int i = 0; i < warmup + reps; ++i) {
    reset();
    exec.fence();  // reset's kernels must not leak into the timed interval
    const double t = time_fenced(exec, f);
    if (i >= warmup) samples.push_back(t);
  }
  return samples;
}
}  // namespace kfem
