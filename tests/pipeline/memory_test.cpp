// The device-memory estimate that refuses a mesh before allocation (kfem/pipeline/memory.hpp): its counts
// against a real box's pattern, its asymptote against `kfem info`'s per-element figures, and the
// one-line refusal.
#include "kfem/pipeline/memory.hpp"

#include <gtest/gtest.h>

#include "kfem/assembly/reference.hpp"
#include "kfem/core/error.hpp"
#include "kfem/mesh/box.hpp"

namespace {
using namespace kfem;
using namespace kfem::pipeline;

// A real box's pattern: its entries per node approach the 243 (full) and 123 (lower) the capacity
// lines assume, and its estimate per element approaches theirs.
TEST(DeviceMemory, BoxApproachesTheInteriorFigures) {
  const Mesh mesh = make_box({24, 24, 24, 1.0, 1.0, 1.0});
  const HostCsr<double> full = reference_pattern(mesh);
  const HostCsr<double> lower = lower_part(full);
  const double nodes = double(mesh.num_nodes());
  EXPECT_NEAR(double(full.nnz()) / nodes, 243.0, 243.0 * 0.12);
  EXPECT_LT(double(full.nnz()) / nodes, 243.0);  // boundary nodes have fewer neighbours
  EXPECT_NEAR(double(lower.nnz()) / nodes, 123.0, 123.0 * 0.12);
  const MeshCounts counts{std::int64_t(mesh.num_elements()), std::int64_t(mesh.num_nodes()), 3, 8, 8};
  const MeshCounts one{1, 1, 3, 8, 8};
  for (const int s : {4, 8}) {
    const PointMemory box =
        point_memory(counts, full.nnz(), full.nnz(), false, s, hex8_element_data_bytes(s), true);
    const PointMemory unit = point_memory(one, 243, 243, false, s, hex8_element_data_bytes(s), true);
    EXPECT_DOUBLE_EQ(box.values, double(full.nnz()) * s);
    EXPECT_DOUBLE_EQ(box.element_data, double(mesh.num_elements()) * hex8_element_data_bytes(s));
    EXPECT_NEAR(box.total() / double(mesh.num_elements()), unit.total(), 0.15 * unit.total()) << s;
  }
  // Lower storage keeps the lower pattern only (and both row offsets).
  const PointMemory lo =
      point_memory(counts, full.nnz(), lower.nnz(), true, 8, hex8_element_data_bytes(8), false);
  const PointMemory fu =
      point_memory(counts, full.nnz(), full.nnz(), false, 8, hex8_element_data_bytes(8), false);
  EXPECT_LT(lo.pattern, 0.7 * fu.pattern);
  EXPECT_LT(lo.values, 0.6 * fu.values);
  EXPECT_EQ(lo.solve, 0.0);
}

TEST(DeviceMemory, IndexTargetCostsItsSlots) {
  // Prism p = 2: 18 DOF nodes, 6 vertices; the index holds 18^2 slots and 18 row lengths.
  EXPECT_DOUBLE_EQ(generic_element_data_bytes(8, 6, 18, true) - generic_element_data_bytes(8, 6, 18, false),
                   18.0 * 18 * 8 + 18 * 4);
  // hex8: coordinates, node ids, 8 row starts, 64 16-bit block offsets, 8 row lengths.
  EXPECT_DOUBLE_EQ(hex8_element_data_bytes(8), 24 * 8 + 8 * 4 + 8 * 8 + 64 * 2 + 8 * 4);
}

TEST(DeviceMemory, RefusalNamesTheSizes) {
  const MeshCounts counts{30'000'000, 30'000'000, 3, 8, 8};
  const PointMemory need =
      point_memory(counts, std::int64_t(243) * 30'000'000, std::int64_t(243) * 30'000'000, false, 8,
                   hex8_element_data_bytes(8), true);
  EXPECT_NO_THROW(check_point_memory("big", need, 0.0));  // unknown: no check
  EXPECT_NO_THROW(check_point_memory("big", need, need.later() + 1));
  try {
    check_point_memory("big", need, 10.0 * (1ull << 30));
    FAIL() << "no refusal";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    EXPECT_EQ(m.rfind("big: ", 0), 0u) << m;
    for (const char* part : {"values 54.31", "CG vectors", "10.00 GiB are free"})
      EXPECT_NE(m.find(part), std::string::npos) << part << " in " << m;
  }
}
}  // namespace
