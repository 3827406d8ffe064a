// banas' stage sweep (bench.stages): every prism mapping x order x scalar of the deck through the
// library's stage bench (kfem/pipeline/stage_bench.hpp), the stage table and banas' Tables 3-4.
#include <fmt/core.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "commands.hpp"
#include "kfem/core/backends.hpp"
#include "kfem/report/context.hpp"
#include "model.hpp"
#include "names.hpp"
#include "output_files.hpp"

namespace kfem::app {
using nlohmann::json;
namespace {
// Stage medians per element of one point, in µs.
double stage_us(const json& p, const char* stage) {
  return p["stages"][stage]["median_us"].get<double>();
}

// banas Tables 3-4: the kernel parameters per order, from the points of one scalar.
void print_parameter_table(const json& points, const std::string& scalar, const std::vector<int>& orders) {
  const auto find = [&](int p, const std::string& mapping) -> const json* {
    for (const auto& q : points)
      if (q["order"] == p && q["mapping"] == mapping && q["scalar"] == scalar) return &q;
    return nullptr;
  };
  struct Row {
    const char* label;
    MappingKind mapping;
    const char* key;
    double scale;
  };
  using M = MappingKind;
  const Row rows[] = {{"threads per team, REG", M::reg_jac, "team_size", 1},
                      {"threads per team, SHM", M::shm_jac, "team_size", 1},
                      {"parts of Ae, REG", M::reg_jac, "parts", 1},
                      {"parts of Ae, SHM", M::shm_jac, "parts", 1},
                      {"blocks per thread (SHM)", M::shm_jac, "blocks_per_thread", 1},
                      {"team scratch bytes, SHM", M::shm_jac, "scratch_bytes", 1},
                      {"elements per kernel launch", M::reg_jac, "elements_per_launch", 1},
                      {"elements per team", M::reg_jac, "elements_per_team", 1},
                      {"input per launch, JAC [MB]", M::reg_jac, "input_bytes_per_launch", 1e-6},
                      {"input per launch, NOJAC [MB]", M::reg_nojac, "input_bytes_per_launch", 1e-6},
                      {"output per launch [MB]", M::reg_jac, "output_bytes_per_launch", 1e-6},
                      {"gemm: threads per team", M::gemm, "team_size", 1},
                      {"gemm: tile (nodes), tile pairs", M::gemm, "tile", 1},
                      {"gemm: unit", M::gemm, "unit", 1}};
  fmt::print("kernel parameters ({}), as banas Tables 3-4\n{:<32}", scalar, "");
  for (const int p : orders) fmt::print(" {:>9}", fmt::format("p={}", p));
  fmt::print("\n");
  for (const Row& r : rows) {
    fmt::print("{:<32}", r.label);
    for (const int p : orders) {
      const json* q = find(p, name_of(r.mapping));
      const json* v =
          q && (*q)["kernel_parameters"].contains(r.key) ? &(*q)["kernel_parameters"][r.key] : nullptr;
      std::string cell = "-";
      if (v && v->is_string()) cell = v->get<std::string>() == "vector" ? "vector" : "fp64-mma";
      if (v && v->is_number() && r.scale == 1) cell = fmt::format("{}", v->get<long>());
      if (v && r.scale != 1) cell = fmt::format("{:.2f}", v->get<double>() * r.scale);
      if (v && std::string(r.key) == "tile")
        cell += fmt::format(",{}", (*q)["kernel_parameters"]["tile_pairs"].get<int>());
      fmt::print(" {:>9}", cell);
    }
    fmt::print("\n");
  }
}
}  // namespace

int bench_stages(const Deck& deck, const std::string& out_dir) {
  std::filesystem::create_directories(out_dir);
  const std::string path = out_dir + "/results.json";
  json doc = {{"kfem_results", 1},
              {"deck", deck.source},
              {"context", run_context(true)},
              {"points", json::array()},
              {"kind", "stages"},
              {"models",
               {{"paper_flops", "banas: 63 flops per 3x3 block and quadrature point"},
                {"executed_flops", "counted from each kernel's code"}}}};
  std::size_t total = 0, done = 0;
  for (const int p : deck.orders)
    total += deck.scalars.size() * deck.mappings.size() * meshes_for(deck, p).size();
  const auto t0 = std::chrono::steady_clock::now();
  for (const int order : deck.orders)
    for (const auto& spec : meshes_for(deck, order)) {
      Deck at_order = deck;
      at_order.order = order;
      const Model model = build_model(spec, at_order, std::nullopt);  // no DOF graph: nothing to check
      const StageOracle oracle = make_stage_oracle(model, deck);
      for (const auto& sc : deck.scalars)
        for (const auto& mn : deck.mappings) {
          PointRequest req{mapping_from_name(mn, is_device_backend(deck.backend), model.mesh.cell),
                           RaceKind::colored, TargetKind::index, scalar_named(sc),
                           backend_named(deck.backend)};
          json res = run_stages_point(model, deck, req, oracle);
          res["mesh"] = model.info;
          doc["points"].push_back(res);
          write_json(path, doc);  // every finished point is on disk
          const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          ++done;
          fmt::print(stderr, "[{}/{}] p={} {} {} {}: kernel {:.4g} us/element ({}) elapsed {:.0f} s\n", done,
                     total, order, spec.name, mn, sc, stage_us(res, "kernel"),
                     res["verification"]["status"].get<std::string>(), el);
        }
    }
  fmt::print("{:<3} {:<6} {:<10} {:>10} {:>10} {:>10} {:>11} {:>10} {:>11} {:>9} {:>9} {:>7} {:>9}\n", "p",
             "scalar", "mapping", "prep us", "init us", "h2d us", "kernel us", "d2h us", "total us",
             "GF/s pap", "GF/s exe", "%peak", "verified");
  for (const auto& q : doc["points"]) {
    const json& r = q["rates"];
    fmt::print(
        "{:<3} {:<6} {:<10} {:>10.4g} {:>10.4g} {:>10.4g} {:>11.4g} {:>10.4g} {:>11.4g} {:>9.1f} {:>9.1f} "
        "{:>7} {:>9}\n",
        q["order"].get<int>(), q["scalar"].get<std::string>(), q["mapping"].get<std::string>(),
        stage_us(q, "prepare"), stage_us(q, "init"), stage_us(q, "h2d"), stage_us(q, "kernel"),
        stage_us(q, "d2h"), stage_us(q, "total"), r["paper_gflop_per_s"].get<double>(),
        r["executed_gflop_per_s"].get<double>(),
        r.contains("paper_peak_fraction")
            ? fmt::format("{:.1f}", 100 * r["paper_peak_fraction"].get<double>())
            : "-",
        q["verification"]["status"].get<std::string>());
  }
  for (const auto& sc : deck.scalars) print_parameter_table(doc["points"], sc, deck.orders);
  return finish_bench(path, doc["points"]);
}
}  // namespace kfem::app
