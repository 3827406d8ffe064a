// Run context: build identity, Kokkos configuration, device, hwloc host topology, environment.
#include "kfem/report/context.hpp"

#include <fmt/format.h>
#include <hwloc.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "kfem/build_info.hpp"
#include "kfem/core/kokkos_compat.hpp"
#include "kfem/core/staging.hpp"
#include "kfem/report/stats.hpp"
#include "kfem/report/timing.hpp"

extern char** environ;

namespace kfem {
namespace {
std::string cpu_model_from_proc() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? std::string() : line.substr(start);
  }
  return {};
}

std::string plural(int n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

std::vector<std::string> enabled_backends() {
  std::vector<std::string> b;
#ifdef KOKKOS_ENABLE_SERIAL
  b.emplace_back("Serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  b.emplace_back("OpenMP");
#endif
#ifdef KOKKOS_ENABLE_THREADS
  b.emplace_back("Threads");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  b.emplace_back("Cuda");
#endif
#ifdef KOKKOS_ENABLE_HIP
  b.emplace_back("HIP");
#endif
  return b;
}

std::string utc_now_iso8601() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string hostname() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

nlohmann::json environment() {
  auto env = nlohmann::json::object();
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    if (kv.rfind("OMP_", 0) != 0 && kv.rfind("KOKKOS_", 0) != 0) continue;
    const auto eq = kv.find('=');
    if (eq == std::string::npos) continue;
    env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return env;
}

nlohmann::json device_json(const std::optional<DeviceInfo>& d) {
  if (!d) return nullptr;
  return {{"name", d->name},
          {"id", d->id},
          {"pci_bus_id", d->pci_bus_id},
          {"sm_count", d->sm_count},
          {"memory_gib", d->memory_gib},
          {"sm_clock_mhz", d->sm_clock_mhz},
          {"mem_clock_mhz", d->mem_clock_mhz},
          {"compute_capability", fmt::format("{}.{}", d->cc_major, d->cc_minor)},
          {"l2_mib", d->l2_mib},
          {"memory_bus_bits", d->memory_bus_bits},
          {"peak_bandwidth_gbs", d->peak_bandwidth_gbs()},
          {"free_bytes", d->free_bytes},
          {"peak_gflops",
           {{"fp32_vector", d->peak_fp32_gflops()},
            {"fp64_vector", d->peak_fp64_gflops()},
            {"fp64_matrix", d->peak_fp64_matrix_gflops()},
            {"basis", "SMs x FMA lanes per SM x 2 x peak SM clock"}}}};
}
}  // namespace

double measure_copy_bandwidth() {
  ScopedRegion region("kfem::measure_copy_bandwidth");
  using Exec = Kokkos::DefaultExecutionSpace;
  using View = Kokkos::View<double*, Exec::memory_space>;
  constexpr std::size_t bytes = std::size_t{256} << 20;  // well beyond GPU L2 and typical CPU L3
  constexpr int warmup = 2, max_reps = 10, min_reps = 3;
  constexpr double budget_s = 0.2;
  const Exec exec;
  // src is initialized, so its pages exist before timing; dst's page faults land in the warm-ups.
  View src("kfem::bandwidth_src", bytes / sizeof(double));
  View dst(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::bandwidth_dst"), bytes / sizeof(double));
  auto copy = [&] { Kokkos::deep_copy(exec, dst, src); };
  for (int i = 0; i < warmup; ++i) time_fenced(exec, copy);
  // A GPU or a server CPU always gets all 10 samples; a small host, whose copies are slow, stops at
  // the budget, so `kfem info` stays well under a second.
  std::vector<double> samples;
  double total = 0;
  while (static_cast<int>(samples.size()) < max_reps &&
         (static_cast<int>(samples.size()) < min_reps || total < budget_s)) {
    samples.push_back(time_fenced(exec, copy));
    total += samples.back();
  }
  return 2.0 * bytes / summarize(samples).median / 1e9;
}

std::optional<UploadBandwidth> measure_upload_bandwidth() {
  using Exec = Kokkos::DefaultExecutionSpace;
  using Mem = Exec::memory_space;
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible) {
    return std::nullopt;
  } else {
    ScopedRegion region("kfem::measure_upload_bandwidth");
    constexpr std::size_t n = (std::size_t{64} << 20) / sizeof(double);
    const Exec exec;
    Kokkos::View<double*, Mem> dst(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::upload_dst"), n);
    const auto gbs = [&](const auto& src, auto copy) {
      Kokkos::deep_copy(src, 1.0);  // the pages exist before timing
      std::vector<double> samples;
      for (int i = 0; i < 6; ++i) samples.push_back(time_fenced(exec, [&] { copy(src); }));
      samples.erase(samples.begin());  // the warm-up
      return double(n * sizeof(double)) / summarize(samples).median / 1e9;
    };
    const auto deep_copy = [&](const auto& src) { Kokkos::deep_copy(exec, dst, src); };
    const Kokkos::View<double*, Kokkos::HostSpace> pageable("kfem::upload_pageable", n);
    UploadBandwidth b;
    b.pageable_gbs = gbs(pageable, deep_copy);
    b.staged_gbs = gbs(Kokkos::View<double*, HostStaging<Exec>::space>("kfem::upload_staged", n), deep_copy);
    b.ring_gbs = gbs(pageable, [&](const auto& src) { upload(exec, {host_upload(dst, src.data(), n)}); });
    return b;
  }
}

HostTopology host_topology() {
  HostTopology h;
  hwloc_topology_t topo;
  bool loaded = false;
  if (hwloc_topology_init(&topo) == 0) {
    if (hwloc_topology_load(topo) == 0) {
      loaded = true;
      // -1 means "at several depths"; none of these types is, but do not report a negative count.
      auto count = [&](hwloc_obj_type_t t) { return std::max(0, hwloc_get_nbobjs_by_type(topo, t)); };
      h.packages = count(HWLOC_OBJ_PACKAGE);
      h.cores = count(HWLOC_OBJ_CORE);
      h.pus = count(HWLOC_OBJ_PU);
      h.numa_nodes = count(HWLOC_OBJ_NUMANODE);
      if (hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0)) {
        if (const char* m = hwloc_obj_get_info_by_name(pkg, "CPUModel")) h.cpu_model = m;
      }
    }
    hwloc_topology_destroy(topo);
  }
  // /proc/cpuinfo is the reference on Linux x86; hwloc's CPUModel covers other systems.
  if (auto m = cpu_model_from_proc(); !m.empty()) h.cpu_model = m;
  if (h.cpu_model.empty()) h.cpu_model = "unknown";
  if (!loaded) {  // keep the counts usable even without hwloc
    h.pus = static_cast<int>(std::thread::hardware_concurrency());
    h.cores = h.pus;
    h.summary = fmt::format("hwloc unavailable; {}", plural(h.pus, "hardware thread"));
    return h;
  }
  h.summary = fmt::format("{}, {}, {}, {}", plural(h.packages, "package"), plural(h.cores, "core"),
                          plural(h.pus, "PU"), plural(h.numa_nodes, "NUMA node"));
  return h;
}

nlohmann::json run_context(bool measure_bandwidth) {
  if (!Kokkos::is_initialized()) throw std::logic_error("kfem::run_context: Kokkos is not initialized");
  ScopedRegion region("kfem::run_context");
  nlohmann::json ctx;
  ctx["kfem"] = {{"version", build_info::version},     {"git_revision", build_info::git_revision},
                 {"git_dirty", build_info::git_dirty}, {"build_type", build_info::build_type},
                 {"compiler", build_info::compiler},   {"flags", build_info::flags}};

  std::ostringstream config;
  Kokkos::print_configuration(config, true);
  ctx["kokkos"] = {{"version", kokkos_compat::version_string()},
                   {"version_number", KOKKOS_VERSION},
                   {"backends", enabled_backends()},
                   {"default_execution_space", Kokkos::DefaultExecutionSpace::name()},
                   {"default_host_execution_space", Kokkos::DefaultHostExecutionSpace::name()},
                   {"host_concurrency", Kokkos::DefaultHostExecutionSpace().concurrency()},
                   {"configuration", config.str()}};

  ctx["device"] = device_json(device_info());
  ctx["copy_bandwidth_gbs"] =
      measure_bandwidth ? nlohmann::json(measure_copy_bandwidth()) : nlohmann::json(nullptr);
  ctx["upload_bandwidth_gbs"] = nullptr;
  if (measure_bandwidth)
    if (const auto up = measure_upload_bandwidth())
      ctx["upload_bandwidth_gbs"] = {
          {"pageable", up->pageable_gbs}, {"staged", up->staged_gbs}, {"ring", up->ring_gbs}};

  const HostTopology topo = host_topology();
  ctx["host"] = {{"hostname", hostname()},    {"cpu_model", topo.cpu_model},
                 {"packages", topo.packages}, {"cores", topo.cores},
                 {"pus", topo.pus},           {"numa_nodes", topo.numa_nodes},
                 {"topology", topo.summary}};
  ctx["environment"] = environment();
  ctx["date"] = utc_now_iso8601();
  return ctx;
}

std::string context_summary(const nlohmann::json& ctx) {
  using ptr = nlohmann::json::json_pointer;
  // value() with defaults: the summary also serves contexts read back from older result files.
  auto str = [&](const char* p) { return ctx.value(ptr(p), std::string("?")); };

  std::string backends;
  for (const auto& b : ctx.value(ptr("/kokkos/backends"), nlohmann::json::array()))
    backends += (backends.empty() ? "" : ", ") + b.get<std::string>();

  std::string out;
  out += fmt::format("kfem {} ({}{}), {} build, {}\n", str("/kfem/version"), str("/kfem/git_revision"),
                     ctx.value(ptr("/kfem/git_dirty"), false) ? ", dirty" : "", str("/kfem/build_type"),
                     str("/kfem/compiler"));
  out += fmt::format("Kokkos {}: backends {}; default {}, {}\n", str("/kokkos/version"), backends,
                     str("/kokkos/default_execution_space"),
                     plural(ctx.value(ptr("/kokkos/host_concurrency"), 0), "host thread"));
  out += fmt::format("Host: {}, {} ({})\n", str("/host/hostname"), str("/host/cpu_model"),
                     str("/host/topology"));
  const auto dev = ctx.value(ptr("/device"), nlohmann::json());
  if (dev.is_object()) {
    out += fmt::format(
        "Device: {}, cc {}, {} SMs, {:.1f} GiB, L2 {:.0f} MiB, {:.0f}/{:.0f} MHz, peak {:.0f} GB/s\n",
        dev.value("name", "?"), dev.value("compute_capability", "?"), dev.value("sm_count", 0),
        dev.value("memory_gib", 0.0), dev.value("l2_mib", 0.0), dev.value("sm_clock_mhz", 0.0),
        dev.value("mem_clock_mhz", 0.0), dev.value("peak_bandwidth_gbs", 0.0));
  } else {
    out += "Device: none\n";
  }
  const auto bw = ctx.value(ptr("/copy_bandwidth_gbs"), nlohmann::json());
  if (bw.is_number())
    out += fmt::format("Copy bandwidth: {:.1f} GB/s (deep_copy, 256 MiB)\n", bw.get<double>());
  const auto up = ctx.value(ptr("/upload_bandwidth_gbs"), nlohmann::json());
  if (up.is_object())
    out += fmt::format(
        "Host to device: {:.1f} GB/s from pageable memory, {:.1f} GB/s from staging memory{} (64 MiB)\n",
        up.value("pageable", 0.0), up.value("staged", 0.0),
        up.contains("ring") ? fmt::format(", {:.1f} GB/s through kfem's staging ring", up.value("ring", 0.0))
                            : std::string());
  out += fmt::format("Date: {}", str("/date"));
  return out;
}
}  // namespace kfem
