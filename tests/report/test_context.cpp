// run_context(), host topology, device info and the copy-bandwidth probe.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdlib>
#include <regex>
#include <string>

#include "kfem/report/context.hpp"

TEST(Context, HostTopology) {
  const auto h = kfem::host_topology();
  EXPECT_GE(h.cores, 1);
  EXPECT_GE(h.pus, h.cores);
  EXPECT_GE(h.packages, 1);
  EXPECT_GE(h.numa_nodes, 1);
  EXPECT_FALSE(h.cpu_model.empty());
  EXPECT_FALSE(h.summary.empty());
}

TEST(Context, DeviceInfoMatchesBackend) {
  const auto d = kfem::device_info();
#ifdef KOKKOS_ENABLE_CUDA
  ASSERT_TRUE(d.has_value());  // tests of a CUDA build run on a GPU
  EXPECT_FALSE(d->name.empty());
  EXPECT_GT(d->sm_count, 0);
  EXPECT_GT(d->memory_gib, 0);
  EXPECT_GT(d->sm_clock_mhz, 0);
  EXPECT_GT(d->mem_clock_mhz, 0);
  EXPECT_GE(d->cc_major, 1);
#else
  EXPECT_FALSE(d.has_value());
#endif
}

TEST(Context, RunContextHasDocumentedKeys) {
  setenv("KOKKOS_KFEM_TEST_VAR", "42", 1);
  const auto ctx = kfem::run_context(false);
  for (const char* k : {"kfem", "kokkos", "device", "copy_bandwidth_gbs", "host", "environment", "date"})
    EXPECT_TRUE(ctx.contains(k)) << k;
  for (const char* k : {"version", "git_revision", "git_dirty", "build_type", "compiler", "flags"})
    EXPECT_TRUE(ctx["kfem"].contains(k)) << k;
  EXPECT_TRUE(ctx["kfem"]["git_dirty"].is_boolean());

  // The Kokkos this test is compiled against (3.4.01, 4.6.01, ...), spelled like Kokkos does ("3.4.1").
  const std::string kokkos_version = std::to_string(KOKKOS_VERSION / 10000) + "." +
                                     std::to_string(KOKKOS_VERSION / 100 % 100) + "." +
                                     std::to_string(KOKKOS_VERSION % 100);
  const auto& kk = ctx["kokkos"];
  EXPECT_EQ(kk["version"], kokkos_version);
  EXPECT_EQ(kk["version_number"], KOKKOS_VERSION);
  ASSERT_TRUE(kk["backends"].is_array());
  EXPECT_FALSE(kk["backends"].empty());
  EXPECT_EQ(kk["default_execution_space"], Kokkos::DefaultExecutionSpace::name());
  EXPECT_GE(kk["host_concurrency"].get<int>(), 1);
  EXPECT_FALSE(kk["configuration"].get<std::string>().empty());
  // The linked Kokkos library records its own version: headers and library come from one install.
  EXPECT_NE(kk["configuration"].get<std::string>().find("Kokkos Version: " + kokkos_version),
            std::string::npos)
      << kk["configuration"];

#ifdef KOKKOS_ENABLE_CUDA
  EXPECT_TRUE(ctx["device"].is_object());
#else
  EXPECT_TRUE(ctx["device"].is_null());
#endif
  EXPECT_TRUE(ctx["copy_bandwidth_gbs"].is_null());  // not measured

  const auto& host = ctx["host"];
  EXPECT_GE(host["cores"].get<int>(), 1);
  EXPECT_GE(host["pus"].get<int>(), 1);
  EXPECT_FALSE(host["hostname"].get<std::string>().empty());
  EXPECT_FALSE(host["cpu_model"].get<std::string>().empty());

  EXPECT_EQ(ctx["environment"]["KOKKOS_KFEM_TEST_VAR"], "42");
  for (const auto& [k, v] : ctx["environment"].items()) {
    EXPECT_TRUE(k.rfind("OMP_", 0) == 0 || k.rfind("KOKKOS_", 0) == 0) << k;
    EXPECT_TRUE(v.is_string());
  }
  unsetenv("KOKKOS_KFEM_TEST_VAR");

  EXPECT_TRUE(std::regex_match(ctx["date"].get<std::string>(),
                               std::regex(R"(20\d\d-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-6]\dZ)")))
      << ctx["date"];

  const std::string summary = kfem::context_summary(ctx);
  EXPECT_NE(summary.find("kfem " + ctx["kfem"]["version"].get<std::string>()), std::string::npos) << summary;
  EXPECT_NE(summary.find("Kokkos " + kokkos_version), std::string::npos) << summary;
  EXPECT_NE(summary.find("Date: "), std::string::npos) << summary;
}

TEST(Context, SummaryToleratesSparseContext) {
  const std::string s = kfem::context_summary(nlohmann::json::object());
  EXPECT_NE(s.find("Device: none"), std::string::npos) << s;
}

TEST(Context, CopyBandwidthIsPositiveAndQuick) {
  const auto t0 = std::chrono::steady_clock::now();
  const double gbs = kfem::measure_copy_bandwidth();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  RecordProperty("copy_bandwidth_gbs", std::to_string(gbs));
  std::printf("copy bandwidth: %.2f GB/s (measured in %.3f s)\n", gbs, secs);
  EXPECT_GT(gbs, 0.1);
  EXPECT_LT(gbs, 1e5);   // nothing copies 100 TB/s: a unit slip would show here
  EXPECT_LT(secs, 5.0);  // budgeted to stay under a second; generous for loaded CI machines
}

TEST(Context, RunContextWithBandwidth) {
  const auto ctx = kfem::run_context(true);
  ASSERT_TRUE(ctx["copy_bandwidth_gbs"].is_number());
  EXPECT_GT(ctx["copy_bandwidth_gbs"].get<double>(), 0.0);
  std::printf("%s\n", kfem::context_summary(ctx).c_str());
}
