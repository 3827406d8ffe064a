// Plain host threads for host-side work in builds whose host execution space is serial (a CUDA
// build's): the oracle's products, the upload's staging copies.
#pragma once
#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace kfem {
// Threads to use: the host's hardware threads, at most `cap`, at least 1.
inline int host_threads(int cap) {
  return int(std::max(1u, std::min(unsigned(std::max(cap, 1)), std::thread::hardware_concurrency())));
}

// f(t) on threads t = 0..threads-1 (0 on the caller's); the first exception, by thread, rethrown.
template <class F>
void on_threads(int threads, F f) {
  std::vector<std::exception_ptr> failed(static_cast<std::size_t>(threads));
  const auto guarded = [&](int t) {
    try {
      f(t);
    } catch (...) {
      failed[std::size_t(t)] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(guarded, t);
  guarded(0);
  for (auto& th : pool) th.join();
  for (const auto& e : failed)
    if (e) std::rethrow_exception(e);
}
}  // namespace kfem
