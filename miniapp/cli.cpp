#include "cli.hpp"

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "kfem/core/error.hpp"
#include "kfem/core/kokkos_compat.hpp"
#include "kfem/core/startup.hpp"
#include "kfem/parallel/comm.hpp"
#include "kfem/report/context.hpp"
#include "names.hpp"

namespace kfem::app {
namespace {
// Strict integer parse: the whole text, in range of long.
std::optional<long> to_long(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (end != s.c_str() + s.size() || errno == ERANGE) return std::nullopt;
  return v;
}

// Option validators: a bad value is one line naming the option (CLI11 prefixes "--name: ").
CLI::Validator at_least(long lo) {
  return CLI::Validator(
      [lo](std::string& s) -> std::string {
        const auto v = to_long(s);
        if (!v) return "'" + s + "' is not an integer";
        return *v < lo ? s + " (need >= " + std::to_string(lo) + ")" : "";
      },
      ">= " + std::to_string(lo));
}

CLI::Validator finite_non_negative() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (s.empty() || end != s.c_str() + s.size()) return "'" + s + "' is not a number";
        return std::isfinite(v) && v >= 0 ? "" : s + " (need a finite value >= 0)";
      },
      "FINITE >= 0");
}

// Options shared by run / verify / bench: they override the deck.
struct Overrides {
  std::vector<std::string> mesh, mapping, race, scalar, operators, storage;
  std::string backend, renumber, report, export_matrix, export_mesh, export_solution, coloring, element_order,
      problem, target, partition, halo, sums, verify;
  double distort = -1;
  int refine = -1;
  int repetitions = -1, warmup = -1, elements_per_team = -1, order = -1;
  std::string solver, preconditioner;
  bool no_solve = false, bench_solve = false, retune = false, symmetric_blocks = false,
       single_reduction = false;
};

void add_overrides(CLI::App* cmd, Overrides& o, bool exports) {
  // List options take one value per occurrence (--mapping a --mapping b): a multi-value option
  // would swallow the deck after it (`kfem run --mapping element deck.yaml`).
  cmd->add_option(
         "--mesh", o.mesh,
         "mesh1..mesh4, NXxNYxNZ (hex8), prism:NXxNYxNZ, tet:NXxNYxNZ, tri:NXxNY, capacitor or FILE.msh "
         "(repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--problem", o.problem, "elasticity or electrostatics");
  cmd->add_option("--order", o.order, "element order: prisms and tetrahedra 1..7; tri3 and hex8 are 1")
      ->check(at_least(1));
  // The strategies' lines come from the registries (names.cpp), as do inputs/README.md's tables.
  cmd->add_option("--mapping", o.mapping, mapping_help())->allow_extra_args(false);
  cmd->add_option("--target", o.target, target_help())->check(CLI::IsMember(target_choices()));
  cmd->add_option("--race", o.race, race_help())->allow_extra_args(false);
  cmd->add_option("--operator", o.operators,
                  "CG operator (repeatable): csr (assembled matrix), ebe-v1 (element matrices stored), "
                  "ebe-v2 (recomputed)")
      ->allow_extra_args(false);
  cmd->add_option("--storage", o.storage, "where the assembly leaves the matrix: " + storage_help())
      ->allow_extra_args(false);
  cmd->add_option("--scalar", o.scalar, "float or double (repeatable)")
      ->allow_extra_args(false)
      ->check(CLI::IsMember({"float", "double"}));
  cmd->add_option("--backend", o.backend, "execution space: default serial openmp cuda (as enabled)");
  cmd->add_option("--coloring", o.coloring,
                  "greedy (host) or device (a box mesh's cell parity, else Kokkos Kernels)")
      ->check(CLI::IsMember({"greedy", "device"}));
  cmd->add_option(
         "--element-order", o.element_order,
         "launch order of the elements without colouring: natural or morton (Z-order of the centroids)")
      ->check(CLI::IsMember({"natural", "morton"}));
  cmd->add_option("--partition", o.partition,
                  "under mpirun: metis (dual graph) or rcb (coordinate bisection); default: metis for "
                  "mesh files, rcb for boxes")
      ->check(CLI::IsMember({"metis", "rcb", "default"}));
  cmd->add_option("--halo", o.halo,
                  "under mpirun: CG's halo exchange and sums through nccl (GPU to GPU) or mpi (host-staged "
                  "where MPI is not device-aware); auto: nccl on GPUs where built in")
      ->check(CLI::IsMember({"auto", "mpi", "nccl"}));
  cmd->add_option("--sums", o.sums,
                  "under mpirun: CG's dot products summed over the ranks through nccl or mpi; auto: mpi "
                  "(faster on H200s)")
      ->check(CLI::IsMember({"auto", "mpi", "nccl"}));
  cmd->add_option("--verify", o.verify,
                  "products (A x for random vectors against the oracle's element-by-element K x; the "
                  "default) or entries (entry by entry against the oracle's assembled matrix)")
      ->check(CLI::IsMember({"products", "entries"}));
  cmd->add_option("--renumber", o.renumber, "natural random rcm");
  cmd->add_option("--distort", o.distort, "random node displacement, fraction of the element size")
      ->check(finite_non_negative());
  cmd->add_option("--refine", o.refine,
                  "uniform refinements of tri3 meshes (each splits every triangle into 4), 0..8")
      ->check(at_least(0));
  cmd->add_option("--repetitions", o.repetitions, "timed repetitions")->check(at_least(1));
  cmd->add_option("--elements-per-team", o.elements_per_team,
                  "warp mappings on a GPU: elements (warps) per block, 1..32")
      ->check(CLI::Range(1, 32));
  cmd->add_option("--warmup", o.warmup, "untimed warm-up runs")->check(at_least(0));
  cmd->add_flag(
      "--symmetric-blocks", o.symmetric_blocks,
      join_names(block_mapping_names()) + ": integrate only the blocks b <= a of Ke, mirror the rest");
  cmd->add_option("--solver", o.solver, "solver: " + solver_help());
  cmd->add_flag("--single-reduction", o.single_reduction, "the same as --solver cg-single-reduction");
  cmd->add_option("--preconditioner", o.preconditioner,
                  "CG's preconditioner: jacobi (the diagonal; default) or block-jacobi (each node's C x C "
                  "diagonal block inverted; assembled storage on one rank)");
  if (exports) {
    cmd->add_option("--report", o.report, "run report (JSON)");
    cmd->add_option("--export-matrix", o.export_matrix, "assembled stiffness before BCs, MatrixMarket");
    cmd->add_option("--export-mesh", o.export_mesh, "mesh as used, Gmsh 4.1 ASCII");
    cmd->add_option("--export-solution", o.export_solution, "solution (displacement or potential), VTK .vtu");
    cmd->add_flag("--no-solve", o.no_solve, "skip boundary conditions and CG");
  }
}

// The value of "--kokkos-NAME=VALUE" as an int in [lo, hi].
int kokkos_int(const std::string& arg, const std::string& value, long lo, long hi) {
  const auto v = to_long(value);
  if (!v || *v < lo || *v > hi)
    throw InputError("option " + arg + ": expected an integer in " + std::to_string(lo) + ".." +
                     std::to_string(hi));
  return int(*v);
}
}  // namespace

std::vector<std::string> kokkos_arguments(int argc, const char* const* argv) {
  constexpr long max_threads = 4096;  // far above any host kfem runs on; guards against typos like 10000000
  constexpr long max_int = std::numeric_limits<int>::max();
  constexpr bool kokkos4 = kokkos_compat::version_major >= 4;  // option spellings changed in 4.0
  const std::string ver = kokkos_compat::version_string();
  std::vector<std::string> out;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--kokkos-", 0) != 0) continue;
    const std::size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    const std::optional<std::string> value =
        eq == std::string::npos ? std::nullopt : std::optional<std::string>(arg.substr(eq + 1));
    const auto need_value = [&](const char* form) {
      if (!value) throw InputError("option " + arg + ": expected " + name + "=" + form);
    };
    const auto no_value = [&] {
      if (value) throw InputError("option " + arg + ": " + name + " takes no value");
    };
    const auto only_in = [&](bool available, const char* which) {
      if (!available)
        throw InputError("option " + name + ": not available with the Kokkos " + ver +
                         " kfem is built with (" + which + " only)");
    };
    if (name == "--kokkos-threads" || name == "--kokkos-num-threads") {
      need_value("N");
      const int n = kokkos_int(arg, *value, 1, max_threads);
      out.push_back((kokkos4 ? "--kokkos-num-threads=" : "--kokkos-threads=") + std::to_string(n));
    } else if (name == "--kokkos-device-id" || name == "--kokkos-device") {
      need_value("N");
      out.push_back("--kokkos-device-id=" + std::to_string(kokkos_int(arg, *value, 0, max_int)));
    } else if (name == "--kokkos-numa") {
      only_in(!kokkos4, "Kokkos 3");
      need_value("N");
      out.push_back("--kokkos-numa=" + std::to_string(kokkos_int(arg, *value, 1, max_int)));
    } else if (name == "--kokkos-num-devices" || name == "--kokkos-ndevices") {
      only_in(!kokkos4, "Kokkos 3");
      need_value("N[,SKIP]");
      const std::size_t comma = value->find(',');
      std::string v = std::to_string(kokkos_int(arg, value->substr(0, comma), 1, max_int));
      if (comma != std::string::npos)
        v += "," + std::to_string(kokkos_int(arg, value->substr(comma + 1), 0, max_int));
      out.push_back("--kokkos-num-devices=" + v);
    } else if (name == "--kokkos-map-device-id-by") {
      only_in(kokkos4, "Kokkos 4");
      need_value("random|mpi_rank");
      if (*value != "random" && *value != "mpi_rank")
        throw InputError("option " + arg + ": expected random or mpi_rank");
      out.push_back(arg);
    } else if (name == "--kokkos-tools-library" || name == "--kokkos-tools-libs") {
      need_value("LIBRARY");
      if (value->empty()) throw InputError("option " + arg + ": empty library name");
      out.push_back((kokkos4 ? "--kokkos-tools-libs=" : "--kokkos-tools-library=") + *value);
    } else if (name == "--kokkos-tools-args") {
      need_value("'ARGS'");
      out.push_back(arg);
    } else if (name == "--kokkos-print-configuration") {
      only_in(kokkos4, "Kokkos 4");
      no_value();
      out.push_back(arg);
    } else if (name == "--kokkos-disable-warnings" || name == "--kokkos-tune-internals" ||
               name == "--kokkos-tools-help" || name == "--kokkos-help") {
      no_value();
      out.push_back(arg);
    } else {
      throw InputError(
          "option " + name +
          ": unknown Kokkos option (known: --kokkos-threads=N, --kokkos-device-id=N, "
          "--kokkos-disable-warnings, --kokkos-tools-libs=LIB, --kokkos-tools-args=ARGS, --kokkos-help)");
    }
  }
  // Kokkos also reads its environment; the thread count is the one that crashes when wrong.
  for (const char* var : {"KOKKOS_NUM_THREADS", "KOKKOS_DEVICE_ID"})
    if (const char* v = std::getenv(var)) {
      const bool threads = std::string(var) == "KOKKOS_NUM_THREADS";
      const auto n = to_long(v);
      if (!n || *n < (threads ? 1 : 0) || *n > (threads ? max_threads : max_int))
        throw InputError(std::string("environment ") + var + "='" + v + "': expected an integer in " +
                         (threads ? "1.." + std::to_string(max_threads) : "0.." + std::to_string(max_int)));
    }
  return out;
}

namespace {
Deck load(const std::string& path, const Overrides& o) {
  std::error_code ec;
  if (!path.empty()) {
    const auto status = std::filesystem::status(path, ec);
    if (status.type() == std::filesystem::file_type::not_found)
      throw InputError("deck '" + path +
                       "': no such file (list options take one value each: repeat the option, "
                       "--mapping a --mapping b)");
    if (std::filesystem::is_directory(status)) throw InputError("deck '" + path + "': is a directory");
  }
  Deck d = path.empty() ? Deck{} : read_deck(path);
  if (!o.mesh.empty()) {
    d.meshes.clear();
    d.meshes_by_order.clear();
    for (const auto& m : o.mesh) d.meshes.push_back(parse_mesh_name(m));
  }
  for (const auto& m : d.meshes) {
    if (m.file.empty()) continue;
    const auto type = std::filesystem::status(m.file, ec).type();
    if (type == std::filesystem::file_type::not_found) throw InputError(m.file + ": no such mesh file");
    if (type == std::filesystem::file_type::directory)
      throw InputError(m.file + ": is a directory, not a mesh file");
  }
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
  if (!o.storage.empty()) {
    for (const auto& name : o.storage) {
      try {
        check_storage_name(name);
      } catch (const InputError& e) {
        throw InputError(std::string("option --storage: ") + e.what());
      }
    }
    d.storages = o.storage;
  }
  if (o.bench_solve) d.bench_solve = true;
  if (o.retune) d.retune = true;
  if (!o.backend.empty()) d.backend = o.backend;
  if (!o.problem.empty()) d.problem = o.problem;
  if (o.order >= 0) {  // one order: the deck's meshes for it (if it maps orders to sizes) stay
    d.order = o.order, d.orders = {o.order};
    if (const auto it = d.meshes_by_order.find(o.order); it != d.meshes_by_order.end()) d.meshes = it->second;
    d.meshes_by_order.clear();
  }
  if (!o.target.empty()) d.target = o.target;
  if (!o.coloring.empty()) d.coloring = o.coloring;
  if (!o.element_order.empty()) d.element_order = o.element_order;
  if (!o.partition.empty()) d.partition = o.partition;
  if (!o.halo.empty()) d.halos = {o.halo};
  if (!o.sums.empty()) d.sums = o.sums;
  if (!o.verify.empty()) d.verify = *verify_method_from_name(o.verify);
  if (!o.renumber.empty()) d.renumber = renumbering_from_name(o.renumber);
  if (o.distort >= 0) d.distort = o.distort;
  if (o.refine >= 0) d.refine = o.refine;
  if (o.repetitions > 0) d.repetitions = o.repetitions;
  if (o.warmup >= 0) d.warmup = o.warmup;
  if (o.elements_per_team > 0) d.elements_per_team = o.elements_per_team;
  if (o.symmetric_blocks) d.symmetric_blocks = true;
  if (!o.solver.empty()) d.solver = solver_from_name(o.solver);
  if (o.single_reduction) {
    const SolverId single = solver_from_name(solver::CgSingleReduction::name);
    if (!o.solver.empty() && d.solver != single)
      throw InputError("option --single-reduction contradicts --solver " + o.solver);
    d.solver = single;
  }
  if (!o.preconditioner.empty()) d.preconditioner = preconditioner_from_name(o.preconditioner);
  if (!o.report.empty()) d.report = o.report;
  if (!o.export_matrix.empty()) d.export_matrix = o.export_matrix;
  if (!o.export_mesh.empty()) d.export_mesh = o.export_mesh;
  if (!o.export_solution.empty()) d.export_solution = o.export_solution;
  if (o.no_solve) d.solve = false;
  check_parameters(d);
  return d;
}

// The files a command reads, which no output may replace.
std::vector<NamedPath> inputs_of(const std::string& deck_path, const Deck& d) {
  std::vector<NamedPath> in;
  if (!deck_path.empty()) in.push_back({"the deck", deck_path});
  const auto add = [&](const std::vector<MeshSpec>& meshes) {
    for (const auto& m : meshes)
      if (!m.file.empty()) in.push_back({"the mesh file", m.file});
  };
  add(d.meshes);
  for (const auto& [order, meshes] : d.meshes_by_order) add(meshes);
  return in;
}

// run's outputs, each named by what asked for it: the option, the deck key or the default.
std::vector<NamedPath> run_outputs(const Deck& d, const Overrides& o) {
  const auto origin = [&](const std::string& option_value, const char* option, const char* key) {
    return !option_value.empty() ? std::string("option ") + option : d.source + ": key '" + key + "'";
  };
  return {
      {d.report.empty() ? std::string("the default report") : origin(o.report, "--report", "output.report"),
       d.report.empty() ? default_report : d.report},
      {origin(o.export_matrix, "--export-matrix", "output.export_matrix"), d.export_matrix},
      {origin(o.export_mesh, "--export-mesh", "output.export_mesh"), d.export_mesh},
      {origin(o.export_solution, "--export-solution", "output.export_solution"), d.export_solution}};
}
}  // namespace

void discard_outputs() noexcept {
  if (const OutputSet* outputs = OutputSet::current()) outputs->discard();
}

int main(int argc, char** argv) {
  // CUDA loads kfem's kernels when the process starts, not at each module's first launch: lazily, a
  // cold process's set-up stages each paid a module load inside their timings (mesh4 on an H200:
  // element data 13.2 against 3.2 ms, first matrix 61 against 45 ms) and the process was no faster
  // (reports/runs/2026-11-28-h200-issue44-setup-floor). Read when CUDA starts, so set before
  // anything asks for a device; an explicit setting wins. No effect without CUDA.
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
  // MPI first (a no-op without it, or outside mpirun): Kokkos' device choice below needs the rank.
  const parallel::Environment mpi(argc, argv);
  const parallel::Comm comm = parallel::Comm::world();
  const bool root = comm.rank() == 0;
  // kfem checks the --kokkos-* options itself (Kokkos aborts or crashes on a bad value) and hands
  // Kokkos only those, in the spelling of the Kokkos it is built with; CLI11 parses the rest.
  std::vector<std::string> kokkos_args;
  try {
    kokkos_args = kokkos_arguments(argc, argv);
  } catch (const InputError& e) {
    if (root) fmt::print(stderr, "kfem: error: {}\n", e.what());
    return 2;
  }
  // One GPU per rank: the host's ranks take its GPUs in turn, unless the user chose a device.
  const bool device_chosen = std::getenv("KOKKOS_DEVICE_ID") ||
                             std::any_of(kokkos_args.begin(), kokkos_args.end(), [](const std::string& a) {
                               return a.rfind("--kokkos-device-id=", 0) == 0 ||
                                      a.rfind("--kokkos-num-devices=", 0) == 0 ||
                                      a.rfind("--kokkos-map-device-id-by=", 0) == 0;
                             });
  if (const int gpus = device_count(); comm.size() > 1 && gpus > 0 && !device_chosen)
    kokkos_args.push_back("--kokkos-device-id=" + std::to_string(comm.local_rank() % gpus));
  // Rank 0 alone prints: Kokkos' start-up warnings (oversubscribed cores) of the other ranks would
  // land in the middle of its summary lines.
  if (!root) kokkos_args.push_back("--kokkos-disable-warnings");
  std::vector<char*> kargs{argv[0]}, rest{argv[0]};
  for (auto& a : kokkos_args) kargs.push_back(a.data());
  kargs.push_back(nullptr);  // Kokkos 4 shifts argv[argc] (the terminating null) too
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]).rfind("--kokkos-", 0) != 0) rest.push_back(argv[i]);
  int kargc = static_cast<int>(kargs.size()) - 1;
  // Thread binding: an explicit user choice wins; otherwise spread threads over cores (and say so in
  // reports).
  setenv("OMP_PROC_BIND", "spread", 0);
  setenv("OMP_PLACES", "threads", 0);
  std::optional<Kokkos::ScopeGuard> guard;
  try {
    // Kokkos 4 marks ScopeGuard [[nodiscard]]; the guard lives in `guard`, not in emplace's result.
    static_cast<void>(guard.emplace(kargc, kargs.data()));
  } catch (const std::exception& e) {  // Kokkos 3 throws on what kfem does not check (environment)
    std::string what = e.what();
    for (char& c : what)
      if (c == '\n') c = ' ';
    fmt::print(stderr, "kfem: error: Kokkos::initialize: {}\n", what);
    return 2;
  }
  for (const auto& a : kokkos_args)
    if (a == "--kokkos-help" || a == "--kokkos-tools-help") return 0;  // Kokkos printed the page asked for
  argc = static_cast<int>(rest.size());
  argv = rest.data();
  CLI::App app{"kfem: finite-element matrix generation and global assembly on Kokkos"};
  app.require_subcommand(1);
  app.footer("Kokkos options (--kokkos-threads=N, --kokkos-device-id=N, ...) are accepted by every command.");
  std::string deck_path, out_dir = "kfem-bench";
  Overrides o;
  auto* info =
      app.add_subcommand("info", "Kokkos configuration, backends, device properties and CPU topology");
  bool strategies = false;
  info->add_flag(
      "--strategies", strategies,
      "print only the mapping and race tables of inputs/README.md (Markdown, from the registries)");
  auto* run = app.add_subcommand("run", "assemble, verify, constrain and solve one problem; write a report");
  run->add_option("deck", deck_path, "input deck (YAML)");
  add_overrides(run, o, true);
  run->add_flag("--retune", o.retune,
                "with --mapping auto: time the candidates again rather than take the cached choice");
  auto* verify =
      app.add_subcommand("verify", "compare strategies' assembled matrices with the serial oracle");
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
    fmt::print(stderr, "kfem: unknown command '{}' (expected info, run, verify or bench; see kfem --help)\n",
               argv[1]);
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    // `kfem` alone, or only options: CLI11 says "A subcommand is required"
    fmt::print(stderr, "kfem: {}{}\n", e.what(),
               app.get_subcommands().empty() ? " (info, run, verify or bench; see kfem --help)" : "");
    return 2;
  }
  const auto subcommand = app.get_subcommands().front()->get_name();
  // Errors before and outside the distributed work are the same on every rank: rank 0 says them.
  const auto say = [&](const std::string& line) {
    if (root) fmt::print(stderr, "{}\n", line);
  };
  try {
    if (*info && strategies) {
      if (root) fmt::print("{}", strategies_markdown());
      return 0;
    }
    if (*info) return cmd_info();
    const Deck deck = load(deck_path, o);
    reserve_at_startup(Kokkos::DefaultExecutionSpace());
    // Outputs are checked before any work starts; a command that fails leaves none behind. Under
    // mpirun rank 0 writes them all.
    if (*run) {
      OutputSet outputs(root ? run_outputs(deck, o) : std::vector<NamedPath>{}, inputs_of(deck_path, deck));
      return cmd_run(deck, outputs);
    }
    const bool ranked = *bench && (deck.scaling || deck.procurement);  // benches written for mpirun
    if (comm.size() > 1 && !ranked)  // each rank would run the whole sweep on its own
      throw InputError("kfem " + subcommand +
                       " runs on one rank; under mpirun use kfem run, or kfem bench with bench.scaling or "
                       "bench.procurement");
    if (*verify) return cmd_verify(deck);
    std::optional<NamedPath> folder;
    if (root) folder = NamedPath{"option --out", out_dir};
    OutputSet outputs(
        root ? std::vector<NamedPath>{{"option --out", out_dir + "/results.json"}} : std::vector<NamedPath>{},
        inputs_of(deck_path, deck), folder);
    return cmd_bench(deck, out_dir);
  } catch (const InputError& e) {
    say(std::string("kfem: error: ") + e.what());
    return 2;
  } catch (const std::bad_alloc&) {  // those of the big allocations say what they were for (commands.cpp)
    say("kfem: error: out of host memory while running kfem " + subcommand);
    return 2;
  } catch (const std::exception& e) {  // one line: the first of the message
    const std::string what = e.what();
    say("kfem: error: " + what.substr(0, what.find('\n')));
    return 1;
  }
}
}  // namespace kfem::app
