// The kiran §5.1 cantilever end to end (oracle assembly, constraints, CG) against Timoshenko theory.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "backends.hpp"
#include "kfem/assembly/reference.hpp"
#include "kfem/mesh/box.hpp"
#include "kfem/problems/cantilever.hpp"
#include "kfem/problems/dirichlet.hpp"
#include "kfem/problems/tip_deflection.hpp"
#include "kfem/solve/solver.hpp"
#include "solve_helpers.hpp"

namespace {
using kfem::ordinal_t;

TEST(Timoshenko, HandComputedValue) {
  // P = L = b = h = 1, E = 12, nu = 0: EI = 1 -> bending 1/3; G = 6, kappa = 5/6 -> shear 1/5.
  EXPECT_DOUBLE_EQ(kfem::timoshenko_tip_deflection(1, 1, 1, 1, 12, 0), 1.0 / 3.0 + 0.2);
  // Linear in P, and the bending term dominates a slender beam: 16 m x 2 m x 2 m is ~99% bending.
  const double full = kfem::timoshenko_tip_deflection(2e6, 16, 2, 2, 200e9, 0.333);
  EXPECT_DOUBLE_EQ(full, 2 * kfem::timoshenko_tip_deflection(1e6, 16, 2, 2, 200e9, 0.333));
  EXPECT_NEAR(full, 2e6 * 16 * 16 * 16 / (3 * 200e9 * 2 * 8 / 12.0), 0.02 * full);
}

// Signed mean tip u_z of the clamped box under P in -z, solved with Jacobi-CG.
template <class Exec>
double solve_tip_deflection(const kfem::BoxSpec& spec, double E, double nu, double P) {
  using Mem = typename Exec::memory_space;
  const auto mesh = kfem::make_box(spec);
  const auto load = kfem::cantilever_load(mesh, P);
  const auto A = kfem::test::to_device<Mem>(
      kfem::assemble_reference_hex8(mesh, kfem::Isotropic<double>::from_young(E, nu)));
  const auto b = kfem::test::to_view<double, Mem>(load.force, "rhs");
  kfem::apply_dirichlet(Exec(), A.graph, A.values, b,
                        kfem::test::to_view<ordinal_t, Mem>(load.fixed_dofs, "fixed"));
  Kokkos::View<double*, Mem> u("u", mesh.num_dofs());
  kfem::SolverOptions opts;
  opts.tolerance = 1e-10;  // far below the discretisation error being measured
  const auto res = kfem::solve_csr(Exec(), A.graph, A.values, false, b, u, opts);
  EXPECT_TRUE(res.converged) << spec.nx << "x" << spec.ny << "x" << spec.nz;
  const double tip =
      kfem::tip_deflection(Exec(), u, kfem::test::to_view<ordinal_t, Mem>(load.tip_nodes, "tip"));
  std::printf("  [%s] %dx%dx%d: %zu dofs, %d CG iterations, %.3f s, tip u_z = %.6e m\n", Exec::name(),
              spec.nx, spec.ny, spec.nz, mesh.num_dofs(), res.iterations, res.seconds, tip);
  return tip;
}

template <class Exec>
class CantileverBeam : public ::testing::Test {};
TYPED_TEST_SUITE(CantileverBeam, kfem::test::ExecSpaces, kfem::test::SpaceName);

TYPED_TEST(CantileverBeam, ConvergesToTimoshenko) {
  const double E = 200e9, nu = 0.333, P = 1e6;  // kiran Table 2
  const double exact = kfem::timoshenko_tip_deflection(P, 16, 2, 2, E, nu);
  std::printf("  Timoshenko tip deflection %.6e m\n", exact);
  std::vector<double> error;
  for (ordinal_t refine : {1, 2, 4}) {
    const double tip =
        solve_tip_deflection<TypeParam>({16 * refine, 2 * refine, 2 * refine, 16, 2, 2}, E, nu, P);
    EXPECT_LT(tip, 0.0) << "the load points in -z";
    error.push_back(std::abs(-tip - exact) / exact);
    std::printf("  relative error %.4f\n", error.back());
  }
  // Measured (both spaces, CG to 1e-10): Timoshenko 5.182652e-3 m; tip u_z = -4.425117e-3 (16x2x2,
  // 14.6%), -4.919275e-3 (32x4x4, 5.08%), -5.070557e-3 (64x8x8, 2.16%); a one-off 128x16x16 run gave
  // -5.113127e-3 (1.34%). Full-integration hex8 locks in bending, so the mesh error falls at ~h^1.8;
  // Richardson on the last three puts the converged 3D value near 5.130e-3, ~1% below Timoshenko (the
  // fully clamped root also blocks Poisson contraction and warping, which beam theory ignores).
  // 64x8x8 thus carries ~1.2% mesh + ~1% model error; 2.5% bounds it with a little room.
  EXPECT_GT(error[0], error[1]);
  EXPECT_GT(error[1], error[2]);
  EXPECT_LT(error[2], 0.025);
}
}  // namespace
