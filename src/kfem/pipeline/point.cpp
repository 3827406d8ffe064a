#include "kfem/pipeline/point.hpp"

#include <fmt/core.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "kfem/assembly/make_assembler.hpp"
#include "kfem/assembly/reference.hpp"
#include "kfem/coloring/device_coloring.hpp"
#include "kfem/core/backends.hpp"
#include "kfem/io/matrix_market.hpp"
#include "kfem/io/vtu.hpp"
#include "kfem/mesh/gmsh.hpp"
#include "kfem/pipeline/point_detail.hpp"
#include "kfem/problems/dirichlet.hpp"
#include "kfem/report/stats.hpp"
#include "kfem/report/timing.hpp"
#include "kfem/solve/bsr_operator.hpp"
#include "kfem/solve/solver.hpp"
#include "kfem/sparsity/bsr.hpp"
#include "kfem/sparsity/lower.hpp"

namespace kfem::pipeline {
using nlohmann::json;

// tour: models
double model_flops_per_element(const Model& model) {
  const fe::HostReference& r = model.reference;
  if (model.mesh.cell == CellType::hex8)  // kept as the hex8 reports always counted it:
    // per Gauss point: J (9 entries x 8 nodes x 2) = 144, inverse + det ~ 45, 8 gradients x 15 = 120;
    // per node block (64 of them): dot 5 + 9 entries x 6 + 3 diagonal adds = 62.
    return 8.0 * (144 + 45 + 120 + 64 * 62);
  // Per point: J (2 V D^2), inverse + det (45 in 3D, 8 in 2D), N gradients (2 N D^2), N^2 pairs of
  // D^2 products (2 D^2 each); per pair: the block formula of the family's operator
  // (fe/operator.hpp's block_flops: elasticity 57, electrostatics D + 1).
  const double D = r.dim, V = r.vertices, N = r.nsh;
  const double per_point = 2 * V * D * D + (r.dim == 3 ? 45 : 8) + 2 * N * D * D + N * N * 2 * D * D;
  double block = 0;
  fe::with_family(model.mesh.cell, [&](auto family) {
    using Op = decltype(detail::make_operator<decltype(family), double>(std::declval<const Settings&>()));
    block = Op::block_flops(r.dim);
  });
  return r.nq * per_point + N * N * block;
}

double model_bytes(const Model& model, std::int64_t nnz, int scalar_bytes, double index_bytes_per_element) {
  // zeroing the values once; per element: vertex coordinates, the index data of the target (hex8's
  // 72 slots, a generic index's N^2 + N slots, or the node list a search reads), and one read and
  // one write of every Ke entry
  const fe::HostReference& r = model.reference;
  const double ke = double(r.nsh) * model.components * r.nsh * model.components;
  return double(nnz) * scalar_bytes +
         double(model.mesh.num_elements()) *
             (r.vertices * r.dim * scalar_bytes + index_bytes_per_element + 2 * ke * scalar_bytes);
}
// tour: end models

namespace {
// y = K x on the assembled storage (full: Kokkos Kernels spmv; lower: symmetric_spmv), timed like
// the assembly (y poisoned before each run) and checked against verify.hpp's matrix_products of the
// same stored entries (double sums on the device): max |y - Kx| / max (|K| |x|).
// Op: the storage's operator (CsrOperator on A, or BsrOperator on blocks whose expansion A holds).
template <class Exec, class S, class Op>
json time_spmv(const Exec& exec, const CsrGraph<typename Exec::memory_space>& A,
               const Kokkos::View<S*, typename Exec::memory_space>& values, bool lower,
               const Settings& settings, const Op& A_op, const std::string& label) {
  using Vec = Kokkos::View<S*, Kokkos::Device<Exec, typename Exec::memory_space>>;
  const ordinal_t n = A.num_rows;
  Vec x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::spmv_x"), n), y("kfem::spmv_y", n);
  auto hx = Kokkos::create_mirror_view(x);
  for (ordinal_t i = 0; i < n; ++i) hx(i) = S(std::sin(0.37 * i + 1.0));  // no zeros, no pattern
  Kokkos::deep_copy(x, hx);
  ScopedRegion r("kfem::spmv");
  const std::vector<double> samples = time_repeated(
      exec, settings.warmup, settings.repetitions,
      [&] { Kokkos::deep_copy(exec, y, std::numeric_limits<S>::quiet_NaN()); }, [&] { A_op.apply(x, y); });
  json out = {{"operator", label}, {"samples_s", samples}, {"stats", summarize(samples)}};
  const auto [diff, scale] = product_difference(
      exec, matrix_products(exec, A, values, lower, as_double_column(exec, x)), as_double_column(exec, y));
  out["max_rel_vs_host"] = scale > 0 ? diff / scale : diff;
  return out;
}

template <class Exec, class S, class Family>
json point(const Exec& exec, const Model& model, const Settings& settings, const PointRequest& req,
           const Oracle& oracle) {
  using Mem = typename Exec::memory_space;
  json out, setup;
  Problem<Exec> p;
  const auto start = std::chrono::steady_clock::now();  // of first_matrix_s
  detail::GraphAssembly<Exec, S> prepared =
      detail::prepare_graph_assembly<Exec, S, Family>(exec, model, settings, req, p, setup);
  const std::unique_ptr<AssemblerBase<Exec, S>>& assembler = prepared.assembler;
  const Kokkos::View<S*, Mem>& values = prepared.values;
  out["setup"] = setup;
  out.update(detail::strategy_fields<Exec>(req, settings));
  out["index_bytes_per_element"] = assembler->index_bytes_per_element();
  // Symmetric mappings fill the lower triangle (columns <= row) only.
  const bool lower = assembler->lower();
  const CsrGraph<Mem>& target = lower ? p.lower : p.graph.dof;
  // Block storage: `values` holds the C x C blocks of `node` (the node graph, or its lower triangle
  // for lower block storage); verification, the export and the read-outs take them expanded into the
  // DOF pattern's CSR values (`matrix`, on `target`), which are released before the solve.
  const bool blocks = facts_of(req.storage).blocks;
  const CsrGraph<Mem>& node = p.block_pattern(lower);
  const int C = p.graph.components;
  const offset_t nnz = target.nnz();
  out["storage"] = name_of(req.storage);

  // tour: timed-assembly
  // Timed assembly. Every run zeroes its values itself, inside its time. Before the first run and
  // before the last, whose values are verified, the values are poisoned with NaN, so a run that
  // skips its own zeroing or leaves entries unwritten cannot pass verification (nor one that left
  // NaN behind for the runs after it). A poison before each run would add a fill of the whole
  // matrix per run to the wait: about 47 ms for mesh1's 221 MB on 2 cores, 4.8 ms for mesh4's
  // 4.1 GB on an H200.
  // The first run, timed alone, is the first warm-up. first_matrix_s is what a user waits for from a
  // mesh on the host to the first values on the device: the wall time from the set-up's start to
  // this run's end, the poison left out. It holds the setup stages, this run and the host work
  // between them (the memory check, the assembler's construction).
  std::vector<double> samples;
  {
    ScopedRegion r("kfem::assembly");
    const auto poison = [&] { Kokkos::deep_copy(exec, values, std::numeric_limits<S>::quiet_NaN()); };
    const double poison_s = time_fenced(exec, poison);
    out["first_assembly_s"] = time_fenced(exec, [&] { assembler->assemble(values); });
    out["first_matrix_s"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() - poison_s;
    const int warmup = req.timed ? std::max(0, settings.warmup - 1) : 0;
    const int reps = req.timed ? settings.repetitions : 1;
    int runs_left = warmup + reps;
    samples = time_repeated(
        exec, warmup, reps,
        [&] {
          if (--runs_left == 0) poison();
        },
        [&] { assembler->assemble(values); });
  }
  const Stats st = summarize(samples);
  out["assembly"] = {
      {"samples_s", samples}, {"stats", st}, {"includes", "zero values + element work + scatter"}};
  // tour: end timed-assembly
  out["nnz"] = nnz;
  out["dofs"] = p.num_dofs();
  if (req.timed && req.diagnostics) {  // nothing written, so nothing to reset between runs
    ScopedRegion r("kfem::element_computation");
    const std::vector<double> c = time_repeated(
        exec, settings.warmup, settings.repetitions, [] {}, [&] { assembler->compute_only(values); });
    out["element_computation"] = {{"samples_s", c},
                                  {"stats", summarize(c)},
                                  {"includes",
                                   "the assembly kernels over all elements with every add discarded (no "
                                   "index reads, no writes, no zeroing)"}};
  }

  // The matrix comes to the host only for what reads it there: the export, the read-outs of a
  // problem that need it (the capacitor's field energy) and the entry-by-entry check. A mesh near the
  // device's capacity would not fit twice in host memory (30 M hex8 elements: 87 GB of values and columns in
  // double).
  const bool export_matrix = !settings.export_matrix.empty() && req.exports;
  const bool energy = req.solve && problem_of(settings).readouts_need_matrix && !lower;
  Kokkos::View<S*, Mem> matrix = values;
  double expand_s = 0;
  if (blocks) {
    matrix = Kokkos::View<S*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::expanded"), nnz);
    expand_s =
        time_fenced(exec, [&] { expand_blocks<Exec, S>(exec, node, target, C, values, matrix, lower); });
  }
  std::optional<HostCsr<S>> got;
  if (export_matrix || energy) got = to_host(target, matrix);
  {
    ScopedRegion r("kfem::verify");
    const auto t0 = std::chrono::steady_clock::now();
    out["verification"] = pipeline::verification(exec, target, matrix, lower, oracle);
    if (!oracle.empty())
      out["verification"]["check_s"] =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (blocks) out["verification"]["expand_s"] = expand_s;  // blocks -> CSR values, before the check
  }
  if (export_matrix) write_matrix_market(settings.export_matrix, *got, lower);
  if (req.timed && req.diagnostics) {
    if (blocks && lower) {
      out["spmv"] = time_spmv(exec, target, matrix, lower, settings,
                              BsrOperator<Exec, S>(node, C, values, BsrApply::kfem, lower),
                              "lower block storage, kfem's bsr_symmetric_spmv (y = (L + L^T - D) x)");
    } else if (blocks) {
      out["spmv"] = time_spmv(
          exec, target, matrix, lower, settings, BsrOperator<Exec, S>(node, C, values, BsrApply::kfem),
          std::string("block storage, kfem's bsr_spmv (") + describe(bsr_spmv_kernel_for<Exec>(C)) + ")");
      // The same blocks through Kokkos Kernels' BsrMatrix. Solves run the faster measured of the two
      // on the backend (BsrApply::automatic); both stay timed here, so a new device shows which.
      out["spmv_kokkos_kernels"] = time_spmv(exec, target, matrix, lower, settings,
                                             BsrOperator<Exec, S>(node, C, values, BsrApply::kokkos_kernels),
                                             "block storage, Kokkos Kernels' BsrMatrix spmv");
    } else
      out["spmv"] = time_spmv(
          exec, target, values, lower, settings, CsrOperator<Exec, S>(target, values, lower),
          lower ? "lower triangle, symmetric_spmv (y = (L + L^T - D) x)" : "full, Kokkos Kernels spmv");
  }
  matrix = {};

  if (req.solve) {
    ScopedRegion r("kfem::solve");
    const std::optional<HostCsr<double>> K = energy ? detail::full_matrix(*got, lower) : std::nullopt;
    if (req.solve_with != SolveOperator::csr) {
      out["solve"] = detail::ebe_solve(model, settings, req, K ? &*K : nullptr);
    } else {
      const auto in = detail::solve_inputs<S, Mem>(req);
      std::vector<double> u;
      double bc_s = 0;
      SolveResult cg;
      if (blocks) {
        bc_s = time_fenced(
            exec, [&] { apply_dirichlet_blocks(exec, node, C, values, in.rhs, in.fixed, in.values, lower); });
        cg = detail::bsr_solve(exec, node, C, values, in.rhs, lower, settings, u);
      } else {
        bc_s = time_fenced(exec, [&] { apply_dirichlet(exec, target, values, in.rhs, in.fixed, in.values); });
        cg = detail::csr_solve(exec, target, values, in.rhs, lower, settings, model.components, u);
      }
      out["solve"] = detail::solve_report(model, settings, req, cg, u, K ? &*K : nullptr);
      out["solve"]["dirichlet_s"] = bc_s;
      out["solve"]["memory"] = blocks ? detail::bsr_memory(model, node.nnz(), node.num_rows, C, sizeof(S),
                                                           assembler->index_bytes_per_element())
                                      : detail::csr_memory(model, nnz, target.num_rows, sizeof(S),
                                                           assembler->index_bytes_per_element());
    }
  }
  return out;
}
}  // namespace

namespace detail {
json bsr_memory(const Model& model, std::int64_t blocks, ordinal_t node_rows, int C, int scalar_bytes,
                double index_bytes_per_element) {
  const double ne = double(model.mesh.num_elements());
  const double values = double(blocks) * C * C * scalar_bytes;
  const double graph = double(node_rows + 1) * sizeof(offset_t) + double(blocks) * sizeof(ordinal_t);
  const double index = index_bytes_per_element * ne;
  return {
      {"values_bytes", values},
      {"graph_bytes", graph},
      {"index_bytes", index},
      {"bytes_per_element", (values + graph + index) / ne},
      {"includes", "block values + node pattern (row map, block columns) + the target's per-element index"}};
}

json csr_memory(const Model& model, std::int64_t nnz, ordinal_t rows, int scalar_bytes,
                double index_bytes_per_element) {
  const double ne = double(model.mesh.num_elements());
  const double values = double(nnz) * scalar_bytes;
  const double graph = double(rows + 1) * sizeof(offset_t) + double(nnz) * sizeof(ordinal_t);
  const double index = index_bytes_per_element * ne;
  return {{"values_bytes", values},
          {"graph_bytes", graph},
          {"index_bytes", index},
          {"bytes_per_element", (values + graph + index) / ne},
          {"includes", "CSR values + pattern (row map, columns) + the target's per-element index"}};
}

namespace {
// check_loaded let b through (a load on a free DOF, or a nonzero prescribed value), yet CG sees
// ||b|| = 0, or its first step's p.Ap rounds to 0: b underflows in S against the stiffness' scale.
// A problem CG cannot state, not a solve that failed: the command fails and writes nothing.
void check_rhs_representable(const SolveResult& cg, const BoundarySetup& bc, const PointRequest& req) {
  const bool first_step_underflows = cg.rhs_norm > 0 && std::isfinite(cg.rhs_norm) && cg.iterations == 0 &&
                                     !cg.converged && cg.curvature == 0;
  if (cg.rhs_norm != 0 && !first_step_underflows) return;  // NaN: a CG failure, said by the command
  double load = 0, value = 0;
  for (const double f : bc.rhs) load = std::max(load, std::abs(f));
  for (const double v : bc.values) value = std::max(value, std::abs(v));
  throw std::runtime_error(fmt::format(
      "CG ({}): the load vector underflows in {}: ||b|| = {:.3g}{} (nodal loads up to {:.3g}, prescribed "
      "values up to {:.3g}): nothing to solve (rescale the mesh, the load or the prescribed values)",
      name_of(req.solve_with), name_of(req.scalar), cg.rhs_norm,
      cg.rhs_norm == 0 ? " although the loads are not all 0" : ", and CG's first step p.Ap rounds to 0", load,
      value));
}
}  // namespace

json solve_report(const Model& model, const Settings& settings, const PointRequest& req,
                  const SolveResult& cg, const std::vector<double>& u, const HostCsr<double>* K) {
  const BoundarySetup& bc = *req.boundary;
  check_rhs_representable(cg, bc, req);
  json out = {{"problem", bc.name},
              {"operator", name_of(req.solve_with)},
              {"fixed_dofs", bc.fixed.size()},
              {"cg_iterations", cg.iterations},
              {"cg_relative_residual", cg.relative_residual},
              {"cg_converged", cg.converged},
              {"cg_s", cg.seconds},
              {"cg_s_per_iteration", cg.iterations > 0 ? cg.seconds / cg.iterations : 0.0},
              {"cg_iteration_s", cg.iterations > 0 ? cg.iterations_seconds / cg.iterations : 0.0},
              {"cg_setup_s", cg.seconds - cg.iterations_seconds},
              {"method", cg.method},
              {"preconditioner", name_of(settings.preconditioner)},
              {"iterations", cg.iterations},
              {"setup_s", cg.setup_seconds()},
              {"time_to_solution_s", cg.seconds},
              {"tolerance", settings.tolerance}};
  // The recurrence is a property of kfem's own CG methods; another solver (amg) has none to report.
  if (std::string(cg.method) == solver::CgSingleReduction::name || std::string(cg.method) == solver::Cg::name)
    out["cg_recurrence"] =
        std::string(cg.method) == solver::CgSingleReduction::name ? "single reduction" : "classic";
  out.update(solution_summary(model, settings, bc, u, K));
  if (req.reference) {  // max |u - u_ref| / max |u_ref|: entries near zero judged on the solution's scale
    double diff = 0, scale = 0;
    for (std::size_t i = 0; i < u.size(); ++i) {
      diff = std::max(diff, std::abs(u[i] - req.reference->u[i]));
      scale = std::max(scale, std::abs(req.reference->u[i]));
      if (std::isnan(u[i])) diff = INFINITY;
    }
    out["reference"] = req.reference->method;
    out["relative_difference_vs_reference"] = scale > 0 ? diff / scale : diff;
  }
  if (req.exports && !settings.export_solution.empty())
    write_solution(settings.export_solution, model, settings, u);
  return out;
}
}  // namespace detail

json run_point(const Model& model, const Settings& settings, const PointRequest& req, const Oracle& oracle) {
  json result;
  if (req.comm && req.comm->size() > 1) {
    result = detail::distributed_point(model, settings, req, oracle);
  } else if (facts_of(req.storage).path == storage::Path::row_lists) {
    result = detail::acoo_point(model, settings, req, oracle);
  } else {
    detail::with_point_types(model, req, [&](auto exec, auto s, auto family) {
      result = point<decltype(exec), decltype(s), decltype(family)>(exec, model, settings, req, oracle);
    });
  }
  with_backend(req.backend, [&](auto exec) { result["backend"] = decltype(exec)::name(); });
  result["family"] = model.info["family"];
  result["order"] = model.dofs.order;
  result["mapping"] = name_of(req.mapping);
  result["race"] = req.storage == StorageKind::acoo ? acoo_race : name_of(req.race);
  result["scalar"] = name_of(req.scalar);
  const double t = result["assembly"]["stats"]["median"].get<double>();
  const double ne = double(model.mesh.num_elements());
  const int sb = bytes_of(req.scalar);
  const std::int64_t nnz = result["nnz"].get<std::int64_t>();
  result["rates"] = {
      {"elements_per_s", ne / t},
      {"gdof_per_s", double(result["dofs"].get<std::int64_t>()) / t * 1e-9},
      {"model_gflop_per_s", ne * model_flops_per_element(model) / t * 1e-9},
      {"model_gbyte_per_s",
       model_bytes(model, nnz, sb, result["index_bytes_per_element"].get<double>()) / t * 1e-9},
      {"value_bytes", double(nnz) * sb}};
  return result;
}
}  // namespace kfem::pipeline
