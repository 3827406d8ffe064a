#include "commands.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "kfem/core/error.hpp"
#include "kfem/mesh/gmsh.hpp"
#include "kfem/report/context.hpp"
#include "kfem/report/timing.hpp"
#include "names.hpp"
#include "pipeline.hpp"

namespace kfem::app {
using nlohmann::json;
namespace {
using clock = std::chrono::steady_clock;

bool device_backend(const std::string& backend) {
#if defined(KOKKOS_ENABLE_CUDA)
  return backend == "default" || backend == "cuda";
#else
  (void)backend;
  return false;
#endif
}

// Mesh as the deck describes it: generated or read, then distorted and renumbered.
HexMesh build_mesh(const MeshSpec& spec, const Deck& deck, json& info) {
  ScopedRegion r("kfem::setup::mesh");
  const auto t0 = clock::now();
  HexMesh mesh = spec.box ? make_box(*spec.box) : read_gmsh(spec.file);
  if (deck.distort > 0) distort(mesh, deck.distort, deck.seed);
  if (deck.renumber != Renumbering::natural) mesh = renumber_nodes(mesh, node_permutation(mesh, deck.renumber, deck.seed));
  info = {{"name", spec.name}, {"elements", mesh.num_elements()}, {"nodes", mesh.num_nodes()},
          {"dofs", mesh.num_dofs()},
          {"renumber", name_of(deck.renumber)},
          {"distort", deck.distort},
          {"generate_s", std::chrono::duration<double>(clock::now() - t0).count()}};
  if (spec.box) info["box"] = {spec.box->nx, spec.box->ny, spec.box->nz};
  return mesh;
}

Oracle make_oracle(const HexMesh& mesh, const Deck& deck) {
  Oracle o;
  if (long(mesh.num_elements()) > deck.verify_limit) return o;
  ScopedRegion r("kfem::oracle");
  const auto t0 = clock::now();
  o.matrix = assemble_reference(mesh, Isotropic<double>::from_young(deck.young, deck.poisson));
  o.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  return o;
}

// Writes JSON through a temporary file so an interrupted run never leaves half a file.
void write_json(const std::string& path, const json& j) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    if (!f) throw InputError(path + ": cannot write report");
    f << j.dump(2) << "\n";
    if (!f) throw InputError(path + ": write failed");
  }
  std::filesystem::rename(tmp, path);
}

std::string fmt_time(double s) { return s < 1e-3 ? fmt::format("{:.1f} us", s * 1e6) : s < 1 ? fmt::format("{:.3f} ms", s * 1e3) : fmt::format("{:.2f} s", s); }

PointRequest first_point(const Deck& deck) {
  const bool dev = device_backend(deck.backend);
  return {mapping_from_name(deck.mappings.front(), dev), race_from_name(deck.races.front(), dev), deck.scalars.front(),
          deck.backend};
}
}  // namespace

int cmd_info() {
  const json ctx = run_context(true);
  fmt::print("{}\n", context_summary(ctx));
  fmt::print("mappings: {}\nraces:    {}\n", fmt::join(mapping_names(), " "), fmt::join(race_names(), " "));
  return 0;
}

int cmd_run(const Deck& deck) {
  json mesh_info;
  const HexMesh mesh = build_mesh(deck.meshes.front(), deck, mesh_info);
  if (!deck.export_mesh.empty()) write_gmsh(mesh, deck.export_mesh);
  const Oracle oracle = make_oracle(mesh, deck);
  PointRequest req = first_point(deck);
  req.timed = true;
  req.solve = deck.solve;
  json res = run_point(mesh, deck, req, oracle);
  const json& a = res["assembly"]["stats"];
  fmt::print("kfem run: {}\n", deck.source);
  fmt::print("  mesh          {}: {} elements, {} nodes, {} DOFs, {} nonzeros\n", mesh_info["name"].get<std::string>(),
             mesh.num_elements(), mesh.num_nodes(), mesh.num_dofs(), res["nnz"].get<long>());
  fmt::print("  strategy      {} x {} in {} on {}\n", res["mapping"].get<std::string>(), res["race"].get<std::string>(),
             res["scalar"].get<std::string>(), res["backend"].get<std::string>());
  fmt::print("  setup         graph {}, element data {}\n", fmt_time(res["setup"]["graph_s"]), fmt_time(res["setup"]["element_data_s"]));
  fmt::print("  assembly      median {} (min {}, max {}, {} runs) = {:.3g} elements/s\n", fmt_time(a["median"]),
             fmt_time(a["min"]), fmt_time(a["max"]), a["count"].get<int>(), res["rates"]["elements_per_s"].get<double>());
  const json& v = res["verification"];
  fmt::print("  verification  {}", v["status"].get<std::string>());
  if (v.contains("max_rel")) fmt::print(" (max abs diff {:.3g}, max rel diff {:.3g})", v["max_abs"].get<double>(), v["max_rel"].get<double>());
  fmt::print("\n");
  if (res.contains("solve")) {
    const json& s = res["solve"];
    fmt::print("  CG            {} iterations, relative residual {:.3g}, {}{}\n", s["cg_iterations"].get<int>(),
               s["cg_relative_residual"].get<double>(), fmt_time(s["cg_s"]), s["cg_converged"].get<bool>() ? "" : " (NOT converged)");
    fmt::print("  tip deflection {:.6e} m (Timoshenko beam {:.6e} m)\n", s["tip_deflection_m"].get<double>(),
               s["timoshenko_tip_deflection_m"].get<double>());
  }
  const std::string report = deck.report.empty() ? "kfem-report.json" : deck.report;
  write_json(report, {{"kfem_report", 1}, {"command", "run"}, {"deck", deck.source}, {"context", run_context(false)},
                      {"mesh", mesh_info}, {"point", res}});
  fmt::print("  report        {}\n", report);
  const bool ok = res["verification"]["status"] != "FAILED" && (!res.contains("solve") || res["solve"]["cg_converged"].get<bool>());
  return ok ? 0 : 1;
}

int cmd_verify(const Deck& deck) {
  int failures = 0;
  for (const auto& spec : deck.meshes) {
    json mesh_info;
    const HexMesh mesh = build_mesh(spec, deck, mesh_info);
    Deck d = deck;
    d.verify_limit = std::numeric_limits<long>::max();  // verify always consults the oracle
    const Oracle oracle = make_oracle(mesh, d);
    for (const auto& sc : deck.scalars)
      for (const auto& mn : deck.mappings)
        for (const auto& rn : deck.races) {
          const bool dev = device_backend(deck.backend);
          PointRequest req{mapping_from_name(mn, dev), race_from_name(rn, dev), sc, deck.backend, false, false};
          const json res = run_point(mesh, d, req, oracle);
          const json& v = res["verification"];
          const bool ok = v["status"] == "passed";
          failures += !ok;
          fmt::print("{:<8} {:<14} {:<8} {:<6}  max abs diff {:.3e}  max rel diff {:.3e}  {}\n", spec.name, name_of(req.mapping),
                     name_of(req.race), sc, v["max_abs"].get<double>(), v["max_rel"].get<double>(), ok ? "ok" : "FAILED");
        }
  }
  return failures == 0 ? 0 : 1;
}

int cmd_bench(const Deck& deck, const std::string& out_dir) {
  std::filesystem::create_directories(out_dir);
  const std::string path = out_dir + "/results.json";
  const bool dev = device_backend(deck.backend);
  std::vector<PointRequest> plan;
  for (const auto& sc : deck.scalars)
    for (const auto& mn : deck.mappings)
      for (const auto& rn : deck.races) plan.push_back({mapping_from_name(mn, dev), race_from_name(rn, dev), sc, deck.backend});
  const std::size_t total = plan.size() * deck.meshes.size();
  json doc = {{"kfem_results", 1}, {"deck", deck.source}, {"context", run_context(true)}, {"points", json::array()},
              {"models", {{"flops_per_element", model_flops_per_element()},
                          {"bytes", "nnz*s (zeroing) + elements*(24*s + 72*4 + 2*576*s)"},
                          {"hbm_floor", "nnz*s / measured copy bandwidth"}}}};
  const double bw = doc["context"]["copy_bandwidth_gbs"].is_number() ? doc["context"]["copy_bandwidth_gbs"].get<double>() : 0.0;
  const bool tty = isatty(fileno(stderr));
  const auto t0 = clock::now();
  std::size_t done = 0;
  for (const auto& spec : deck.meshes) {
    json mesh_info;
    const HexMesh mesh = build_mesh(spec, deck, mesh_info);
    const Oracle oracle = make_oracle(mesh, deck);
    mesh_info["oracle_s"] = oracle.seconds;
    for (const auto& req : plan) {
      json res = run_point(mesh, deck, req, oracle);
      res["mesh"] = mesh_info;
      // The measured bandwidth is that of the default execution space's memory: compare only its points.
      if (bw > 0 && res["backend"] == doc["context"]["kokkos"]["default_execution_space"])
        res["rates"]["hbm_floor_fraction"] = res["rates"]["value_bytes"].get<double>() / (bw * 1e9) /
                                                       res["assembly"]["stats"]["median"].get<double>();
      doc["points"].push_back(res);
      write_json(path, doc);  // every finished point is on disk
      ++done;
      const double el = std::chrono::duration<double>(clock::now() - t0).count();
      fmt::print(stderr, "{}[{}/{}] {} {} {} {}: {} ({}) elapsed {:.0f} s, remaining ~{:.0f} s{}", tty ? "\r\033[K" : "", done,
                 total, spec.name, name_of(req.mapping), name_of(req.race), req.scalar,
                 fmt_time(res["assembly"]["stats"]["median"]), res["verification"]["status"].get<std::string>(), el,
                 el / done * (total - done), tty ? "" : "\n");
    }
  }
  if (tty) fmt::print(stderr, "\n");
  // Summary table, in sweep order.
  fmt::print("{:<8} {:<6} {:<14} {:<8} {:>12} {:>12} {:>10} {:>9} {:>9}\n", "mesh", "scalar", "mapping", "race", "median",
             "min..max%", "GDOF/s", "floor", "verified");
  for (const auto& p : doc["points"]) {
    const auto& st = p["assembly"]["stats"];
    const double med = st["median"];
    fmt::print("{:<8} {:<6} {:<14} {:<8} {:>12} {:>11.1f}% {:>10.4g} {:>9} {:>9}\n", p["mesh"]["name"].get<std::string>(),
               p["scalar"].get<std::string>(), p["mapping"].get<std::string>(), p["race"].get<std::string>(), fmt_time(med),
               100.0 * (st["max"].get<double>() - st["min"].get<double>()) / med, p["rates"]["gdof_per_s"].get<double>(),
               p["rates"].contains("hbm_floor_fraction") ? fmt::format("{:.2f}", p["rates"]["hbm_floor_fraction"].get<double>()) : "-",
               p["verification"]["status"].get<std::string>());
  }
  fmt::print("results: {}\n", path);
  for (const auto& p : doc["points"])
    if (p["verification"]["status"] == "FAILED") return 1;
  return 0;
}
}  // namespace kfem::app
