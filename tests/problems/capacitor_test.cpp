// The amorim capacitor: Gmsh mesh (names, orientation, size knob, .msh output) and capacitance.
#include "kfem/problems/capacitor.hpp"

#include <gtest/gtest.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <cmath>
#include <filesystem>
#include <fstream>

#include "backends.hpp"
#include "kfem/core/error.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/mesh/gmsh.hpp"
#include "kfem/mesh/validate.hpp"
#include "kfem/problems/boundary_conditions.hpp"
#include "kfem/problems/capacitance.hpp"
#include "kfem/problems/dirichlet.hpp"
#include "kfem/solve/solver.hpp"
#include "problems/problems_helpers.hpp"

namespace {
using kfem::ordinal_t;

#define KFEM_REQUIRE_GMSH()                          \
  if (!kfem::gmsh_available()) {                     \
    GTEST_SKIP() << "built with KFEM_WITH_GMSH=OFF"; \
  }

kfem::CapacitorSpec coarse() {
  kfem::CapacitorSpec s;
  s.size = 0.1;  // ~7e3 triangles
  return s;
}

double signed_area2(const kfem::Mesh& m, std::size_t e) {
  const auto& a = m.nodes[m.elements[e][0]];
  const auto& b = m.nodes[m.elements[e][1]];
  const auto& c = m.nodes[m.elements[e][2]];
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

// On the outline of the axis-aligned rectangle [x0, x1] x [y0, y1]?
bool on_outline(const std::array<double, 3>& p, double x0, double x1, double y0, double y1) {
  const double tol = 1e-12;
  const bool in_x = p[0] >= x0 - tol && p[0] <= x1 + tol, in_y = p[1] >= y0 - tol && p[1] <= y1 + tol;
  return (in_x && (std::abs(p[1] - y0) <= tol || std::abs(p[1] - y1) <= tol)) ||
         (in_y && (std::abs(p[0] - x0) <= tol || std::abs(p[0] - x1) <= tol));
}

TEST(Capacitor, NamesOrientationAndArea) {
  KFEM_REQUIRE_GMSH();
  const auto spec = coarse();
  const kfem::Mesh mesh = kfem::make_capacitor(spec);
  EXPECT_EQ(mesh.cell, kfem::CellType::tri3);
  ASSERT_EQ(mesh.node_sets.size(), 3u);
  for (const char* name : {"top_plate", "bottom_plate", "outer"}) {
    ASSERT_TRUE(mesh.node_sets.count(name)) << name;
    EXPECT_GE(mesh.node_sets.at(name).size(), 4u) << name;
  }
  ASSERT_EQ(mesh.cell_sets.size(), 1u);
  ASSERT_EQ(mesh.cell_sets.at("air").size(), mesh.num_elements());
  EXPECT_NO_THROW(kfem::check_elements(mesh, "capacitor"));  // counter-clockwise, not degenerate

  double area = 0;
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) {
    ASSERT_GT(signed_area2(mesh, e), 0.0) << "element " << e;
    area += 0.5 * signed_area2(mesh, e);
  }
  const double air = spec.box_width * spec.box_height - 2 * spec.plate_length * spec.plate_thickness;
  EXPECT_NEAR(area, air, 1e-12 * air);

  // Every node is used (the mesh keeps only those).
  std::vector<char> used(mesh.num_nodes(), 0);
  for (const auto& el : mesh.elements)
    for (int k = 0; k < 3; ++k) used[el[k]] = 1;
  EXPECT_EQ(std::count(used.begin(), used.end(), 1), std::ptrdiff_t(mesh.num_nodes()));
}

TEST(Capacitor, NodeSetsLieOnTheOutlines) {
  KFEM_REQUIRE_GMSH();
  const auto s = coarse();
  const kfem::Mesh mesh = kfem::make_capacitor(s);
  const double l = s.plate_length / 2, g = s.gap / 2, t = s.plate_thickness;
  const double w = s.box_width / 2, h = s.box_height / 2;
  for (ordinal_t n : mesh.node_sets.at("top_plate"))
    EXPECT_TRUE(on_outline(mesh.nodes[n], -l, l, g, g + t)) << "top_plate node " << n;
  for (ordinal_t n : mesh.node_sets.at("bottom_plate"))
    EXPECT_TRUE(on_outline(mesh.nodes[n], -l, l, -g - t, -g)) << "bottom_plate node " << n;
  for (ordinal_t n : mesh.node_sets.at("outer"))
    EXPECT_TRUE(on_outline(mesh.nodes[n], -w, w, -h, h)) << "outer node " << n;
  // ... and hold every node there: count the nodes on the top plate outline.
  std::size_t on_top = 0;
  for (const auto& p : mesh.nodes) on_top += on_outline(p, -l, l, g, g + t);
  EXPECT_EQ(on_top, mesh.node_sets.at("top_plate").size());
  // Refined at the plate borders: the edges along the plates are border_ratio * size long.
  double shortest = 1e30, longest = 0;
  for (const auto& el : mesh.elements)
    for (int k = 0; k < 3; ++k) {
      const auto& a = mesh.nodes[el[k]];
      const auto& b = mesh.nodes[el[(k + 1) % 3]];
      const double len = std::hypot(b[0] - a[0], b[1] - a[1]);
      shortest = std::min(shortest, len), longest = std::max(longest, len);
    }
  EXPECT_LT(shortest, 1.5 * s.border_ratio * s.size);
  EXPECT_GT(longest, 0.7 * s.size);
}

// The knob: count ~ 1 / size^2, x4 per refinement, and the model predicts it within 15%.
TEST(Capacitor, TriangleCountFollowsTheKnob) {
  KFEM_REQUIRE_GMSH();
  auto s = coarse();
  const auto n1 = double(kfem::make_capacitor(s).num_elements());
  EXPECT_NEAR(n1 / kfem::capacitor_triangles(s), 1.0, 0.15);
  s.size /= 2;
  const auto n2 = double(kfem::make_capacitor(s).num_elements());
  EXPECT_NEAR(n2 / kfem::capacitor_triangles(s), 1.0, 0.1);
  EXPECT_NEAR(n2 / n1, 4.0, 0.5);
  s.size *= 2;
  s.refine = 1;
  EXPECT_EQ(double(kfem::make_capacitor(s).num_elements()), 4 * n1);

  const auto t = kfem::capacitor_spec_for(3e4);
  EXPECT_EQ(t.refine, 0);
  EXPECT_NEAR(kfem::capacitor_triangles(t), 3e4, 1e-6 * 3e4);
  kfem::CapacitorSpec target;
  target.target_triangles = 3e4;
  EXPECT_NEAR(double(kfem::make_capacitor(target).num_elements()) / 3e4, 1.0, 0.1);
  const auto big = kfem::capacitor_spec_for(1e7);
  EXPECT_EQ(big.refine, 4);  // 1e7 / 4^4 ~ 3.9e4 <= 1e5 < 1e7 / 4^3
  EXPECT_NEAR(kfem::capacitor_triangles(big), 1e7, 1e-6 * 1e7);
}

TEST(Capacitor, WritesAMshThatReadsBack) {
  KFEM_REQUIRE_GMSH();
  auto s = coarse();
  const auto path =
      std::filesystem::temp_directory_path() / ("kfem_capacitor_" + std::to_string(getpid()) + ".msh");
  s.msh_path = path.string();
  const kfem::Mesh mesh = kfem::make_capacitor(s);
  const kfem::Mesh back = kfem::read_gmsh(s.msh_path);
  std::filesystem::remove(path);
  ASSERT_EQ(back.cell, kfem::CellType::tri3);
  EXPECT_EQ(back.num_elements(), mesh.num_elements());
  EXPECT_EQ(back.num_nodes(), mesh.num_nodes());
  for (const char* name : {"top_plate", "bottom_plate", "outer"})
    EXPECT_EQ(back.node_sets.at(name).size(), mesh.node_sets.at(name).size()) << name;
  EXPECT_EQ(back.cell_sets.at("air").size(), mesh.num_elements());
  EXPECT_EQ(back.elements, mesh.elements);            // Gmsh's node order, as the file has it
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n)  // the file holds 16 significant digits
    for (int c = 0; c < 2; ++c) ASSERT_NEAR(back.nodes[n][c], mesh.nodes[n][c], 1e-15 * 4) << "node " << n;
}

TEST(Capacitor, Errors) {
  auto s = coarse();
  s.plate_length = 5.0;  // wider than the box
  EXPECT_THROW(kfem::make_capacitor(s), kfem::InputError);
  s = coarse();
  s.border_ratio = 0;
  EXPECT_THROW(kfem::make_capacitor(s), kfem::InputError);
  EXPECT_THROW(kfem::capacitor_spec_for(10), kfem::InputError);
  s = coarse();
  s.msh_path = "/nonexistent-dir/x.msh";
  try {
    kfem::make_capacitor(s);
    FAIL() << "no error for an unwritable msh_path";
  } catch (const kfem::InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    if (kfem::gmsh_available()) {
      EXPECT_NE(what.find("/nonexistent-dir/x.msh"), std::string::npos) << what;
    }
  }
}

// Gmsh's initialize sets OpenMP's thread count to 1; make_capacitor puts it back.
TEST(Capacitor, KeepsTheOpenMPThreadCount) {
  KFEM_REQUIRE_GMSH();
#ifdef _OPENMP
  const int before = omp_get_max_threads();
  omp_set_num_threads(before + 1);
  auto s = coarse();
  s.threads = 1;
  kfem::make_capacitor(s);
  EXPECT_EQ(omp_get_max_threads(), before + 1);
  omp_set_num_threads(before);
#else
  GTEST_SKIP() << "no OpenMP";
#endif
}

TEST(Capacitor, WithoutGmshSaysSo) {
  if (kfem::gmsh_available()) GTEST_SKIP() << "built with Gmsh";
  try {
    kfem::make_capacitor(coarse());
    FAIL() << "no error";
  } catch (const kfem::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("built without Gmsh (KFEM_WITH_GMSH=OFF)"), std::string::npos)
        << e.what();
  }
}

TEST(Capacitor, ConditionsAndIdeal) {
  const auto c = kfem::capacitor_conditions(48.0);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].name, "top_plate");
  EXPECT_EQ(c[0].values, std::vector<double>{24.0});
  EXPECT_EQ(c[1].values, std::vector<double>{-24.0});
  EXPECT_EQ(c[2].values, std::vector<double>{0.0});
  EXPECT_DOUBLE_EQ(kfem::ideal_capacitance_per_depth(1.0), 64.0);  // 2 in / (1/32 in)
}

template <class Exec>
class Capacitance : public ::testing::Test {};
TYPED_TEST_SUITE(Capacitance, kfem::test::ExecSpaces, kfem::test::SpaceName);

// Solve the coarse capacitor (lifting on the device, CG), then C = 2 W / V^2 from the unconstrained
// matrix: above eps L / d by the fringe field (~5% here: L / d = 64), and decreasing under refinement
// (nested meshes: the discrete energy of a Dirichlet problem can only go down).
TYPED_TEST(Capacitance, AboveParallelPlateAndDecreasing) {
  KFEM_REQUIRE_GMSH();
  using Mem = typename TypeParam::memory_space;
  const double eps = kfem::vacuum_permittivity, V = 48.0;
  double previous = 0;
  for (int refine : {0, 1}) {
    auto s = coarse();
    s.refine = refine;
    const kfem::Mesh mesh = kfem::make_capacitor(s);
    const auto K = kfem::test::laplace_p1(mesh, eps);
    const auto f = kfem::fixed_dofs_by_name(mesh, kfem::vertex_dof_map(mesh), 1,
                                            kfem::capacitor_conditions(V), "capacitor");
    auto A = kfem::test::to_device<Mem>(K);
    const Kokkos::View<double*, Mem> b("b", K.num_rows), phi("phi", K.num_rows);
    kfem::apply_dirichlet(TypeParam(), A.graph, A.values, b,
                          kfem::test::to_view<ordinal_t, Mem>(f.dofs, "fixed"),
                          kfem::test::to_view<double, Mem>(f.values, "values"));
    kfem::SolverOptions opts;
    opts.tolerance = 1e-10;
    const auto res = kfem::solve_csr(TypeParam(), A.graph, A.values, false, b, phi, opts);
    ASSERT_TRUE(res.converged);

    const auto u = kfem::test::to_vector(phi);
    const double W = kfem::field_energy(K, u);
    // The device forms agree with the host one, in full and in lower storage.
    const auto Kd = kfem::test::to_device<Mem>(K);
    const auto Ld = kfem::test::to_device<Mem>(kfem::test::lower_of(K));
    EXPECT_NEAR(kfem::field_energy(TypeParam(), Kd.graph, Kd.values, phi), W, 1e-12 * W);
    EXPECT_NEAR(kfem::field_energy(TypeParam(), Ld.graph, Ld.values, phi), W, 1e-12 * W);
    EXPECT_NEAR(kfem::field_energy(kfem::test::lower_of(K), u), W, 1e-12 * W);

    const double C = kfem::capacitance_per_depth(W, V), ideal = kfem::ideal_capacitance_per_depth(eps, s);
    EXPECT_GT(C, 1.01 * ideal) << "refine " << refine;
    EXPECT_LT(C, 1.3 * ideal) << "refine " << refine;
    if (refine > 0) {
      EXPECT_LT(C, previous * (1 + 1e-9));
    }
    previous = C;
    std::printf("capacitor refine %d: %zu triangles, C = %.5g F/m = %.4f x eps L/d\n", refine,
                mesh.num_elements(), C, C / ideal);
  }
}
}  // namespace
