// A Kokkos Tools library that prints a host timeline of one kfem process: every kernel launch, fence,
// deep copy, allocation and free inside the profiling regions kfem names (ScopedRegion), with its
// start and duration in microseconds. It answers what a stage's fenced time is made of where no
// system profiler is installed (the lent GPU machines have ncu, not nsys). Use:
//   kfem run ... --kokkos-tools-libs=build/openmp/libkfem_timeline.so
// (or the environment: KOKKOS_TOOLS_LIBS with Kokkos 4, KOKKOS_PROFILE_LIBRARY with Kokkos 3.4).
// KFEM_TIMELINE_REGIONS: the region prefix to print inside (default "kfem::setup"). A kernel's end is
// when its launch returned; CUDA_LAUNCH_BLOCKING=1 makes it the kernel's completion.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace {
using Clock = std::chrono::steady_clock;

struct Started {
  std::string what;
  double at = 0;
};

struct Timeline {
  Clock::time_point zero = Clock::now();
  std::string prefix = "kfem::setup";
  std::vector<std::string> regions;
  std::vector<Started> open;  // by event id
  std::uint64_t copy_id = 0;

  double now() const { return std::chrono::duration<double, std::micro>(Clock::now() - zero).count(); }
  bool watched() const {
    for (const std::string& r : regions)
      if (r.compare(0, prefix.size(), prefix) == 0) return true;
    return false;
  }
  std::uint64_t begin(const char* kind, const std::string& name) {
    open.push_back({std::string(kind) + " " + name, now()});
    return open.size() - 1;
  }
  void end(std::uint64_t id) {
    if (id >= open.size() || !watched()) return;
    const Started& s = open[id];
    std::printf("timeline %12.1f us %10.1f us  [%s] %s\n", s.at, now() - s.at, regions.back().c_str(),
                s.what.c_str());
  }
  void mark(const char* what, const std::string& name) {
    if (watched()) std::printf("timeline %12.1f us %13s  %s %s\n", now(), "", what, name.c_str());
  }
};
Timeline* tl = nullptr;
// kfem uploads beside its kernels from a second host thread (core/staging.hpp): one event at a time.
std::mutex one_at_a_time;

// Kokkos passes memory spaces by value as this struct (Kokkos_Profiling_SpaceHandle).
struct SpaceHandle {
  char name[64];
};
}  // namespace

extern "C" {
void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) {
  tl = new Timeline;
  if (const char* p = std::getenv("KFEM_TIMELINE_REGIONS")) tl->prefix = p;
}
void kokkosp_finalize_library() {
  std::fflush(stdout);
  delete tl;
  tl = nullptr;
}
void kokkosp_begin_parallel_for(const char* name, std::uint32_t, std::uint64_t* id) {
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  *id = tl->begin("for", name);
}
void kokkosp_end_parallel_for(std::uint64_t id) {
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  tl->end(id);
}
void kokkosp_begin_parallel_reduce(const char* name, std::uint32_t, std::uint64_t* id) {
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  *id = tl->begin("reduce", name);
}
void kokkosp_end_parallel_reduce(std::uint64_t id) {
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  tl->end(id);
}
void kokkosp_begin_parallel_scan(const char* name, std::uint32_t, std::uint64_t* id) {
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  *id = tl->begin("scan", name);
}
void kokkosp_end_parallel_scan(std::uint64_t id) {
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  tl->end(id);
}
void kokkosp_begin_fence(const char* name, std::uint32_t, std::uint64_t* id) {
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  *id = tl->begin("fence", name);
}
void kokkosp_end_fence(std::uint64_t id) {
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  tl->end(id);
}
void kokkosp_push_profile_region(const char* name) {
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  tl->regions.emplace_back(name);
  tl->mark("region+", name);
}
void kokkosp_pop_profile_region() {
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  if (tl->regions.empty()) return;
  tl->mark("region-", tl->regions.back());
  tl->regions.pop_back();
}
void kokkosp_allocate_data(SpaceHandle space, const char* label, const void*, std::uint64_t bytes) {
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  tl->mark("alloc", std::string(space.name) + " " + label + " " + std::to_string(bytes) + " B");
}
void kokkosp_deallocate_data(SpaceHandle space, const char* label, const void*, std::uint64_t bytes) {
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  tl->mark("free", std::string(space.name) + " " + label + " " + std::to_string(bytes) + " B");
}
void kokkosp_begin_deep_copy(SpaceHandle to, const char* to_label, const void*, SpaceHandle from,
                             const char* from_label, const void*, std::uint64_t bytes) {
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  tl->copy_id = tl->begin("copy", std::string(from.name) + " " + from_label + " -> " + to.name + " " +
                                      to_label + " " + std::to_string(bytes) + " B");
}
void kokkosp_end_deep_copy() {
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  tl->end(tl->copy_id);
}
}
