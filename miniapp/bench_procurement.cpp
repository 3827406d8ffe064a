// kfem bench with bench.procurement: one validated figure of merit for a machine, as HPCG's rating
// is for CG. On all N launched ranks (one device each), the hex8 cantilever weak-scaled to
// bench.procurement.elements_per_rank per rank (mesh4's 512x64x64 by default, the beam N times
// longer):
//   1. every candidate strategy (assembly.mapping x assembly.race) assembles the verification mesh
//      (bench.procurement.verify_mesh per rank, stretched alike) on the same ranks and is compared
//      with the serial oracle; those that fail are out;
//   2. the verified candidates are timed on the scored mesh (one warm-up, three runs); the fastest
//      median wins;
//   3. the winner is timed with the deck's repetitions, then CG (Jacobi) runs to solver.tolerance.
// Score: assembled GDOF/s (global DOFs / assembly median) and CG GFLOP/s (2 nnz + 13 n flops per
// iteration: one SpMV, Jacobi, three dot products and norms, three axpby), in total and per rank.
// Valid only if the winner verified, the scored matrix did not fail its check, CG reached its
// tolerance, at least 5 timed runs were made and their spread stayed within max_spread.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>

#include "bench_ranks.hpp"
#include "commands.hpp"
#include "kfem/core/error.hpp"
#include "kfem/parallel/abort.hpp"
#include "output_files.hpp"
#include "points.hpp"

namespace kfem::app {
using nlohmann::json;
namespace {
constexpr int min_repetitions = 5;

double median_of(const json& p) {
  return p["assembly"]["stats"]["median"].get<double>();
}
std::string label(const Strategy& s) {
  return s.mapping + " x " + s.race + " (" + s.scalar + ")";
}

// The conditions of a valid score, each with what was measured; empty `failed` = valid.
json conditions(const json& chosen_check, const json& scored, const Deck& deck, double max_spread,
                std::vector<std::string>& failed) {
  const json& st = scored["assembly"]["stats"];
  const double spread = (st["max"].get<double>() - st["min"].get<double>()) / st["median"].get<double>();
  const json& s = scored["solve"];
  const auto cond = [&](const char* name, bool ok, json measured, json required) {
    if (!ok) failed.push_back(name);
    return json{{"name", name}, {"ok", ok}, {"measured", measured}, {"required", required}};
  };
  return json::array(
      {cond("verification", chosen_check["verification"]["status"] == "passed",
            chosen_check["verification"]["status"],
            "passed on the verification mesh, same ranks and strategy"),
       cond("scored_matrix", scored["verification"]["status"] != "FAILED", scored["verification"]["status"],
            "passed, or skipped above bench.verify_limit"),
       cond("residual", s["cg_converged"].get<bool>(), s["cg_relative_residual"], deck.tolerance),
       cond("repetitions", st["count"].get<int>() >= min_repetitions, st["count"], min_repetitions),
       cond("spread", spread <= max_spread, spread, max_spread)});
}
}  // namespace

int bench_procurement(const Deck& given, const std::string& out_dir) {
  const parallel::Comm world = parallel::Comm::world();
  const bool root = world.rank() == 0;
  const ProcurementSpec& spec = *given.procurement;
  const int n = world.size();
  Deck deck = given;
  deck.problem = "elasticity";  // the cantilever: fixed at x = 0, loaded at the tip
  const MeshSpec per_rank = beam_of(spec.elements_per_rank);
  const MeshSpec scored_mesh = stretched(per_rank, n);
  MeshSpec check_mesh = parse_mesh_name(spec.verify_mesh);
  check_mesh = stretched(check_mesh, n);
  std::vector<Strategy> candidates;
  for (const auto& mn : deck.mappings)
    for (const auto& rn : deck.races)
      if (goes_with(mn, rn)) candidates.push_back({mn, rn, deck.scalars.front(), deck.halos.front()});
  check_strategies(deck, scored_mesh, candidates);

  const std::string path = out_dir + "/results.json";
  json doc = results_header(world, deck, "procurement");
  const auto keep = [&](json p, const char* phase) {
    if (!root) return p;
    p["phase"] = phase;
    doc["points"].push_back(p);
    or_abort_all(world, [&] { write_json(path, doc); });
    return p;
  };

  // 1. every candidate on the verification mesh, the same ranks
  Deck once = deck;
  once.warmup = 0, once.repetitions = 1;
  once.verify_limit = std::numeric_limits<long>::max();
  std::vector<json> checks;
  std::vector<int> verified;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    checks.push_back(keep(point_on_ranks(world, n, check_mesh, once, candidates[i], false), "verify"));
    std::int64_t ok = root && checks.back()["verification"]["status"] == "passed";
    if (world.max(ok) > 0) verified.push_back(int(i));
    if (root)
      fmt::print(stderr, "verify  {:<34} on {}: {}\n", label(candidates[i]), check_mesh.name,
                 checks.back()["verification"]["status"].get<std::string>());
  }
  if (verified.empty()) {
    if (root) fmt::print("kfem figure of merit: NO SCORE: no candidate strategy passed verification\n");
    if (root)
      or_abort_all(world, [&] {
        finish_bench(path, doc["points"], true);
        fmt::print(stderr,
                   "kfem: error: no score: none of the {} candidate strategies passed verification on {}; "
                   "the first: {}\n",
                   candidates.size(), check_mesh.name, verification_failure(checks.front(), check_mesh.name));
      });
    return 1;
  }

  // 2. the verified candidates timed on the scored mesh; the fastest median wins (rank 0 decides)
  Deck quick = deck;
  quick.warmup = 1, quick.repetitions = 3;
  quick.verify_limit = 0;  // verified in step 1; the oracle of a large mesh would cost more than the runs
  int best = verified.front();
  double best_s = std::numeric_limits<double>::infinity();
  for (const int i : verified) {
    const json p = keep(point_on_ranks(world, n, scored_mesh, quick, candidates[i], false), "select");
    if (!root) continue;
    fmt::print(stderr, "select  {:<34} on {}: {}\n", label(candidates[i]), scored_mesh.name,
               fmt_time(median_of(p)));
    if (p["verification"]["status"] != "FAILED" && median_of(p) < best_s) best = i, best_s = median_of(p);
  }
  world.broadcast_bytes(&best, sizeof best, 0);

  // 3. the winner, fully timed, then CG to the tolerance
  const json scored = keep(point_on_ranks(world, n, scored_mesh, deck, candidates[best], true), "score");
  if (!root) return int(world.max(std::int64_t(0)));
  const int failed = or_abort_all(world, [&] {
    std::vector<std::string> broken;
    const json conds = conditions(checks[std::size_t(best)], scored, deck, spec.max_spread, broken);
    const double t = median_of(scored), dofs = scored["dofs"].get<double>(),
                 nnz = scored["nnz"].get<double>();
    const json& s = scored["solve"];
    const double iters = s["cg_iterations"].get<double>(), cg_s = s["cg_s"].get<double>();
    const double gdofs = dofs / t * 1e-9;
    const double cg_gflops = cg_s > 0 ? (2 * nnz + 13 * dofs) * iters / cg_s * 1e-9 : 0.0;
    json fom = {{"valid", broken.empty()},
                {"conditions", conds},
                {"ranks", n},
                {"strategy",
                 {{"mapping", candidates[best].mapping},
                  {"race", candidates[best].race},
                  {"scalar", candidates[best].scalar},
                  {"backend", scored["backend"]}}},
                {"mesh", scored_mesh.name},
                {"elements", scored["mesh"]["elements"]},
                {"dofs", dofs},
                {"nnz", nnz},
                {"assembly_median_s", t},
                {"cg_iterations", iters},
                {"cg_s", cg_s},
                {"cg_flops_per_iteration", "2 nnz + 13 n"},
                {"includes",
                 "assembly: zero values + element work + scatter, the slowest rank per run; CG: "
                 "every iteration, halo exchanges and reductions included"}};
    if (broken.empty()) {
      fom["assembled_gdof_per_s"] = gdofs;
      fom["assembled_gdof_per_s_per_rank"] = gdofs / n;
      fom["cg_gflop_per_s"] = cg_gflops;
      fom["cg_gflop_per_s_per_rank"] = cg_gflops / n;
    }
    doc["figure_of_merit"] = fom;
    write_json(path, doc);
    fmt::print("kfem bench (procurement): {} on {} rank{} ({})\n", deck.source, n, n == 1 ? "" : "s",
               scored["backend"].get<std::string>());
    fmt::print("  mesh          {}: {} hex8 elements, {:.0f} DOFs, {:.0f} nonzeros ({} per rank)\n",
               scored_mesh.name, scored["mesh"]["elements"].get<long>(), dofs, nnz, per_rank.name);
    fmt::print("  strategy      {}, the fastest of {} verified of {} candidates\n", label(candidates[best]),
               verified.size(), candidates.size());
    fmt::print("  assembly      median {} ({} runs)\n", fmt_time(t),
               scored["assembly"]["stats"]["count"].get<int>());
    fmt::print("  CG            {:.0f} iterations to relative residual {:.3g}, {}\n", iters,
               s["cg_relative_residual"].get<double>(), fmt_time(cg_s));
    const auto shown = [](const json& v) {
      return v.is_number_float() ? fmt::format("{:.3g}", v.get<double>())
             : v.is_string()     ? v.get<std::string>()
                                 : v.dump();
    };
    for (const json& c : conds)
      fmt::print("  condition     {:<14} {}  measured {}, required {}\n", c["name"].get<std::string>(),
                 c["ok"].get<bool>() ? "ok  " : "FAIL", shown(c["measured"]), shown(c["required"]));
    if (broken.empty())
      fmt::print(
          "kfem figure of merit: {:.4g} assembled GDOF/s ({:.4g} per rank), {:.4g} CG GFLOP/s ({:.4g} per "
          "rank) on {} rank{}: VALID\n",
          gdofs, gdofs / n, cg_gflops, cg_gflops / n, n, n == 1 ? "" : "s");
    else
      fmt::print("kfem figure of merit: NO SCORE: failed {}\n", fmt::join(broken, ", "));
    // One stderr line says why the exit is 1: the failed conditions, else finish_bench's.
    const bool failed_points = finish_bench(path, doc["points"], !broken.empty()) != 0;
    if (!broken.empty()) {
      std::vector<std::string> why;
      for (const json& c : conds)
        if (!c["ok"].get<bool>())
          why.push_back(fmt::format("{} (measured {}, required {})", c["name"].get<std::string>(),
                                    shown(c["measured"]), shown(c["required"])));
      fmt::print(stderr, "kfem: error: no score: failed {}\n", fmt::join(why, ", "));
    }
    return failed_points || !broken.empty() ? 1 : 0;
  });
  return int(world.max(std::int64_t(failed)));
}
}  // namespace kfem::app
