// The problem registry: cantilever and capacitor, their loads, conditions and read-outs.
#include "kfem/problems/problem.hpp"

#include <algorithm>
#include <array>

#include "kfem/core/error.hpp"
#include "kfem/fe/operator.hpp"
#include "kfem/problems/cantilever.hpp"
#include "kfem/problems/capacitance.hpp"
#include "kfem/problems/capacitor.hpp"

namespace kfem::problems {
const char* name_of(Physics p) {
  return p == Physics::elasticity ? fe::Elasticity<double>::name : fe::Electrostatics<double>::name;
}

int components_of(Physics p) {
  return p == Physics::elasticity ? fe::Elasticity<double>::components
                                  : fe::Electrostatics<double>::components;
}

double block_flops(Physics p, int dim) {
  return p == Physics::elasticity ? fe::Elasticity<double>::block_flops(dim)
                                  : fe::Electrostatics<double>::block_flops(dim);
}

namespace {
// kiran §5.1: clamp at x = xmin and the tip load (cantilever_load, any hex8 or prism DofMap).
BoundarySetup cantilever_loads(const Mesh& mesh, const DofMap& dofs, const Parameters& p) {
  CantileverLoad c = cantilever_load(mesh, dofs, p.force);
  BoundarySetup bc;
  bc.name = "cantilever";
  bc.rhs = std::move(c.force);
  bc.tip = std::move(c.tip_nodes);
  bc.fixed = std::move(c.fixed_dofs);
  bc.values.assign(bc.fixed.size(), 0.0);
  return bc;
}

nlohmann::json cantilever_readouts(const Mesh& mesh, const BoundarySetup& bc, const Parameters& p,
                                   const std::vector<double>& u, const HostCsr<double>*) {
  nlohmann::json out;
  out["tip_deflection_m"] = tip_deflection(u, bc.tip);
  std::array<double, 3> lo = mesh.nodes[0], hi = lo;
  for (const auto& x : mesh.nodes)
    for (int j = 0; j < 3; ++j) lo[j] = std::min(lo[j], x[j]), hi[j] = std::max(hi[j], x[j]);
  out["timoshenko_tip_deflection_m"] =
      -timoshenko_tip_deflection(p.force, hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], p.young, p.poisson);
  return out;
}

// amorim §III: no load and no condition of its own (the plates' potentials come by name).
BoundarySetup capacitor_loads(const Mesh&, const DofMap& dofs, const Parameters&) {
  BoundarySetup bc;
  bc.name = "capacitor";
  bc.rhs.assign(std::size_t(components_of(Physics::electrostatics)) * std::size_t(dofs.num_nodes), 0.0);
  return bc;
}

nlohmann::json capacitor_readouts(const Mesh&, const BoundarySetup& bc, const Parameters& p,
                                  const std::vector<double>& u, const HostCsr<double>* K) {
  nlohmann::json out;
  if (!K || bc.values.empty()) return out;
  const double lo = *std::min_element(bc.values.begin(), bc.values.end());
  const double hi = *std::max_element(bc.values.begin(), bc.values.end());
  const double W = field_energy(*K, u);
  out["field_energy"] = W;
  out["potential_difference"] = hi - lo;
  out["capacitance_per_depth"] = hi > lo ? capacitance_per_depth(W, hi - lo) : 0.0;
  out["ideal_capacitance_per_depth"] = ideal_capacitance_per_depth(p.permittivity);
  return out;
}
}  // namespace

const std::vector<Problem>& registry() {
  static const std::vector<Problem> problems = {
      {"cantilever", Physics::elasticity, components_of(Physics::elasticity), "displacement",
       "cantilever load, bc.dirichlet", false, cantilever_loads, cantilever_readouts},
      {"capacitor", Physics::electrostatics, components_of(Physics::electrostatics), "potential", "capacitor",
       true, capacitor_loads, capacitor_readouts},
  };
  return problems;
}

const Problem& problem_for(const std::string& name) {
  const auto& all = registry();
  for (const Problem& p : all)
    if (name == name_of(p.physics)) return p;  // the first problem of the physics
  for (const Problem& p : all)
    if (name == p.name) return p;
  std::string physics, names;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const bool first_of_physics = std::none_of(all.begin(), all.begin() + long(i),
                                               [&](const Problem& q) { return q.physics == all[i].physics; });
    if (first_of_physics)
      physics += (physics.empty() ? "" : ", ") + std::string(name_of(all[i].physics)) + " -> " + all[i].name;
    names += (names.empty() ? "" : ", ") + std::string(all[i].name);
  }
  throw InputError("unknown problem '" + name + "' (known: the physics " + physics + "; the problems " +
                   names + ")");
}

BoundarySetup boundary_setup(const Problem& problem, const Mesh& mesh, const DofMap& dofs,
                             const Parameters& p) {
  BoundarySetup bc = problem.loads(mesh, dofs, p);
  if (!p.dirichlet.empty()) {
    FixedDofs f = fixed_dofs_by_name(mesh, dofs, problem.components, p.dirichlet, p.source);
    bc.fixed = std::move(f.dofs);
    bc.values = std::move(f.values);
    bc.name = problem.named_name;
  }
  return bc;
}
}  // namespace kfem::problems
