// The solve of a point with an element-by-element operator (amorim's EbE-FEM): CG on EbeV1 (element
// matrices computed once and kept) or EbeV2 (recomputed in every product); the global matrix is
// never used. It starts from the mesh on the device on its own: no DOF graph, a colouring only for
// coloured products. Dirichlet conditions at element level give the system the CSR path's
// apply_dirichlet makes, so the read-outs (solve_report) match the CSR solve's to solver tolerance.
#include <Kokkos_Core.hpp>
#include <memory>
#include <string>
#include <vector>

#include "kfem/assembly/mapping/team_per_element.hpp"
#include "kfem/assembly/mapping/thread_per_element.hpp"
#include "kfem/pipeline/point_detail.hpp"
#include "kfem/solve/ebe_cg.hpp"
#include "kfem/solve/ebe_operator.hpp"

namespace kfem::pipeline {
using nlohmann::json;
namespace {
// The operators' own default mappings: EbE-v1 computes its stored Ke once with a team per element,
// EbE-v2 recomputes Ke in every product with a thread per element (the paper's).
using V1Mapping = mapping::TeamPerElement;
using V2Mapping = mapping::ThreadPerElement;

template <class Exec, class S, class Family>
json ebe_solve_on(const Exec& exec, const Model& model, const Settings& settings, const PointRequest& req,
                  const HostCsr<double>* K) {
  using Mem = typename Exec::memory_space;
  const auto op = detail::make_operator<Family, S>(settings);
  using Op = std::decay_t<decltype(op)>;
  const bool v1 = req.solve_with == SolveOperator::ebe_v1;
  const EbeRace race = req.ebe_atomic ? EbeRace::atomic : EbeRace::colored;
  json setup;
  Problem<Exec> p;
  pipeline::SetupChoice choice;
  choice.pattern = false;  // products need none
  choice.coloring = race == EbeRace::colored;
  choice.coloring_method = detail::coloring_method(settings);
  {
    pipeline::Setup<Exec> s =
        pipeline::make_setup(exec, model.mesh, model.dofs, model.components, model.orders, choice);
    p = std::move(s.problem);
    setup = std::move(s.times);
  }
  const auto ref = fe::to_device<Family, S>(exec, model.reference);
  std::unique_ptr<EbeOperator<Exec, S>> A;
  setup["operator_s"] = time_fenced(exec, [&] {
    if (v1)
      A = std::make_unique<EbeV1<Exec, Family, Op, S, V1Mapping>>(exec, p, ref, op, race);
    else
      A = std::make_unique<EbeV2<Exec, Family, Op, S, V2Mapping>>(exec, p, ref, op, race);
  });
  const auto in = detail::solve_inputs<S, Mem>(req);
  const double bc_s = time_fenced(exec, [&] { A->apply_dirichlet(exec, in.rhs, in.fixed, in.values); });
  const Kokkos::View<S*, Mem> x("kfem::u", A->num_dofs());
  const SolveResult cg = solve_ebe(exec, *A, in.rhs, x, detail::solver_options(settings, model.components));
  json out = detail::solve_report(model, settings, req, cg, detail::to_host_vector(x), K);
  out["dirichlet_s"] = bc_s;
  out["ebe"] = {{"race", race == EbeRace::atomic ? "atomic" : "colored"},
                {"mapping", v1 ? V1Mapping::name : V2Mapping::name},
                {"launches_per_product", A->num_launches()},
                {"setup", setup}};
  const EbeMemory m = A->memory();
  out["memory"] = {{"element_matrices_bytes", m.element_matrices},
                   {"element_dofs_bytes", m.element_dofs},
                   {"coordinates_bytes", m.coordinates},
                   {"dof_bytes", m.dofs},
                   {"bytes_per_element", m.per_element()},
                   {"includes",
                    "per element: stored Ke (v1), DOF nodes, vertex coordinates (v2); dof_bytes (the "
                    "Dirichlet diagonal) apart"}};
  return out;
}
}  // namespace

namespace detail {
json ebe_solve(const Model& model, const Settings& settings, const PointRequest& req,
               const HostCsr<double>* K) {
  ScopedRegion r("kfem::solve::ebe");
  json out;
  with_point_types(model, req, [&](auto exec, auto s, auto family) {
    out = ebe_solve_on<decltype(exec), decltype(s), decltype(family)>(exec, model, settings, req, K);
  });
  return out;
}
}  // namespace detail
}  // namespace kfem::pipeline
