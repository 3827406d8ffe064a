// The problem registry: what each deck physics picks, unknown names refused with the known ones,
// the boundary set-up (own conditions, named ones replacing them) and the read-outs' keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "kfem/core/error.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/fe/operator.hpp"
#include "kfem/mesh/box.hpp"
#include "kfem/problems/cantilever.hpp"
#include "kfem/problems/capacitor.hpp"
#include "kfem/problems/problem.hpp"
#include "problems/problems_helpers.hpp"

namespace {
namespace pr = kfem::problems;
using kfem::ordinal_t;

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// `problem: elasticity` (also what a deck without `problem:` says) and `problem: electrostatics`.
TEST(ProblemRegistry, DeckPhysicsPicksItsProblem) {
  const pr::Problem e = pr::problem_for("elasticity");
  EXPECT_STREQ(e.name, "cantilever");
  EXPECT_EQ(e.physics, pr::Physics::elasticity);
  EXPECT_EQ(e.components, 3);
  EXPECT_STREQ(e.field, "displacement");
  EXPECT_FALSE(e.readouts_need_matrix);
  const pr::Problem c = pr::problem_for("electrostatics");
  EXPECT_STREQ(c.name, "capacitor");
  EXPECT_EQ(c.physics, pr::Physics::electrostatics);
  EXPECT_EQ(c.components, 1);
  EXPECT_STREQ(c.field, "potential");
  EXPECT_TRUE(c.readouts_need_matrix);
}

TEST(ProblemRegistry, ProblemNamesPickThemselves) {
  EXPECT_EQ(&pr::problem_for("cantilever"), &pr::problem_for("elasticity"));
  EXPECT_EQ(&pr::problem_for("capacitor"), &pr::problem_for("electrostatics"));
  for (const pr::Problem& p : pr::registry()) EXPECT_EQ(&pr::problem_for(p.name), &p);
}

// The physics' names, components and block flops are the operators' (fe/operator.hpp).
TEST(ProblemRegistry, PhysicsIsTheOperator) {
  EXPECT_STREQ(pr::name_of(pr::Physics::elasticity), kfem::fe::Elasticity<double>::name);
  EXPECT_STREQ(pr::name_of(pr::Physics::electrostatics), kfem::fe::Electrostatics<double>::name);
  EXPECT_EQ(pr::components_of(pr::Physics::elasticity), kfem::fe::Elasticity<double>::components);
  EXPECT_EQ(pr::components_of(pr::Physics::electrostatics), kfem::fe::Electrostatics<double>::components);
  EXPECT_EQ(pr::block_flops(pr::Physics::elasticity, 3), 57);
  EXPECT_EQ(pr::block_flops(pr::Physics::electrostatics, 2), 3);
  for (const pr::Problem& p : pr::registry()) EXPECT_EQ(p.components, pr::components_of(p.physics)) << p.name;
}

TEST(ProblemRegistry, UnknownNamesAreRefusedWithTheKnownOnes) {
  for (const std::string bad : {"", "Elasticity", "heat", "cantilever ", "prism"}) {
    try {
      pr::problem_for(bad);
      ADD_FAILURE() << "'" << bad << "' accepted";
    } catch (const kfem::InputError& e) {
      const std::string m = e.what();
      EXPECT_TRUE(contains(m, "unknown problem '" + bad + "'")) << m;
      for (const char* known :
           {"elasticity -> cantilever", "electrostatics -> capacitor", "cantilever, capacitor"})
        EXPECT_TRUE(contains(m, known)) << m;
    }
  }
}

// The cantilever's clamp is all three components of x = xmin; named conditions replace it and
// rename the set-up; the load and the tip stay.
TEST(ProblemBoundary, CantileverClampOrNamedConditions) {
  const kfem::Mesh mesh = kfem::make_box({4, 2, 2, 4.0, 1.0, 1.0});
  const kfem::DofMap dofs = kfem::vertex_dof_map(mesh);
  const pr::Problem p = pr::problem_for("elasticity");
  pr::Parameters par;
  par.force = 1000.0, par.young = 2e11, par.poisson = 0.3, par.source = "test";
  const pr::BoundarySetup own = pr::boundary_setup(p, mesh, dofs, par);
  EXPECT_EQ(own.name, "cantilever");
  const auto& xmin = mesh.node_sets.at("xmin");
  ASSERT_EQ(own.fixed.size(), 3 * xmin.size());
  EXPECT_TRUE(std::all_of(own.values.begin(), own.values.end(), [](double v) { return v == 0; }));
  ASSERT_EQ(own.rhs.size(), 3 * std::size_t(dofs.num_nodes));
  double total = 0;
  for (std::size_t i = 2; i < own.rhs.size(); i += 3) total += own.rhs[i];
  EXPECT_NEAR(total, -1000.0, 1e-9);
  EXPECT_EQ(own.tip.size(), mesh.node_sets.at("xmax").size());

  par.dirichlet = {{"ymin", {0.0, 0.0, 0.5}}};
  const pr::BoundarySetup named = pr::boundary_setup(p, mesh, dofs, par);
  EXPECT_EQ(named.name, "cantilever load, bc.dirichlet");
  EXPECT_EQ(named.fixed.size(), 3 * mesh.node_sets.at("ymin").size());
  EXPECT_EQ(named.rhs, own.rhs);
  EXPECT_EQ(named.tip, own.tip);

  par.dirichlet = {{"nowhere", {0.0, 0.0, 0.0}}};
  EXPECT_THROW(pr::boundary_setup(p, mesh, dofs, par), kfem::InputError);
  par.dirichlet = {{"ymin", {0.0}}};  // elasticity needs three values
  EXPECT_THROW(pr::boundary_setup(p, mesh, dofs, par), kfem::InputError);
}

TEST(ProblemBoundary, CapacitorHasOnlyNamedConditions) {
  const kfem::Mesh mesh = kfem::make_tri_box(4, 2, 2.0, 1.0);
  const kfem::DofMap dofs = kfem::vertex_dof_map(mesh);
  const pr::Problem p = pr::problem_for("electrostatics");
  pr::Parameters par;
  par.permittivity = 1.0, par.source = "test";
  const pr::BoundarySetup none = pr::boundary_setup(p, mesh, dofs, par);
  EXPECT_EQ(none.name, "capacitor");
  EXPECT_TRUE(none.fixed.empty());
  EXPECT_EQ(none.rhs, std::vector<double>(std::size_t(dofs.num_nodes), 0.0));
  par.dirichlet = {{"ymin", {0.0}}, {"ymax", {2.0}}};
  const pr::BoundarySetup bc = pr::boundary_setup(p, mesh, dofs, par);
  EXPECT_EQ(bc.name, "capacitor");
  EXPECT_EQ(bc.fixed.size(), mesh.node_sets.at("ymin").size() + mesh.node_sets.at("ymax").size());
}

// Read-outs: the keys the reports carry. The capacitor's need K; u = y on the unit-height strip
// between potentials 0 and 2 (scaled): W = 1/2 eps |grad u|^2 area.
TEST(ProblemReadouts, Keys) {
  {
    const kfem::Mesh mesh = kfem::make_box({4, 2, 2, 4.0, 1.0, 1.0});
    const kfem::DofMap dofs = kfem::vertex_dof_map(mesh);
    const pr::Problem p = pr::problem_for("elasticity");
    pr::Parameters par;
    par.force = 1000.0, par.young = 2e11, par.poisson = 0.3;
    const pr::BoundarySetup bc = pr::boundary_setup(p, mesh, dofs, par);
    std::vector<double> u(bc.rhs.size(), 0.0);
    for (const ordinal_t n : bc.tip) u[3 * std::size_t(n) + 2] = -2.0;
    const auto r = p.readouts(mesh, bc, par, u, nullptr);
    EXPECT_EQ(r.size(), 2u);
    EXPECT_DOUBLE_EQ(r.at("tip_deflection_m").get<double>(), -2.0);
    EXPECT_DOUBLE_EQ(r.at("timoshenko_tip_deflection_m").get<double>(),
                     -kfem::timoshenko_tip_deflection(1000.0, 4.0, 1.0, 1.0, 2e11, 0.3));
  }
  {
    const kfem::Mesh mesh = kfem::make_tri_box(4, 2, 2.0, 1.0);
    const kfem::DofMap dofs = kfem::vertex_dof_map(mesh);
    const pr::Problem p = pr::problem_for("electrostatics");
    pr::Parameters par;
    par.permittivity = 1.0;
    par.dirichlet = {{"ymin", {0.0}}, {"ymax", {2.0}}};
    const pr::BoundarySetup bc = pr::boundary_setup(p, mesh, dofs, par);
    std::vector<double> u(std::size_t(dofs.num_nodes));
    for (ordinal_t n = 0; n < dofs.num_nodes; ++n) u[std::size_t(n)] = 2.0 * mesh.nodes[std::size_t(n)][1];
    EXPECT_TRUE(p.readouts(mesh, bc, par, u, nullptr).empty());  // no K: nothing to read
    const kfem::HostCsr<double> K = kfem::test::laplace_p1(mesh, 1.0);
    const auto r = p.readouts(mesh, bc, par, u, &K);
    EXPECT_EQ(r.size(), 4u);
    EXPECT_NEAR(r.at("field_energy").get<double>(), 0.5 * 4.0 * 2.0, 1e-12);  // 1/2 |grad u|^2 x area 2
    EXPECT_DOUBLE_EQ(r.at("potential_difference").get<double>(), 2.0);
    EXPECT_NEAR(r.at("capacitance_per_depth").get<double>(), 2.0 * 4.0 / 4.0, 1e-12);
    EXPECT_DOUBLE_EQ(r.at("ideal_capacitance_per_depth").get<double>(),
                     kfem::ideal_capacitance_per_depth(1.0));
  }
}
}  // namespace
