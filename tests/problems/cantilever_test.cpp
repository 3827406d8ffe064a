// The generalised cantilever: clamp and tip by DOF-node position, consistent prism tip loads.
#include "kfem/problems/cantilever.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "kfem/core/error.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/mesh/box.hpp"

namespace {
using kfem::ordinal_t;

// Rotates a prism box so that its prism axis (z) becomes x: the tip faces x = xmax are then the
// prisms' triangles instead of their quadrilaterals.
kfem::Mesh axis_along_x(kfem::Mesh mesh) {
  for (auto& p : mesh.nodes)
    p = {p[2], p[0], p[1]};  // (x, y, z) -> (z, x, y): a rotation, det J keeps its sign
  mesh.node_sets.clear();    // their names no longer match
  return mesh;
}

struct Moments {
  double fx = 0, fy = 0, fz = 0, my = 0, mz = 0;  // sums of F_z, F_z * y, F_z * z
};

Moments moments(const kfem::CantileverLoad& load, const kfem::DofMap& dofs) {
  Moments m;
  for (ordinal_t n = 0; n < dofs.num_nodes; ++n) {
    m.fx += load.force[3 * n], m.fy += load.force[3 * n + 1], m.fz += load.force[3 * n + 2];
    m.my += load.force[3 * n + 2] * dofs.positions[n][1];
    m.mz += load.force[3 * n + 2] * dofs.positions[n][2];
  }
  return m;
}

// Every order: the loads sum to -P, only DOF nodes on x = xmax carry them, and their first
// moments put the resultant at the tip face's centroid (a uniform traction), on quadrilateral and
// on triangular tip faces, regular and jittered.
TEST(PrismCantilever, LoadSumsToPAtTheCentroid) {
  const kfem::BoxSpec s{4, 3, 2, 4.0, 3.0, 2.0};
  const double P = 1e6;
  for (bool triangles : {false, true})
    for (double amplitude : {0.0, 0.12}) {
      kfem::Mesh mesh = kfem::make_prism_box(s);
      if (triangles) mesh = axis_along_x(mesh);
      kfem::distort(mesh, amplitude, 5);
      for (int p = 1; p <= 3; ++p) {
        const auto dofs = kfem::lagrange_dof_map(mesh, p);
        const auto load = kfem::cantilever_load(mesh, dofs, P);
        const std::string what = (triangles ? "triangle faces" : "quad faces") + std::string(", p = ") +
                                 std::to_string(p) + ", jitter " + std::to_string(amplitude);
        ASSERT_EQ(load.force.size(), 3 * std::size_t(dofs.num_nodes)) << what;
        const Moments m = moments(load, dofs);
        EXPECT_NEAR(m.fz, -P, 1e-12 * P) << what;
        EXPECT_EQ(m.fx, 0.0) << what;
        EXPECT_EQ(m.fy, 0.0) << what;
        double xmax = 0;
        for (const auto& x : mesh.nodes) xmax = std::max(xmax, x[0]);
        for (ordinal_t n = 0; n < dofs.num_nodes; ++n)
          if (load.force[3 * n + 2] != 0.0) {
            ASSERT_NEAR(dofs.positions[n][0], xmax, 1e-12) << what << ", node " << n;
          }
        if (amplitude == 0.0) {  // the tip is the full rectangle: centroid at its middle
          const double ly = triangles ? s.lx : s.ly, lz = triangles ? s.ly : s.lz;
          EXPECT_NEAR(m.my, -P * ly / 2, 1e-10 * P * ly) << what;
          EXPECT_NEAR(m.mz, -P * lz / 2, 1e-10 * P * lz) << what;
        }
      }
    }
}

// With the prism axis along z, the prisms' tip faces are the hex box's tip faces themselves: at
// order 1 the consistent loads must be the hex8 ones (a quarter of each face's share per corner).
TEST(PrismCantilever, OrderOneQuadTipEqualsHex8) {
  const kfem::BoxSpec s{5, 3, 4, 5.0, 1.5, 2.0};
  const auto hex = kfem::make_box(s);
  const auto prism = kfem::make_prism_box(s);
  const auto a = kfem::cantilever_load(hex, 7.0);
  const auto b = kfem::cantilever_load(prism, kfem::lagrange_dof_map(prism, 1), 7.0);
  const auto c = kfem::cantilever_load(prism, 7.0);  // the vertex overload
  ASSERT_EQ(hex.num_nodes(), prism.num_nodes());
  ASSERT_EQ(a.force.size(), b.force.size());
  for (std::size_t i = 0; i < a.force.size(); ++i) {
    EXPECT_NEAR(a.force[i], b.force[i], 1e-14 * 7.0) << "dof " << i;
    EXPECT_EQ(b.force[i], c.force[i]) << "dof " << i;
  }
  EXPECT_EQ(a.fixed_dofs, b.fixed_dofs);
  EXPECT_EQ(a.tip_nodes, b.tip_nodes);
}

// Clamp and tip sets are the DOF nodes on x = xmin / xmax (edge and face nodes included).
TEST(PrismCantilever, ClampAndTipAreDofNodesOnThePlanes) {
  const kfem::BoxSpec s{3, 2, 2, 6.0, 1.0, 1.0};
  const auto mesh = kfem::make_prism_box(s);
  const auto dofs = kfem::lagrange_dof_map(mesh, 3);
  const auto load = kfem::cantilever_load(mesh, dofs, 1.0);
  std::size_t at_min = 0, at_max = 0;
  for (const auto& x : dofs.positions)
    at_min += std::abs(x[0]) < 1e-12, at_max += std::abs(x[0] - 6.0) < 1e-12;
  EXPECT_EQ(load.fixed_dofs.size(), 3 * at_min);
  EXPECT_EQ(load.tip_nodes.size(), at_max);
  // P3 on a 2 x 2 grid of quads: (3 * 2 + 1)^2 DOF nodes per face.
  EXPECT_EQ(at_max, std::size_t(7 * 7));
  for (ordinal_t d : load.fixed_dofs) EXPECT_NEAR(dofs.positions[d / 3][0], 0.0, 1e-12);
  for (ordinal_t n : load.tip_nodes) EXPECT_NEAR(dofs.positions[n][0], 6.0, 1e-12);

  std::vector<double> u(load.force.size(), 0.0);
  for (ordinal_t n : load.tip_nodes) u[3 * n + 2] = -2.0;
  EXPECT_DOUBLE_EQ(kfem::tip_deflection(u, load.tip_nodes), -2.0);
}

TEST(PrismCantilever, Errors) {
  const auto tri = kfem::make_tri_box(2, 2, 1.0, 1.0);
  EXPECT_THROW(kfem::cantilever_load(tri, 1.0), kfem::InputError);
  EXPECT_THROW(kfem::cantilever_load(kfem::Mesh{}, 1.0), kfem::InputError);
  auto mesh = kfem::make_prism_box({1, 1, 1, 1.0, 1.0, 1.0});
  mesh.nodes[1][0] = 1.5;  // one node alone on x = xmax
  EXPECT_THROW(kfem::cantilever_load(mesh, kfem::lagrange_dof_map(mesh, 2), 1.0), kfem::InputError);
}

TEST(Timoshenko, Formula) {
  // kiran's beam: 16 x 2 x 2 m, E = 200 GPa, nu = 0.333 (Cowper's kappa ~ 0.850).
  const double P = 1e6, L = 16, b = 2, h = 2, E = 200e9, nu = 0.333;
  const double I = b * h * h * h / 12, G = E / (2 * (1 + nu)), kappa = 10 * (1 + nu) / (12 + 11 * nu);
  EXPECT_DOUBLE_EQ(kfem::timoshenko_tip_deflection(P, L, b, h, E, nu),
                   P * L * L * L / (3 * E * I) + P * L / (kappa * G * b * h));
}
}  // namespace
