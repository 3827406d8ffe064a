// What the paths of a point share: point.cpp (DOF graph + CSR assembly), point_acoo.cpp (a-COO, no
// graph), solve_ebe.cpp (element-by-element CG) and point_distributed.cpp (many ranks): the solve's
// inputs and read-outs, and the graph path's set-up (setup.hpp's steps, the check that the rest fits
// in device memory, the point's assembler).
#pragma once
#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kfem/assembly/hex8_element_data.hpp"
#include "kfem/assembly/make_assembler.hpp"
#include "kfem/assembly/problem.hpp"
#include "kfem/assembly/reference.hpp"
#include "kfem/core/backends.hpp"
#include "kfem/core/carve.hpp"
#include "kfem/core/types.hpp"
#include "kfem/fe/family.hpp"
#include "kfem/fe/operator.hpp"
#include "kfem/pipeline/memory.hpp"
#include "kfem/pipeline/model.hpp"
#include "kfem/pipeline/point.hpp"
#include "kfem/pipeline/setup.hpp"
#include "kfem/pipeline/verify.hpp"
#include "kfem/report/context.hpp"
#include "kfem/report/stats.hpp"
#include "kfem/report/timing.hpp"
#include "kfem/solve/bsr_operator.hpp"
#include "kfem/solve/solver.hpp"
#include "kfem/sparsity/csr.hpp"
#include "kfem/sparsity/lower.hpp"

namespace kfem::pipeline::detail {
// f(exec, scalar, family) with the point's execution space, scalar type and the mesh's family.
template <class F>
void with_point_types(const Model& model, const PointRequest& req, F&& f) {
  with_backend(req.backend, [&](auto exec) {
    with_scalar(req.scalar,
                [&](auto s) { fe::with_family(model.mesh.cell, [&](auto family) { f(exec, s, family); }); });
  });
}

// Operator of the run's problem in scalar S: the family decides which one (registry pairs).
template <class Family, class S>
auto make_operator(const Settings& settings) {
  if constexpr (std::is_same_v<Family, fe::Tri3>) {
    return fe::Electrostatics<S>{S(settings.permittivity)};
  } else {
    const auto m = Isotropic<double>::from_young(settings.young, settings.poisson);
    return fe::Elasticity<S>{Isotropic<S>{S(m.lambda), S(m.mu)}};
  }
}

// The deck's colouring method (assembly.coloring: greedy | device).
inline pipeline::ColoringMethod coloring_method(const Settings& settings) {
  return settings.coloring == "device" ? pipeline::ColoringMethod::device : pipeline::ColoringMethod::greedy;
}

// The full matrix before constraints in double, for the energy read-outs (none for lower storage).
template <class S>
std::optional<HostCsr<double>> full_matrix(const HostCsr<S>& got, bool lower) {
  if (lower) return std::nullopt;
  HostCsr<double> K;
  K.num_rows = got.num_rows, K.row_map = got.row_map, K.cols = got.cols;
  K.vals.assign(got.vals.begin(), got.vals.end());
  return K;
}

template <class T, class Mem, class U>
Kokkos::View<T*, Mem> to_device_vector(const std::vector<U>& v, const std::string& label) {
  Kokkos::View<T*, Mem> d(label, v.size());
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < v.size(); ++i) h(i) = T(v[i]);
  Kokkos::deep_copy(d, h);
  return d;
}

template <class View>
std::vector<double> to_host_vector(const View& v) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<double>(h.data(), h.data() + h.extent(0));
}

// The boundary conditions on the device in scalar S: loads, fixed DOFs, their values.
template <class S, class Mem>
struct SolveInputs {
  Kokkos::View<S*, Mem> rhs;
  Kokkos::View<const ordinal_t*, Mem> fixed;
  Kokkos::View<S*, Mem> values;
};
template <class S, class Mem>
SolveInputs<S, Mem> solve_inputs(const PointRequest& req) {
  if (!req.boundary) throw std::logic_error("run_point: solve requested without a boundary setup");
  const BoundarySetup& bc = *req.boundary;
  return {to_device_vector<S, Mem>(bc.rhs, "kfem::rhs"),
          to_device_vector<ordinal_t, Mem>(bc.fixed, "kfem::fixed"),
          to_device_vector<S, Mem>(bc.values, "kfem::fixed_values")};
}

// The solver, its preconditioner and its stopping rules as the deck sets them (solver.*); block
// Jacobi's blocks are a node's `components` DOFs.
inline SolverOptions solver_options(const Settings& settings, int components) {
  return {settings.solver, settings.tolerance, settings.max_iterations, settings.preconditioner, components};
}

// The solver on a constrained CSR (full, or its lower triangle); u receives the solution.
template <class Exec, class S>
SolveResult csr_solve(const Exec& exec, const CsrGraph<typename Exec::memory_space>& A,
                      const Kokkos::View<S*, typename Exec::memory_space>& values,
                      const Kokkos::View<S*, typename Exec::memory_space>& rhs, bool lower,
                      const Settings& settings, int components, std::vector<double>& u) {
  const Kokkos::View<S*, typename Exec::memory_space> x("kfem::u", A.num_rows);
  const SolveResult res = solve_csr(exec, A, values, lower, rhs, x, solver_options(settings, components));
  u = to_host_vector(x);
  return res;
}

// The solver on constrained block storage (blocks on `node`, C per node: the node graph, or its
// lower triangle for lower block storage).
template <class Exec, class S>
SolveResult bsr_solve(const Exec& exec, const CsrGraph<typename Exec::memory_space>& node, int C,
                      const Kokkos::View<S*, typename Exec::memory_space>& values,
                      const Kokkos::View<S*, typename Exec::memory_space>& rhs, bool lower,
                      const Settings& settings, std::vector<double>& u) {
  using Device = Kokkos::Device<Exec, typename Exec::memory_space>;
  const Kokkos::View<S*, Device> x("kfem::u", node.num_rows * C);
  const SolveResult res = solve(exec, BsrOperator<Exec, S>(node, C, values, BsrApply::automatic, lower),
                                Kokkos::View<const S*, Device>(rhs), x, solver_options(settings, C));
  u = to_host_vector(x);
  return res;
}

// Device bytes of an assembled CSR: values, pattern (row map + columns) and the target's index.
nlohmann::json csr_memory(const Model& model, std::int64_t nnz, ordinal_t rows, int scalar_bytes,
                          double index_bytes_per_element);
// The same of block storage: values, node pattern (row map + block columns) and the index.
nlohmann::json bsr_memory(const Model& model, std::int64_t blocks, ordinal_t node_rows, int C,
                          int scalar_bytes, double index_bytes_per_element);

// What every solve reports, whichever operator: the problem, the solver's iterations and times, the
// problem's read-outs (solution_summary, K: the full matrix before constraints or null), the
// difference to req.reference; writes output.export_solution when req.exports.
nlohmann::json solve_report(const Model& model, const Settings& settings, const PointRequest& req,
                            const SolveResult& cg, const std::vector<double>& u, const HostCsr<double>* K);

// The point of race acoo (point_acoo.cpp).
nlohmann::json acoo_point(const Model& model, const Settings& settings, const PointRequest& req,
                          const Oracle& oracle);
// The point on req.comm's ranks (point_distributed.cpp): verification, exports and the problem's
// read-outs on rank 0, which alone needs the oracle. Throws InputError, alike on every rank, for
// what is not distributed (a-COO, EbE operators, lower storage) or more ranks than elements.
nlohmann::json distributed_point(const Model& model, const Settings& settings, const PointRequest& req,
                                 const Oracle& oracle);
// The solve of an EbE operator (solve_ebe.cpp) on the point's problem; K as in solve_report.
nlohmann::json ebe_solve(const Model& model, const Settings& settings, const PointRequest& req,
                         const HostCsr<double>* K);
// A graph point's assembler and its values (uninitialised; lower storage's when the mapping's is).
template <class Exec, class S>
struct GraphAssembly {
  std::unique_ptr<AssemblerBase<Exec, S>> assembler;
  Kokkos::View<S*, typename Exec::memory_space> values;
};

template <class Exec, class S, class Family>
GraphAssembly<Exec, S> prepare_graph_assembly(const Exec& exec, const Model& model, const Settings& settings,
                                              const PointRequest& req, Problem<Exec>& p,
                                              nlohmann::json& setup) {
  const auto op = make_operator<Family, S>(settings);
  pipeline::SetupChoice choice = pipeline::csr_setup(req.mapping, req.race, coloring_method(settings),
                                                     settings.element_order == "morton");
  choice.time_colorings = req.time_colorings;
  choice.share = req.share_pattern;
  // The graph's workspace, kept for the element data stage: the hex8 element-centric paths' element
  // data takes it (on mesh4 on an H200 its allocation and the workspace's free were 0.7 ms each), a
  // mapping with set-up temporaries of its own holds them there. Freed at the end of the stage where
  // not taken.
  using Mem = typename Exec::memory_space;
  const ordinal_t ne = ordinal_t(model.mesh.num_elements());
  bool specialised = false;
  dispatch_entry<MappingRegistry>(req.mapping, [&](auto e) {
    using M = typename decltype(e)::type;
    specialised = decltype(e)::specialised;
    if constexpr (MappingTraits<M>::template has_set_up_scratch<Mem>)
      choice.spare_bytes = MappingTraits<M>::template set_up_scratch<Mem>(ne, model.dofs.num_nodes);
    else if (specialised && !MappingTraits<M>::owner_computes)
      choice.spare_bytes =
          Carve<Mem>::total(Hex8ElementData<S, Kokkos::LayoutRight, Mem>::parts(std::size_t(ne)));
  });
  pipeline::Setup<Exec> s =
      pipeline::make_setup(exec, model.mesh, model.dofs, model.components, model.orders, choice);
  p = std::move(s.problem);
  setup.update(s.times);
  if (facts_of(req.storage).blocks && choice.lower && p.node_lower.num_rows != p.graph.node.num_rows) {
    // Lower block storage's pattern: the node graph's lower triangle (a ninth of the DOF one's size).
    const double t = time_fenced(exec, [&] { p.node_lower = lower_triangle(exec, p.graph.node); });
    setup["lower_graph_s"] = setup.value("lower_graph_s", 0.0) + t;
  }
  if (!on_host<Exec>) {
    // The pattern is resident: what is still to come must fit in what is free now.
    const fe::HostReference& ref = model.reference;
    const MeshCounts counts{std::int64_t(model.mesh.num_elements()), model.dofs.num_nodes, model.components,
                            model.dofs.nodes_per_element, ref.vertices};
    const double per_element = specialised ? hex8_element_data_bytes(sizeof(S))
                                           : generic_element_data_bytes(sizeof(S), ref.vertices, ref.nsh,
                                                                        req.target == TargetKind::index);
    const auto free_bytes = device_free_memory();
    check_point_memory(  // the kept workspace is taken by the element data
        model.info.value("name", std::string("mesh")),
        point_memory(counts, p.graph.dof.nnz(), choice.lower ? p.lower.nnz() : p.graph.dof.nnz(),
                     choice.lower, sizeof(S), per_element, req.solve),
        free_bytes ? double(*free_bytes) + double(p.spare.bytes()) : 0.0);
  }

  GraphAssembly<Exec, S> out;
  ScopedRegion r("kfem::setup::element_data");
  setup["element_data_s"] = time_fenced(exec, [&] {
    const auto ref = fe::to_device<Family, S>(exec, model.reference);
    out.assembler = make_assembler<Exec, Family, S>(
        exec, p, ref, op,
        AssemblerChoice{req.mapping, req.race, req.target, settings.elements_per_team,
                        settings.symmetric_blocks, facts_of(req.storage).blocks});
    p.spare.drop();  // where the element data did not take it
    // The values (mesh4: 4.1 GB) inside the stage, after the element data's launch. A Kokkos 3.4
    // device allocation waits for the kernel, so this hides nothing yet; it sits where a
    // stream-ordered allocator would overlap it (reports/runs/2026-12-01-h200-issue44-reductions).
    // Uninitialised: every assembly zeroes or writes them itself.
    const offset_t nnz = facts_of(req.storage).blocks ? p.block_pattern(out.assembler->lower()).nnz() *
                                                            p.graph.components * p.graph.components
                         : out.assembler->lower() ? p.lower.nnz()
                                                  : p.graph.dof.nnz();
    out.values = decltype(out.values)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::values"), nnz);
  });
  return out;
}

// The setup stages (setup.hpp's setup_stages) a point ran, in seconds.
inline double setup_stages_s(const nlohmann::json& setup) {
  double s = 0;
  for (const SetupStage& st : setup_stages)
    if (setup.contains(st.key)) s += setup[st.key].get<double>();
  return s;
}

// What a report says of the strategy beyond its names: warps per block of the warp mappings, the
// target of the generic ones.
template <class Exec>
nlohmann::json strategy_fields(const PointRequest& req, const Settings& settings) {
  nlohmann::json out = nlohmann::json::object();
  bool specialised = false, warp = false;
  dispatch_entry<MappingRegistry>(req.mapping, [&](auto e) {
    using ME = decltype(e);
    specialised = ME::specialised;
    warp = MappingTraits<typename ME::type>::has_elements_per_team;
  });
  if (warp) out["elements_per_team"] = lanes::in_turn<Exec> ? 1 : settings.elements_per_team;
  if (follows_launch_order(req.mapping, req.race)) out["element_order"] = settings.element_order;
  if (has_symmetric_blocks_kind(req.mapping)) out["symmetric_blocks"] = settings.symmetric_blocks;
  if (!specialised) out["target"] = name_of(req.target);
  return out;
}
}  // namespace kfem::pipeline::detail
