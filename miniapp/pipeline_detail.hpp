// What the three paths of a point share: pipeline.cpp (DOF graph + CSR assembly), pipeline_acoo.cpp
// (a-COO, no graph) and pipeline_ebe.cpp (element-by-element CG). Their device set-up is the
// library's (kfem/pipeline/setup.hpp); verification and the solve's inputs and read-outs are here.
#pragma once
#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kfem/core/backends.hpp"
#include "kfem/assembly/problem.hpp"
#include "kfem/assembly/reference.hpp"
#include "kfem/pipeline/setup.hpp"
#include "kfem/pipeline/verify.hpp"
#include "kfem/core/types.hpp"
#include "kfem/fe/family.hpp"
#include "kfem/fe/operator.hpp"
#include "kfem/report/stats.hpp"
#include "kfem/report/timing.hpp"
#include "kfem/solve/cg.hpp"
#include "kfem/sparsity/csr.hpp"
#include "model.hpp"
#include "pipeline.hpp"

namespace kfem::app::detail {
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
auto make_operator(const Deck& deck) {
  if constexpr (std::is_same_v<Family, fe::Tri3>) {
    return fe::Electrostatics<S>{S(deck.permittivity)};
  } else {
    const auto m = Isotropic<double>::from_young(deck.young, deck.poisson);
    return fe::Elasticity<S>{Isotropic<S>{S(m.lambda), S(m.mu)}};
  }
}

// The deck's colouring method (assembly.coloring: greedy | device).
inline pipeline::ColoringMethod coloring_method(const Deck& deck) {
  return deck.coloring == "device" ? pipeline::ColoringMethod::device : pipeline::ColoringMethod::greedy;
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

// CG on a constrained CSR (full, or its lower triangle); u receives the solution.
template <class Exec, class S>
CgResult csr_cg(const Exec& exec, const CsrGraph<typename Exec::memory_space>& A,
                const Kokkos::View<S*, typename Exec::memory_space>& values,
                const Kokkos::View<S*, typename Exec::memory_space>& rhs, bool lower, const Deck& deck,
                std::vector<double>& u) {
  const Kokkos::View<S*, typename Exec::memory_space> x("kfem::u", A.num_rows);
  CgOptions opts{deck.tolerance, deck.max_iterations};
  opts.symmetric_storage = lower;  // y = (L + L^T - D) x on the lower triangle
  const CgResult cg = conjugate_gradient(exec, A, values, rhs, x, opts);
  u = to_host_vector(x);
  return cg;
}

// Device bytes of an assembled CSR: values, pattern (row map + columns) and the target's index.
nlohmann::json csr_memory(const Model& model, std::int64_t nnz, ordinal_t rows, int scalar_bytes,
                          double index_bytes_per_element);

// What every solve reports, whichever operator: the problem, CG's iterations and times, the
// problem's read-outs (solution_summary, K: the full matrix before constraints or null), the
// difference to req.reference; writes output.export_solution when req.exports.
nlohmann::json solve_report(const Model& model, const Deck& deck, const PointRequest& req, const CgResult& cg,
                            const std::vector<double>& u, const HostCsr<double>* K);

// The point of race acoo (pipeline_acoo.cpp).
nlohmann::json acoo_point(const Model& model, const Deck& deck, const PointRequest& req,
                          const Oracle& oracle);
// The point on req.comm's ranks (pipeline_mpi.cpp): verification, exports and the problem's
// read-outs on rank 0, which alone needs the oracle. Throws InputError, alike on every rank, for
// what is not distributed (a-COO, EbE operators, lower storage) or more ranks than elements.
nlohmann::json distributed_point(const Model& model, const Deck& deck, const PointRequest& req,
                                 const Oracle& oracle);
// The solve of an EbE operator (pipeline_ebe.cpp) on the point's problem; K as in solve_report.
nlohmann::json ebe_solve(const Model& model, const Deck& deck, const PointRequest& req, const HostCsr<double>* K);
}  // namespace kfem::app::detail
