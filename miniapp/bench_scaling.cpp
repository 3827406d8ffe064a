// kfem bench with bench.scaling, under mpirun -np N: weak and strong scaling of assembly and CG on
// 1, 2, 4, ... N ranks of one launch. Each rank count runs on the first k ranks (Comm::first_ranks)
// while the others sleep in a barrier; a weak point stretches the deck's box k times along the beam,
// a strong point keeps it. The table gives the efficiencies against the smallest count:
//   weak:   t(k0) / t(k)          strong: k0 t(k0) / (k t(k))
// for the assembly median (the slowest rank's, each sample) and CG's time per iteration.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <chrono>
#include <cstdio>

#include "bench_ranks.hpp"
#include "commands.hpp"
#include "kfem/core/error.hpp"
#include "kfem/parallel/abort.hpp"
#include "output_files.hpp"
#include "points.hpp"

namespace kfem::app {
using nlohmann::json;
namespace {
double median_of(const json& p) {
  return p["assembly"]["stats"]["median"].get<double>();
}
// One CG iteration, the solve's set-up (paid once per solve, however long) apart.
double cg_per_iteration(const json& p) {
  return p.contains("solve") ? p["solve"]["cg_iteration_s"].get<double>() : 0.0;
}

// Efficiencies of one series (one strategy, one mode) against its first point, into each point.
void add_efficiencies(json& points, const std::vector<std::size_t>& series, bool weak) {
  if (series.empty()) return;
  const json& base = points[series.front()];
  const double k0 = base["ranks"].get<double>(), a0 = median_of(base), c0 = cg_per_iteration(base);
  for (const std::size_t i : series) {
    json& p = points[i];
    const double k = p["ranks"].get<double>(), a = median_of(p), c = cg_per_iteration(p);
    const double scale = weak ? 1.0 : k0 / k;  // strong: the ideal time shrinks with the ranks
    p["scaling"]["assembly_efficiency"] = scale * a0 / a;
    p["scaling"]["cg_iteration_efficiency"] = c > 0 && c0 > 0 ? scale * c0 / c : 0.0;
    p["scaling"]["baseline_ranks"] = k0;
  }
}

void print_table(const json& points) {
  fmt::print("\n{:<6} {:<24} {:>5} {:>10} {:>12} {:>6} {:>12} {:>6} {:>7} {:>12} {:<16} {:>11} {:>10}\n",
             "mode", "strategy", "ranks", "elements", "assembly", "eff", "CG/iter", "eff", "imbal",
             "halo kB/it", "halo/sums via", "1 exchange", "verified");
  for (const json& p : points) {
    const json& s = p["scaling"];
    const bool dist = p.contains("distributed");
    fmt::print(
        "{:<6} {:<24} {:>5} {:>10} {:>12} {:>6.2f} {:>12} {:>6.2f} {:>7} {:>12} {:<16} {:>11} {:>10}\n",
        s["mode"].get<std::string>(),
        fmt::format("{} x {} {}", p["mapping"].get<std::string>(), p["race"].get<std::string>(),
                    p["scalar"].get<std::string>()),
        p["ranks"].get<int>(), p["mesh"]["elements"].get<long>(), fmt_time(median_of(p)),
        s["assembly_efficiency"].get<double>(), fmt_time(cg_per_iteration(p)),
        s["cg_iteration_efficiency"].get<double>(),
        dist ? fmt::format("{:.3f}", p["distributed"]["imbalance"]["assembly"].get<double>()) : "-",
        dist ? fmt::format("{:.1f}", p["distributed"]["halo_bytes_per_iteration"].get<double>() / 1e3) : "-",
        dist ? p["distributed"]["halo_transport"].get<std::string>() + "/" +
                   p["distributed"]["sums_transport"].get<std::string>()
             : "-",
        dist ? fmt_time(p["distributed"]["halo_exchange_s"]) : "-",
        p["verification"]["status"].get<std::string>());
  }
}
}  // namespace

int bench_scaling(const Deck& deck, const std::string& out_dir) {
  const parallel::Comm world = parallel::Comm::world();
  const bool root = world.rank() == 0;
  if (deck.meshes.size() != 1)
    throw InputError("bench.scaling: give one mesh (mesh.size), the per-rank box of the weak points");
  const MeshSpec& base = deck.meshes.front();
  if (!base.box)
    throw InputError("bench.scaling: mesh '" + base.name + "' is not a box (NXxNYxNZ, mesh1..mesh4)");
  std::vector<Strategy> strategies;
  for (const auto& sc : deck.scalars)
    for (const auto& mn : deck.mappings)
      for (const auto& rn : deck.races)
        if (goes_with(mn, rn))
          for (const auto& h : deck.halos) strategies.push_back({mn, rn, sc, h});
  check_strategies(deck, base, strategies);
  const std::vector<int> counts = rank_counts(deck.scaling->ranks, world.size());
  if (counts.empty())
    throw InputError(fmt::format("bench.scaling.ranks: every count is above the {} rank{} launched",
                                 world.size(), world.size() == 1 ? "" : "s"));
  std::vector<bool> modes;  // weak first
  if (deck.scaling->weak) modes.push_back(true);
  if (deck.scaling->strong) modes.push_back(false);

  const std::string path = out_dir + "/results.json";
  json doc = results_header(world, deck, "scaling");
  const std::size_t total = strategies.size() * modes.size() * counts.size();
  const auto t0 = std::chrono::steady_clock::now();
  for (const Strategy& st : strategies)
    for (const bool weak : modes) {
      std::vector<std::size_t> series;
      for (const int k : counts) {
        const MeshSpec spec = weak ? stretched(base, k) : base;
        json p = point_on_ranks(world, k, spec, deck, st, true);
        if (!root) continue;
        p["scaling"] = {{"mode", weak ? "weak" : "strong"},
                        {"halo", st.halo},
                        {"ranks", k},
                        {"launched", world.size()},
                        {"threads_per_rank", doc["context"]["kokkos"]["host_concurrency"]}};
        series.push_back(doc["points"].size());
        doc["points"].push_back(p);
        or_abort_all(world, [&] { write_json(path, doc); });
        const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        fmt::print(stderr,
                   "[{}/{}] {} {} ranks {} {} x {} halo {}: assembly {}, CG {} per iteration ({}) elapsed "
                   "{:.0f} s\n",
                   doc["points"].size(), total, weak ? "weak" : "strong", k, spec.name,
                   p["mapping"].get<std::string>(), p["race"].get<std::string>(), st.halo,
                   fmt_time(median_of(p)), fmt_time(cg_per_iteration(p)),
                   p["verification"]["status"].get<std::string>(), el);
      }
      if (root) add_efficiencies(doc["points"], series, weak);
    }
  int failed = 0;
  if (root)
    failed = or_abort_all(world, [&] {
      write_json(path, doc);
      fmt::print("kfem bench (scaling): {} on {} launched ranks, counts {}\n", deck.source, world.size(),
                 fmt::join(counts, " "));
      print_table(doc["points"]);
      return finish_bench(path, doc["points"]);
    });
  return int(world.max(std::int64_t(failed)));
}
}  // namespace kfem::app
