#include "pipeline.hpp"

#include <Kokkos_Core.hpp>
#include <chrono>
#include <cmath>
#include <limits>
#include <type_traits>

#include "backend.hpp"
#include "kfem/assembly/assembler.hpp"
#include "kfem/coloring/device_coloring.hpp"
#include "kfem/io/matrix_market.hpp"
#include "kfem/io/vtu.hpp"
#include "kfem/mesh/gmsh.hpp"
#include "kfem/report/stats.hpp"
#include "kfem/report/timing.hpp"
#include "kfem/solve/beam.hpp"
#include "kfem/solve/boundary.hpp"
#include "kfem/solve/cg.hpp"
#include "names.hpp"

namespace kfem::app {
using nlohmann::json;

double model_flops_per_element() {
  // Per Gauss point: J (9 entries x 8 nodes x 2) = 144, inverse + det ~ 45, 8 gradients x 15 = 120;
  // per node block (64 of them): dot 5 + 9 entries x 6 + 3 diagonal adds = 62.
  return 8.0 * (144 + 45 + 120 + 64 * 62);
}

double model_bytes(std::int64_t elements, std::int64_t nnz, int scalar_bytes) {
  // zeroing the values once, per element 24 coordinates + 72 CSR-index ints read, 576 values read and written
  return double(nnz) * scalar_bytes + double(elements) * (24.0 * scalar_bytes + 72 * 4 + 2 * 576.0 * scalar_bytes);
}

namespace {
// y = K x on the assembled storage (full: Kokkos Kernels spmv; lower: symmetric_spmv), timed like
// the assembly (y poisoned before each run) and checked against a host product with the verified matrix.
template <class Exec, class S>
json time_spmv(const Exec& exec, const CsrGraph<typename Exec::memory_space>& A,
               const Kokkos::View<S*, typename Exec::memory_space>& values, const HostCsr<S>& host, bool lower,
               const Deck& deck) {
  using Vec = Kokkos::View<S*, Kokkos::Device<Exec, typename Exec::memory_space>>;
  const ordinal_t n = A.num_rows;
  Vec x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::spmv_x"), n), y("kfem::spmv_y", n);
  auto hx = Kokkos::create_mirror_view(x);
  for (ordinal_t i = 0; i < n; ++i) hx(i) = S(std::sin(0.37 * i + 1.0));  // no zeros, no pattern
  Kokkos::deep_copy(x, hx);
  const auto apply = stiffness_operator<Exec>(A, values, lower);
  ScopedRegion r("kfem::spmv");
  const std::vector<double> samples = time_repeated(
      exec, deck.warmup, deck.repetitions,
      [&] { Kokkos::deep_copy(exec, y, std::numeric_limits<S>::quiet_NaN()); }, [&] { apply(x, y); });
  std::vector<double> ref(n, 0.0);  // host product in double with the same stored entries
  for (ordinal_t i = 0; i < n; ++i)
    for (offset_t k = host.row_map[i]; k < host.row_map[i + 1]; ++k) {
      const ordinal_t j = host.cols[k];
      ref[i] += double(host.vals[k]) * double(hx(j));
      if (lower && j != i) ref[j] += double(host.vals[k]) * double(hx(i));
    }
  auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  double diff = 0, scale = 0;
  for (ordinal_t i = 0; i < n; ++i) {
    diff = std::max(diff, std::abs(double(hy(i)) - ref[i]));
    scale = std::max(scale, std::abs(ref[i]));
    if (std::isnan(double(hy(i)))) diff = INFINITY;
  }
  return {{"operator", lower ? "lower triangle, symmetric_spmv (y = (L + L^T - D) x)" : "full, Kokkos Kernels spmv"},
          {"samples_s", samples}, {"stats", summarize(samples)},
          {"max_rel_vs_host", scale > 0 ? diff / scale : diff}};
}

template <class M, class = void>
struct has_elements_per_team : std::false_type {};
template <class M>
struct has_elements_per_team<M, std::void_t<decltype(M::elements_per_team)>> : std::true_type {};

template <class Exec, class S>
json point(const Exec& exec, const HexMesh& mesh, const Deck& deck, const PointRequest& req, const Oracle& oracle) {
  using Mem = typename Exec::memory_space;
  json out, setup;
  const auto material = Isotropic<double>::from_young(deck.young, deck.poisson);
  const Isotropic<S> m{S(material.lambda), S(material.mu)};

  Problem<Exec> p;
  {
    ScopedRegion r("kfem::setup::mesh_to_device");
    setup["mesh_to_device_s"] = time_fenced(exec, [&] { p.mesh = to_device(exec, mesh); });
  }
  {
    ScopedRegion r("kfem::setup::graph");
    setup["graph_s"] = time_fenced(exec, [&] { p.graph = build_dof_graph(exec, p.mesh.conn, p.mesh.num_nodes); });
    setup["lower_graph_s"] = time_fenced(exec, [&] { p.lower = lower_triangle(exec, p.graph.dof); });
  }
  p.natural = Kokkos::View<ordinal_t*, Mem>("kfem::natural_order", mesh.num_elements());
  Kokkos::parallel_for("kfem::iota", Kokkos::RangePolicy<Exec>(exec, 0, mesh.num_elements()),
                       KOKKOS_LAMBDA(ordinal_t e) { p.natural(e) = e; });
  bool colored = false;
  dispatch<RaceRegistry>(req.race, [&](auto race) { colored = decltype(race)::needs_coloring; });
  if (colored) {
    ScopedRegion r("kfem::setup::coloring");
    Coloring c;
    if (deck.coloring == "device") {
      setup["coloring_s"] = time_fenced(exec, [&] { c = device_coloring(exec, p.mesh.conn, p.mesh.num_nodes); });
    } else {  // the host colouring does not depend on the backend: computed once per mesh
      if (!oracle.greedy) oracle.greedy_seconds = time_fenced(exec, [&] { oracle.greedy = greedy_coloring(mesh); });
      c = *oracle.greedy;
      setup["coloring_s"] = oracle.greedy_seconds;
    }
    setup["coloring_method"] = deck.coloring;
    setup["colors"] = c.num_colors();
    const std::string bad = check_coloring(mesh, c);
    if (!bad.empty()) throw std::runtime_error("invalid colouring: " + bad);
    set_coloring(exec, p, std::move(c));
  }

  std::unique_ptr<AssemblerBase<Exec, S>> assembler;
  int ept_used = 0;
  {
    ScopedRegion r("kfem::setup::element_data");
    setup["element_data_s"] = time_fenced(exec, [&] {
      dispatch<MappingRegistry>(req.mapping, [&](auto mapping) {
        dispatch<RaceRegistry>(req.race, [&](auto race) {
          auto tuned = mapping;  // warp mappings: elements (warps) per team on a GPU, the deck's tunable
          if constexpr (has_elements_per_team<decltype(mapping)>::value) {
            tuned.elements_per_team = deck.elements_per_team;
            ept_used = lanes::on_host<Exec> ? 1 : deck.elements_per_team;
          }
          assembler = std::make_unique<Assembler<Exec, decltype(mapping), decltype(race), S>>(exec, p, m, tuned);
        });
      });
    });
  }
  out["setup"] = setup;
  if (ept_used > 0) out["elements_per_team"] = ept_used;
  // Symmetric mappings fill the lower triangle (columns <= row) only.
  const bool lower = assembler->lower();
  const CsrGraph<Mem>& target = lower ? p.lower : p.graph.dof;
  const offset_t nnz = target.nnz();
  Kokkos::View<S*, Mem> values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::values"), nnz);
  out["storage"] = lower ? "lower" : "full";

  // Timed assembly. Before every run (warm-up included) the values are poisoned with NaN so a
  // run that skips its own zeroing or leaves entries unwritten cannot pass verification.
  std::vector<double> samples;
  {
    ScopedRegion r("kfem::assembly");
    const auto poison = [&] { Kokkos::deep_copy(exec, values, std::numeric_limits<S>::quiet_NaN()); };
    samples = time_repeated(exec, req.timed ? deck.warmup : 0, req.timed ? deck.repetitions : 1, poison,
                            [&] { assembler->assemble(values); });
  }
  const Stats st = summarize(samples);
  out["assembly"] = {{"samples_s", samples}, {"stats", st}, {"includes", "zero values + element work + scatter"}};
  out["nnz"] = nnz;
  out["dofs"] = p.num_dofs();
  if (req.timed) {  // nothing written, so nothing to reset between runs
    ScopedRegion r("kfem::element_computation");
    const std::vector<double> c = time_repeated(exec, deck.warmup, deck.repetitions, [] {}, [&] { assembler->compute_only(values); });
    out["element_computation"] = {{"samples_s", c}, {"stats", summarize(c)},
                                  {"includes", "the assembly kernels over all elements with every add discarded (no index reads, no writes, no zeroing)"}};
  }

  // Verification against the oracle (or an explicit 'skipped' when the mesh is too large for it).
  HostCsr<S> got;
  {
    ScopedRegion r("kfem::verify");
    got = to_host(target, values);
  }
  const double tol = std::is_same<S, float>::value ? 1e-5 : 1e-12;
  if (oracle.matrix) {
    if (lower && !oracle.lower) oracle.lower = lower_part(*oracle.matrix);
    const MatrixDiff d = compare(got, lower ? *oracle.lower : *oracle.matrix);
    out["verification"] = {{"status", d.same_pattern && d.max_rel <= tol ? "passed" : "FAILED"},
                           {"max_abs", d.max_abs}, {"max_rel", d.max_rel}, {"max_entry_rel", d.max_entry_rel},
                           {"same_pattern", d.same_pattern}, {"tolerance", tol},
                           {"oracle_s", oracle.seconds}};
  } else {
    out["verification"] = {{"status", "skipped"}, {"reason", "mesh above bench.verify_limit"}};
  }
  if (!deck.export_matrix.empty() && req.solve) write_matrix_market(deck.export_matrix, got, lower);
  if (req.timed) out["spmv"] = time_spmv(exec, target, values, got, lower, deck);

  if (req.solve) {
    ScopedRegion r("kfem::solve");
    const CantileverLoad bc = cantilever_load(mesh, deck.force);
    Kokkos::View<S*, Mem> rhs("kfem::rhs", p.num_dofs()), u("kfem::u", p.num_dofs());
    auto h_rhs = Kokkos::create_mirror_view(rhs);
    for (std::size_t i = 0; i < bc.force.size(); ++i) h_rhs(i) = S(bc.force[i]);
    Kokkos::deep_copy(rhs, h_rhs);
    Kokkos::View<ordinal_t*, Mem> fixed("kfem::fixed", bc.fixed_dofs.size()), tip("kfem::tip", bc.tip_nodes.size());
    Kokkos::deep_copy(fixed, Kokkos::View<const ordinal_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                 bc.fixed_dofs.data(), bc.fixed_dofs.size()));
    Kokkos::deep_copy(tip, Kokkos::View<const ordinal_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                               bc.tip_nodes.data(), bc.tip_nodes.size()));
    const double bc_s = time_fenced(exec, [&] { apply_dirichlet(exec, target, values, rhs, fixed); });
    CgOptions opts{deck.tolerance, deck.max_iterations};
    opts.symmetric_storage = lower;  // y = (L + L^T - D) x on the lower triangle
    const CgResult cg = conjugate_gradient(exec, target, values, rhs, u, opts);
    const double tipz = tip_deflection(exec, u, tip);
    double lx = 0, ly = 0, lz = 0;  // bounding box for the beam-theory comparison
    {
      std::array<double, 3> lo = mesh.nodes[0], hi = mesh.nodes[0];
      for (const auto& x : mesh.nodes)
        for (int j = 0; j < 3; ++j) lo[j] = std::min(lo[j], x[j]), hi[j] = std::max(hi[j], x[j]);
      lx = hi[0] - lo[0], ly = hi[1] - lo[1], lz = hi[2] - lo[2];
    }
    out["solve"] = {{"dirichlet_s", bc_s}, {"cg_iterations", cg.iterations}, {"cg_relative_residual", cg.relative_residual},
                    {"cg_converged", cg.converged}, {"cg_s", cg.seconds}, {"tolerance", deck.tolerance},
                    {"tip_deflection_m", tipz},
                    {"timoshenko_tip_deflection_m", -timoshenko_tip_deflection(deck.force, lx, ly, lz, deck.young, deck.poisson)}};
    if (!deck.export_solution.empty()) {
      auto hu = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
      write_vtu(deck.export_solution, mesh, std::vector<double>(hu.data(), hu.data() + hu.extent(0)));
    }
  }
  return out;
}
}  // namespace

json run_point(const HexMesh& mesh, const Deck& deck, const PointRequest& req, const Oracle& oracle) {
  json result;
  with_backend(req.backend, [&](auto exec) {
    with_scalar(req.scalar, [&](auto s) {
      using Exec = decltype(exec);
      result = point<Exec, decltype(s)>(exec, mesh, deck, req, oracle);
      result["backend"] = Exec::name();
    });
  });
  result["mapping"] = name_of(req.mapping);
  result["race"] = name_of(req.race);
  result["scalar"] = req.scalar;
  const double t = result["assembly"]["stats"]["median"].get<double>();
  const double ne = double(mesh.num_elements());
  const int sb = req.scalar == "float" ? 4 : 8;
  const std::int64_t nnz = result["nnz"].get<std::int64_t>();
  result["rates"] = {{"elements_per_s", ne / t},
                     {"gdof_per_s", double(result["dofs"].get<std::int64_t>()) / t * 1e-9},
                     {"model_gflop_per_s", ne * model_flops_per_element() / t * 1e-9},
                     {"model_gbyte_per_s", model_bytes(mesh.num_elements(), nnz, sb) / t * 1e-9},
                     {"value_bytes", double(nnz) * sb}};
  return result;
}
}  // namespace kfem::app
