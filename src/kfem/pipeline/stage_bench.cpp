#include "kfem/pipeline/stage_bench.hpp"

#include <fmt/core.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "kfem/assembly/assembler.hpp"
#include "kfem/assembly/element_matrices.hpp"
#include "kfem/assembly/family_data.hpp"
#include "kfem/assembly/lanes.hpp"
#include "kfem/assembly/make_assembler.hpp"
#include "kfem/assembly/reference.hpp"
#include "kfem/assembly/strategies.hpp"
#include "kfem/core/backends.hpp"
#include "kfem/core/error.hpp"
#include "kfem/core/fill.hpp"
#include "kfem/core/staging.hpp"
#include "kfem/fe/elasticity.hpp"
#include "kfem/fe/lagrange_basis.hpp"
#include "kfem/report/context.hpp"
#include "kfem/report/stats.hpp"
#include "kfem/report/timing.hpp"

namespace kfem::pipeline {
using nlohmann::json;

double paper_flops_per_element(const Model& model) {
  const fe::HostReference& r = model.reference;
  return 63.0 * r.nq * double(r.nsh) * r.nsh;
}

StageOracle make_stage_oracle(const Model& model, const Settings& settings) {
  if (!lagrange::has_basis(model.mesh.cell) || problem_of(settings).physics != problems::Physics::elasticity)
    throw InputError(
        settings.source +
        ": bench.stages integrates P_p elasticity element matrices of prisms or tetrahedra; mesh '" +
        model.info.value("name", std::string("?")) + "' is not a prism or tet mesh with problem elasticity");
  StageOracle o;
  const ordinal_t ne = ordinal_t(model.mesh.num_elements());
  for (const ordinal_t e : {ordinal_t(0), ne / 3, 2 * ne / 3, ne - 1})
    if (std::find(o.elements.begin(), o.elements.end(), e) == o.elements.end()) o.elements.push_back(e);
  const auto m = Isotropic<double>::from_young(settings.young, settings.poisson);
  const lagrange::Basis& basis = lagrange::tabulate(model.mesh.cell, model.dofs.order);
  const auto t0 = std::chrono::steady_clock::now();
  for (const ordinal_t e : o.elements) {
    o.matrices.emplace_back();
    reference_lagrange_matrix(basis, cell_coords(model.mesh, e), m, o.matrices.back());
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return o;
}

namespace {
// Kernel parameters and the flops the kernel executes per element, as the mapping reports them
// (MappingTraits::stage_parameters); a mapping that reports none runs the node-pair formulation of
// model_flops_per_element.
template <class Exec, class S, class M>
std::pair<json, double> kernel_parameters(const Model& model, ordinal_t launch, bool symmetric) {
  StageQuery q;
  q.nsh = model.reference.nsh, q.nq = model.reference.nq, q.vertices = 6, q.launch = launch;
  q.symmetric = symmetric;
  q.geometry_flops = 2.0 * 6 * 3 * 3 + 45,
  q.combination_flops = 57;  // as model_flops_per_element counts them
  const StageParameters sp = MappingTraits<M>::template stage_parameters<Exec, S>(q);
  json k = {{"team_scratch_max_bytes", Kokkos::TeamPolicy<Exec>::scratch_size_max(0)}};
  for (const auto& [key, count] : sp.counts) k[key] = count;
  for (const auto& [key, flag] : sp.flags) k[key] = flag;
  for (const auto& [key, label] : sp.labels) k[key] = label;
  const double flops =
      sp.executed_flops_per_element > 0 ? sp.executed_flops_per_element : model_flops_per_element(model);
  return {k, flops};
}

template <class Exec, class S, class M>
json stages(const Exec& exec, const Model& model, const Settings& settings, const StageOracle& oracle) {
  using Mem = typename Exec::memory_space;
  using Host = typename HostStaging<Exec>::space;
  using Layout = typename M::layout;
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  constexpr int D = 3, V = 6, G = 1 + D * D;
  constexpr bool nojac = MappingTraits<M>::host_geometry;
  const Mesh& mesh = model.mesh;
  const ordinal_t ne = ordinal_t(mesh.num_elements());
  const int nq = model.reference.nq;
  const std::size_t N = 3 * std::size_t(model.reference.nsh), ke = N * N;
  const std::size_t in_scalars = nojac ? std::size_t(nq) * G : std::size_t(V) * D;  // per element

  // Elements per launch: the Ae output (and the inputs) of one launch fill the budget, as banas
  // fill the GPU memory.
  const bool device = !on_host<Exec>;
  const std::optional<DeviceInfo> dev = device ? device_info() : std::nullopt;
  double budget =
      settings.launch_bytes > 0 ? settings.launch_bytes : double(device ? 16ull << 30 : 1ull << 30);
  if (settings.launch_bytes <= 0 && dev && dev->free_bytes > 0)
    budget = std::min(budget, 0.5 * double(dev->free_bytes));
  const double per_element = double(ke + in_scalars) * sizeof(S);
  const ordinal_t launch = ordinal_t(std::min(double(ne), std::floor(budget / per_element)));
  if (launch < 1)
    throw InputError("bench.launch_bytes: " + std::to_string(budget) + " bytes hold no element matrix of " +
                     std::to_string(per_element) + " bytes");
  const ordinal_t launches = (ne + launch - 1) / launch;
  M mapping{};
  if constexpr (MappingTraits<M>::has_symmetric_blocks) mapping.symmetric_blocks = settings.symmetric_blocks;
  auto [params, executed] = kernel_parameters<Exec, S, M>(model, launch, settings.symmetric_blocks);
  params.update({{"elements_per_launch", launch},
                 {"launches", launches},
                 {"launch_budget_bytes", budget},
                 {"input_bytes_per_launch", double(launch) * in_scalars * sizeof(S)},
                 {"output_bytes_per_launch", double(launch) * ke * sizeof(S)},
                 {"input", nojac ? "w det J and J^-1 per point (NOJAC)" : "vertex coordinates (JAC)"}});

  // The application's host arrays (page-locked for CUDA), allocated once, outside the stages.
  const Kokkos::View<S*, Host> hin(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::stages_input"),
                                   std::size_t(ne) * in_scalars);
  const Kokkos::View<S*, Host> hout(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::stages_ae"),
                                    std::size_t(launch) * ke);
  const auto href = fe::to_device<fe::Lagrange, double>(Kokkos::DefaultHostExecutionSpace(), model.reference);
  const auto m = Isotropic<double>::from_young(settings.young, settings.poisson);
  const fe::Elasticity<S> op{Isotropic<S>{S(m.lambda), S(m.mu)}};
  const auto chunk = [&](ordinal_t c) { return std::min(launch, ne - c * launch); };
  using Coords = Kokkos::View<S**, Layout, Kokkos::Device<Exec, Mem>, Unmanaged>;
  using HostCoords = Kokkos::View<S**, Layout, Host, Unmanaged>;
  using Jac = Kokkos::View<S***, Kokkos::LayoutRight, Kokkos::Device<Exec, Mem>, Unmanaged>;
  using HostJac = Kokkos::View<S***, Kokkos::LayoutRight, Host, Unmanaged>;

  std::vector<double> prep, init, h2d, kernel, d2h, total;
  double worst = 0;
  for (int rep = 0; rep < settings.warmup + settings.repetitions; ++rep) {
    double t_prep = 0, t_init = 0, t_h2d = 0, t_kernel = 0, t_d2h = 0;
    {  // (1) input data on the host: JAC the vertices, NOJAC the Jacobian terms of every point
      ScopedRegion r("kfem::stages::prepare");
      const auto t0 = std::chrono::steady_clock::now();
      for (ordinal_t c = 0; c < launches; ++c) {
        S* const base = hin.data() + std::size_t(c) * launch * in_scalars;
        const HostCoords hc(base, chunk(c), V * D);
        const HostJac hj(base, chunk(c), nq, G);
        for (ordinal_t i = 0; i < chunk(c); ++i) {
          const ordinal_t e = c * launch + i;
          const CellCoords P = cell_coords(mesh, e);
          double X[V * D];
          for (int v = 0; v < V; ++v)
            for (int k = 0; k < D; ++k) X[v * D + k] = P[v][k] - P[0][k];
          if constexpr (nojac) {
            const int bad = host_jacobian_terms<fe::Lagrange>(
                href, X, [&](int q, int j, double x) { hj(i, q, j) = S(x); });
            if (bad >= 0)
              throw InputError("element " + std::to_string(e) + ": det J <= 0 at quadrature point " +
                               std::to_string(bad));
          } else {
            for (int j = 0; j < V * D; ++j) hc(i, j) = S(X[j]);
          }
        }
      }
      t_prep = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    Kokkos::View<S*, Mem> din, dout;
    fe::Reference<fe::Lagrange, S, Mem> ref;
    {  // (2) device memory: inputs and Ae of one launch, Ae zeroed; the reference tables
      ScopedRegion r("kfem::stages::init");
      t_init += time_fenced(exec, [&] {
        din = Kokkos::View<S*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::stages_din"),
                                    std::size_t(launch) * in_scalars);
        dout = Kokkos::View<S*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::stages_dout"),
                                     std::size_t(launch) * ke);
        ref = fe::to_device<fe::Lagrange, S>(exec, model.reference);
      });
    }
    for (ordinal_t c = 0; c < launches; ++c) {
      const ordinal_t count = chunk(c);
      const std::size_t first_in = std::size_t(c) * launch * in_scalars;
      FamilyElements<fe::Lagrange, S, Layout, Mem> els;
      els.num_elements = count;
      els.ref = ref;
      const auto out = Kokkos::subview(dout, std::make_pair(std::size_t(0), std::size_t(count) * ke));
      // banas' "device memory initialization" stage (the kernel overwrites every entry; kept for the model)
      t_init += time_fenced(exec, [&] { fill_zero(exec, out); });
      {
        ScopedRegion r("kfem::stages::h2d");
        t_h2d += time_fenced(exec, [&] {
          if constexpr (nojac) {
            const Jac d(din.data(), count, nq, G);
            Kokkos::deep_copy(exec, d, HostJac(hin.data() + first_in, count, nq, G));
            els.jacobian = d;
          } else {
            const Coords d(din.data(), count, V * D);
            Kokkos::deep_copy(exec, d, HostCoords(hin.data() + first_in, count, V * D));
            els.coords = d;
          }
        });
      }
      {
        ScopedRegion r("kfem::stages::kernel");
        t_kernel +=
            time_fenced(exec, [&] { integrate_element_matrices(exec, mapping, els, op, 0, count, out); });
      }
      {
        ScopedRegion r("kfem::stages::d2h");
        const auto h = Kokkos::subview(hout, std::make_pair(std::size_t(0), std::size_t(count) * ke));
        t_d2h += time_fenced(exec, [&] { Kokkos::deep_copy(exec, h, out); });
      }
      for (std::size_t s = 0; s < oracle.elements.size();
           ++s) {  // sampled Ae of this launch vs the reference
        const ordinal_t e = oracle.elements[s];
        if (e < c * launch || e >= c * launch + count) continue;
        const std::vector<double>& want = oracle.matrices[s];
        double scale = 0, diff = 0;
        for (std::size_t i = 0; i < ke; ++i) {
          const double got = double(hout(std::size_t(e - c * launch) * ke + i));
          scale = std::max(scale, std::abs(want[i]));
          diff = std::isnan(got) ? INFINITY : std::max(diff, std::abs(got - want[i]));
        }
        worst = std::max(worst, scale > 0 ? diff / scale : diff);
      }
    }
    if (rep < settings.warmup) continue;
    prep.push_back(t_prep), init.push_back(t_init), h2d.push_back(t_h2d), kernel.push_back(t_kernel),
        d2h.push_back(t_d2h);
    total.push_back(t_prep + t_init + t_h2d + t_kernel + t_d2h);
  }

  const double tol = std::is_same_v<S, float> ? 1e-5 : 1e-12;
  json out;
  out["kernel_parameters"] = params;
  out["elements"] = ne;
  out["reference_table_bytes"] = double(nq) * (1 + V * D + double(model.reference.nsh) * D) * sizeof(S);
  const auto stage = [&](const std::vector<double>& v) {
    const Stats s = summarize(v);
    return json{{"median_us", s.median / ne * 1e6},
                {"min_us", s.min / ne * 1e6},
                {"max_us", s.max / ne * 1e6},
                {"samples_s", v}};
  };
  out["stages"] = {{"prepare", stage(prep)},
                   {"init", stage(init)},
                   {"h2d", stage(h2d)},
                   {"kernel", stage(kernel)},
                   {"d2h", stage(d2h)},
                   {"total", stage(total)},
                   {"includes",
                    "per element: prepare = host input (JAC vertices, NOJAC w det J + J^-1 per point), "
                    "init = device allocation + Ae zeroing per launch + reference tables, h2d = inputs, "
                    "kernel = integration, d2h = Ae to page-locked host memory; total = their sum per run"}};
  const double kt = summarize(kernel).median;
  const double paper = paper_flops_per_element(model);
  out["flops"] = {{"paper_model_per_element", paper},
                  {"executed_per_element", executed},
                  {"paper_model", "63 per 3x3 block and quadrature point (banas §5.3)"},
                  {"executed",
                   "counted from the kernel's code (its stage_parameters; generic: "
                   "model_flops_per_element)"}};
  json rates = {{"paper_gflop_per_s", paper * ne / kt * 1e-9},
                {"executed_gflop_per_s", executed * ne / kt * 1e-9}};
  if (dev) {
    // The peak of the unit the kernel ran on: gemm in double on CUDA sm_80+ uses the FP64 matrix units.
    const bool matrix = params.value("unit", std::string("vector")) != "vector";
    const double peak = matrix                     ? dev->peak_fp64_matrix_gflops()
                        : std::is_same_v<S, float> ? dev->peak_fp32_gflops()
                                                   : dev->peak_fp64_gflops();
    if (peak > 0) {
      rates["peak_gflop_per_s"] = peak;
      rates["peak"] = matrix ? "fp64 matrix" : std::is_same_v<S, float> ? "fp32 vector" : "fp64 vector";
      rates["paper_peak_fraction"] = paper * ne / kt * 1e-9 / peak;
      rates["executed_peak_fraction"] = executed * ne / kt * 1e-9 / peak;
    }
  }
  out["rates"] = rates;
  out["verification"] = {
      {"status", worst <= tol ? "passed" : "FAILED"},
      {"max_rel", worst},
      {"tolerance", tol},
      {"elements_checked", oracle.elements},
      {"oracle_s", oracle.seconds},
      {"what", "sampled Ae of every run vs reference_lagrange_matrix (double, same quadrature)"}};
  return out;
}

// Generic mappings that serve prisms; a named functor (not a generic lambda) for nvcc.
template <class Exec, class S>
struct StagesFor {
  const Exec& exec;
  const Model& model;
  const Settings& settings;
  const StageOracle& oracle;
  json& result;
  template <class E>
  void operator()(E) const {
    if constexpr (!E::specialised && E::template serves<fe::Lagrange>)
      result = stages<Exec, S, typename E::type>(exec, model, settings, oracle);
    else
      throw InputError("bench.stages: mapping '" + name_of(E::kind) + "' does not integrate prisms");
  }
};
}  // namespace

json run_stages_point(const Model& model, const Settings& settings, const PointRequest& req,
                      const StageOracle& oracle) {
  json result;
  with_backend(req.backend, [&](auto exec) {
    with_scalar(req.scalar, [&](auto s) {
      using Exec = decltype(exec);
      dispatch_entry<MappingRegistry>(req.mapping,
                                      StagesFor<Exec, decltype(s)>{exec, model, settings, oracle, result});
      result["backend"] = Exec::name();
    });
  });
  result["family"] = model.info["family"];
  result["order"] = model.dofs.order;
  result["nsh"] = model.reference.nsh;
  result["nq"] = model.reference.nq;
  result["mapping"] = name_of(req.mapping);
  result["scalar"] = name_of(req.scalar);
  return result;
}
}  // namespace kfem::pipeline
