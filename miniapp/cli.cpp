#include "cli.hpp"

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "commands.hpp"
#include "names.hpp"
#include "kfem/core/error.hpp"

namespace kfem::app {
namespace {
// Options shared by run / verify / bench: they override the deck.
struct Overrides {
  std::vector<std::string> mesh, mapping, race, scalar, operators;
  std::string backend, renumber, report, export_matrix, export_mesh, export_solution, coloring, problem, target;
  double distort = -1;
  int refine = -1;
  int repetitions = -1, warmup = -1, elements_per_team = -1, order = -1;
  bool no_solve = false, bench_solve = false;
};

void add_overrides(CLI::App* cmd, Overrides& o, bool exports) {
  cmd->add_option("--mesh", o.mesh, "mesh1..mesh4, NXxNYxNZ (hex8), prism:NXxNYxNZ, tri:NXxNY, capacitor or FILE.msh (repeatable)");
  cmd->add_option("--problem", o.problem, "elasticity or electrostatics");
  cmd->add_option("--order", o.order, "element order: prisms 1..7; tri3 and hex8 are 1");
  cmd->add_option("--mapping", o.mapping, "work mapping(s): thread team (every family); hex8 only: element warp4 warp8 ppni4 ppni8 twokernel warp4-scratch warp4-atomic warp4-vreduce pairs (full), sym300 sym300x2 sympairs (lower triangle); or default");
  cmd->add_option("--target", o.target, "where Ke goes for the generic mappings: index (per-element CSR index), search (row search), default");
  cmd->add_option(
      "--race", o.race,
      "race handling(s): colored atomic scatter acoo (a-COO: no colouring, no CSR pattern), or default");
  cmd->add_option(
      "--operator", o.operators,
      "CG operator(s): csr (assembled matrix), ebe-v1 (element matrices stored), ebe-v2 (recomputed)");
  cmd->add_option("--scalar", o.scalar, "float and/or double");
  cmd->add_option("--backend", o.backend, "execution space: default serial openmp cuda (as enabled)");
  cmd->add_option("--coloring", o.coloring, "greedy (host) or device (Kokkos Kernels)");
  cmd->add_option("--renumber", o.renumber, "natural random rcm");
  cmd->add_option("--distort", o.distort, "random node displacement, fraction of the element size");
  cmd->add_option("--refine", o.refine,
                  "uniform refinements of tri3 meshes (each splits every triangle into 4), 0..8");
  cmd->add_option("--repetitions", o.repetitions, "timed repetitions");
  cmd->add_option("--elements-per-team", o.elements_per_team, "warp mappings on a GPU: elements (warps) per block, 1..32")
      ->check(CLI::Range(1, 32));
  cmd->add_option("--warmup", o.warmup, "untimed warm-up runs");
  if (exports) {
    cmd->add_option("--report", o.report, "run report (JSON)");
    cmd->add_option("--export-matrix", o.export_matrix, "assembled stiffness before BCs, MatrixMarket");
    cmd->add_option("--export-mesh", o.export_mesh, "mesh as used, Gmsh 4.1 ASCII");
    cmd->add_option("--export-solution", o.export_solution, "solution (displacement or potential), VTK .vtu");
    cmd->add_flag("--no-solve", o.no_solve, "skip boundary conditions and CG");
  }
}

Deck load(const std::string& path, const Overrides& o) {
  Deck d = path.empty() ? Deck{} : read_deck(path);
  if (!o.mesh.empty()) {
    d.meshes.clear();
    d.meshes_by_order.clear();
    for (const auto& m : o.mesh) d.meshes.push_back(parse_mesh_name(m));
  }
  for (const auto& m : d.meshes)
    if (!m.file.empty() && !std::filesystem::exists(m.file)) throw InputError(m.file + ": no such mesh file");
  if (!o.mapping.empty()) d.mappings = o.mapping;
  if (!o.race.empty()) d.races = o.race;
  if (!o.scalar.empty()) d.scalars = o.scalar;
  if (!o.operators.empty()) {
    for (const auto& name : o.operators) {
      try {
        operator_from_name(name);
      } catch (const InputError& e) {
        throw InputError(std::string("option --operator: ") + e.what());
      }
    }
    d.operators = o.operators;
  }
  if (o.bench_solve) d.bench_solve = true;
  if (!o.backend.empty()) d.backend = o.backend;
  if (!o.problem.empty()) d.problem = o.problem;
  if (o.order >= 0) {  // one order: the deck's meshes for it (if it maps orders to sizes) stay
    d.order = o.order, d.orders = {o.order};
    if (const auto it = d.meshes_by_order.find(o.order); it != d.meshes_by_order.end()) d.meshes = it->second;
    d.meshes_by_order.clear();
  }
  if (!o.target.empty()) d.target = o.target;
  if (!o.coloring.empty()) d.coloring = o.coloring;
  if (!o.renumber.empty()) d.renumber = renumbering_from_name(o.renumber);
  if (o.distort >= 0) d.distort = o.distort;
  if (o.refine >= 0) d.refine = o.refine;
  if (o.repetitions > 0) d.repetitions = o.repetitions;
  if (o.warmup >= 0) d.warmup = o.warmup;
  if (o.elements_per_team > 0) d.elements_per_team = o.elements_per_team;
  if (!o.report.empty()) d.report = o.report;
  if (!o.export_matrix.empty()) d.export_matrix = o.export_matrix;
  if (!o.export_mesh.empty()) d.export_mesh = o.export_mesh;
  if (!o.export_solution.empty()) d.export_solution = o.export_solution;
  if (o.no_solve) d.solve = false;
  check_parameters(d);
  return d;
}
}  // namespace

int main(int argc, char** argv) {
  // Kokkos takes its own --kokkos-* options out of argv; CLI11 parses the rest. Kokkos would also
  // answer a bare --help with its own page, so it does not see that one.
  std::vector<char*> kargs;
  for (int i = 0; i < argc; ++i)
    if (std::string(argv[i]) != "--help" && std::string(argv[i]) != "-h") kargs.push_back(argv[i]);
  int kargc = static_cast<int>(kargs.size());
  // Thread binding: an explicit user choice wins; otherwise spread threads over cores (and say so in reports).
  setenv("OMP_PROC_BIND", "spread", 0);
  setenv("OMP_PLACES", "threads", 0);
  Kokkos::ScopeGuard guard(kargc, kargs.data());
  std::vector<char*> rest(kargs.begin(), kargs.begin() + kargc);
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") rest.push_back(argv[i]);
  argc = static_cast<int>(rest.size());
  argv = rest.data();
  CLI::App app{"kfem: finite-element matrix generation and global assembly on Kokkos"};
  app.require_subcommand(1);
  app.footer("Kokkos options (--kokkos-threads=N, --kokkos-device-id=N, ...) are accepted by every command.");
  std::string deck_path, out_dir = "kfem-bench";
  Overrides o;
  auto* info = app.add_subcommand("info", "Kokkos configuration, backends, device properties and CPU topology");
  auto* run = app.add_subcommand("run", "assemble, verify, constrain and solve one problem; write a report");
  run->add_option("deck", deck_path, "input deck (YAML)");
  add_overrides(run, o, true);
  auto* verify = app.add_subcommand("verify", "compare strategies' assembled matrices with the serial oracle");
  verify->add_option("deck", deck_path, "input deck (YAML)");
  add_overrides(verify, o, false);
  auto* bench = app.add_subcommand("bench", "sweep a deck: timed, verified points into DIR/results.json");
  bench->add_option("deck", deck_path, "input deck (YAML)")->required();
  bench->add_option("--out", out_dir, "output folder");
  bench->add_flag("--solve", o.bench_solve,
                  "every point also solves and is compared with a reference solution (bench.solve)");
  add_overrides(bench, o, false);
  const auto known = [&](const std::string& name) {
    for (const auto* sub : app.get_subcommands({}))
      if (sub->get_name() == name) return true;
    return false;
  };
  if (argc > 1 && argv[1][0] != '-' && !known(argv[1])) {
    fmt::print(stderr, "kfem: unknown command '{}' (expected info, run, verify or bench; see kfem --help)\n", argv[1]);
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    fmt::print(stderr, "kfem: {}\n", e.what());
    return 2;
  }
  try {
    if (*info) return cmd_info();
    const Deck deck = load(deck_path, o);
    if (*run) return cmd_run(deck);
    if (*verify) return cmd_verify(deck);
    return cmd_bench(deck, out_dir);
  } catch (const InputError& e) {
    fmt::print(stderr, "kfem: error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "kfem: error: {}\n", e.what());
    return 1;
  }
}
}  // namespace kfem::app
