#include "commands.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>

#include "kfem/core/backends.hpp"
#include "kfem/core/error.hpp"
#include "kfem/mesh/box.hpp"
#include "kfem/mesh/gmsh.hpp"
#include "kfem/parallel/abort.hpp"
#include "kfem/parallel/comm.hpp"
#include "kfem/parallel/device_comm.hpp"
#include "kfem/pipeline/memory.hpp"
#include "kfem/pipeline/point.hpp"
#include "kfem/report/context.hpp"
#include "kfem/report/timing.hpp"
#include "model.hpp"
#include "names.hpp"
#include "output_files.hpp"
#include "points.hpp"
#include "tuner.hpp"

namespace kfem::app {
using nlohmann::json;
namespace {
using clock = std::chrono::steady_clock;

// Seconds since the process started: namespace-scope initialisation runs before main.
const clock::time_point process_start = clock::now();
double process_seconds() {
  return std::chrono::duration<double>(clock::now() - process_start).count();
}

// "csr", "ebe-v1, colored", ...; an assembled operator ("csr") is named by the point's storage
// where the caller has it ("bsr", "csr-lower", ...).
std::string operator_label(const json& solve, const json& point = json::object()) {
  std::string l = solve["operator"].get<std::string>();
  if (l == "csr" && point.contains("storage")) l = point["storage"].get<std::string>();
  if (solve.contains("ebe")) l += ", " + solve["ebe"]["race"].get<std::string>();
  return l;
}

// The a-COO stages (medians), its memory and the comparison with the graph path on the same mesh.
void print_acoo(const json& a) {
  const auto med = [&](const char* stage) {
    return fmt_time(a["stages"][stage]["stats"]["median"].get<double>());
  };
  fmt::print(
      "  a-COO         element data {}, alloc {}, insert {}, consolidate {}, CSR {}; "
      "{:.0f} bytes per element (peak {:.0f})\n",
      med("element_data_s"), med("alloc_s"), med("insert_s"), med("consolidate_s"), med("csr_s"),
      a["storage_bytes_per_element"].get<double>(), a["peak_bytes_per_element"].get<double>());
  if (!a.contains("vs_graph_path")) return;
  const json& g = a["vs_graph_path"];
  fmt::print(
      "  vs graph path graph {} + element data {} + atomic assembly {} = {}; a-COO from the mesh {} "
      "({:.2f}x)\n",
      fmt_time(g["graph_s"]), fmt_time(g["element_data_s"]), fmt_time(g["assembly"]["stats"]["median"]),
      fmt_time(g["total_s"]), fmt_time(g["acoo_total_s"]), g["acoo_speedup"].get<double>());
}

// A distributed point: set-up, every rank's share and times, the imbalance and the halo traffic.
void print_ranks(const json& res) {
  const json& d = res["distributed"];
  const json& st = res["setup"];
  fmt::print(
      "  ranks         {}: partition {} {}, distribute {}; {:.1f}% of the elements held twice or more; "
      "halo {:.4g} kB per CG iteration through {}, sums through {}\n",
      d["ranks"].get<int>(), st["partition"].get<std::string>(), fmt_time(st["partition_s"]),
      fmt_time(st["distribute_s"]), 100.0 * d["redundant_elements"].get<double>(),
      d["halo_bytes_per_iteration"].get<double>() / 1e3, d["halo_transport"].get<std::string>(),
      d["sums_transport"].get<std::string>());
  for (const json& r : d["per_rank"])
    fmt::print(
        "  rank {:<8} {} elements ({} own), {} owned + {} ghost DOFs, {} nonzeros; assembly {}, CG {} "
        "(one halo exchange alone {}, one sum {}{})\n",
        r["rank"].get<int>(), r["elements_held"].get<long>(), r["elements_own"].get<long>(),
        r["owned_dofs"].get<long>(), r["ghost_dofs"].get<long>(), r["nnz"].get<long>(),
        fmt_time(r["assembly_median_s"]), fmt_time(r["cg_s"]), fmt_time(r["halo_exchange_s"]),
        fmt_time(r["sum_s"]),
        r["halo_s"].is_number() ? ", all in CG " + fmt_time(r["halo_s"]) : std::string());
  const json& im = d["imbalance"];
  fmt::print(
      "  imbalance     assembly {:.3f}, owned DOFs {:.3f}, nonzeros {:.3f}, elements held {:.3f} "
      "(max/mean)\n",
      im["assembly"].get<double>(), im["owned_dofs"].get<double>(), im["nnz"].get<double>(),
      im["elements_held"].get<double>());
}

// Why CG stopped short of its tolerance, from a point's solve report: the iteration limit, or a
// step whose p.Ap was not positive. (A right-hand side that underflows stops the run before:
// check_loaded, and the solve's own check.)
std::string cg_failure(const json& s, int max_iterations) {
  const int n = s["cg_iterations"].get<int>();
  const double residual = s["cg_relative_residual"].get<double>(), tol = s["tolerance"].get<double>();
  if (n >= max_iterations)
    return fmt::format(
        "CG ({}) not converged: relative residual {:.3g} after {} iterations, the limit "
        "(solver.max_iterations), above the tolerance {:.3g}",
        operator_label(s), residual, n, tol);
  return fmt::format(
      "CG ({}) not converged: it broke down after {} iterations at relative residual {:.3g} (tolerance "
      "{:.3g}): p.Ap <= 0 or NaN, the constrained matrix is not positive definite or holds inf or NaN",
      operator_label(s), n, residual, tol);
}

// Width of the mesh column: the longest name ("capacitor:1000000"), at least 8.
std::size_t mesh_width(const json& points) {
  std::size_t w = 8;
  for (const auto& p : points) w = std::max(w, p["mesh"]["name"].get<std::string>().size());
  return w;
}

// Bench with solve: operator, CG iterations and time per iteration, operator memory and the
// difference to the reference solution; a-COO points also their total from the mesh against the graph path's.
void print_solves(const json& points) {
  const std::size_t w = mesh_width(points);
  fmt::print("\n{:<{}} {:<6} {:<8} {:<8} {:<16} {:>6} {:>12} {:>12} {:>10} {:>11} {:>16}\n", "mesh", w,
             "scalar", "mapping", "race", "operator", "iter", "CG", "per iter", "B/elem", "vs ref",
             "a-COO vs graph");
  for (const auto& p : points) {
    const json& s = p["solve"];
    std::string acoo = "-";
    if (p.contains("acoo") && p["acoo"].contains("vs_graph_path")) {
      const json& g = p["acoo"]["vs_graph_path"];
      acoo = fmt::format("{} / {}", fmt_time(g["acoo_total_s"]), fmt_time(g["total_s"]));
    }
    fmt::print(
        "{:<{}} {:<6} {:<8} {:<8} {:<16} {:>6} {:>12} {:>12} {:>10.1f} {:>11} {:>16}\n",
        p["mesh"]["name"].get<std::string>(), w, p["scalar"].get<std::string>(),
        p["mapping"].get<std::string>(), p["race"].get<std::string>(),
        operator_label(s, p) + (s["cg_converged"].get<bool>() ? "" : " (NC)"), s["cg_iterations"].get<int>(),
        fmt_time(s["cg_s"]), fmt_time(s["cg_s_per_iteration"]),
        s["memory"]["bytes_per_element"].get<double>(),
        s.contains("relative_difference_vs_reference") && s["relative_difference_vs_reference"].is_number()
            ? fmt::format("{:.2e}", s["relative_difference_vs_reference"].get<double>())
            : "-",
        acoo);
  }
}

// f(), with an allocation failure turned into one line saying what was being done: a mesh too big
// for the memory is bad input, not a crash. Kokkos reports its own as a runtime_error of several
// lines (the View's label and size, then a traceback note): the first line is kept.
template <class F>
decltype(auto) allocating(const std::string& what, F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    throw InputError("out of host memory while " + what);
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    if (message.rfind("Kokkos failed to allocate memory", 0) != 0) throw;
    throw InputError("out of memory while " + what + ": " + message.substr(0, message.find('\n')));
  }
}

}  // namespace

// build_model, saying how big a generated mesh was when it does not fit in memory.
Model model_of(const MeshSpec& spec, const Deck& deck) {
  std::string what = "building mesh '" + spec.name + "'";
  if (spec.box)
    what += fmt::format(" ({} elements, {} nodes)", box_num_elements(*spec.box, spec.cell),
                        box_num_nodes(*spec.box, spec.cell));
  const std::optional<std::size_t> graph_bytes =
      deck.stages ? std::nullopt : std::optional<std::size_t>(device_free_bytes(deck.backend));
  return allocating(what, [&] { return build_model(spec, deck, graph_bytes); });
}

Oracle oracle_of(const Model& model, const Deck& deck, bool with_matrix) {
  return allocating(
      fmt::format("computing the oracle of mesh '{}' ({} DOFs)", model.info["name"].get<std::string>(),
                  model.info["dofs"].get<std::int64_t>()),
      [&] { return make_oracle(model, deck, with_matrix); });
}

json point_of(const Model& model, const Deck& deck, const PointRequest& req, const Oracle& oracle) {
  return allocating(fmt::format("running {} x {} on mesh '{}'", name_of(req.mapping),
                                req.storage == StorageKind::acoo ? acoo_race : name_of(req.race),
                                model.info["name"].get<std::string>()),
                    [&] { return run_point(model, deck, req, oracle); });
}

// Throws InputError for unknown names and for race acoo with a mapping it cannot push through.
PointRequest request(const Deck& deck, const Model& model, const std::string& mapping,
                     const std::string& race, const std::string& scalar, const std::string& op,
                     const std::string& storage) {
  if (mapping == "auto")
    throw InputError(
        "mapping auto picks one strategy for kfem run; bench and verify compare the mappings named");
  const bool dev = is_device_backend(deck.backend);
  const bool acoo = is_acoo_race(race) || storage == acoo_race;
  // Block storage is written by element-centric mappings: the default mapping is then one of those.
  const auto named_storage = entry_kind<pipeline::StorageRegistry>(storage);
  const bool blocks = named_storage && pipeline::facts_of(*named_storage).blocks;
  const bool element_race =
      blocks || (!acoo && race != "default" && race_from_name(race, dev) != RaceKind::none);
  PointRequest req{mapping_from_name(mapping, dev, model.mesh.cell, element_race),
                   acoo ? RaceKind::atomic : race_from_name(race, dev),
                   target_from_name(deck.target, model.dofs.order), scalar_named(scalar),
                   backend_named(deck.backend)};
  // Owner computes writes every value once: race none, its only pairing (default picks it).
  if (!acoo && race == "default" && !pairs_with_kinds(req.mapping, req.race)) req.race = RaceKind::none;
  if (!acoo && !pairs_with_kinds(req.mapping, req.race))
    throw InputError("mapping " + mapping + " and race " + race +
                     " do not go together: " + mismatch_reason(req.race != RaceKind::none));
  // a-COO defaults to the paper's thread per element (hex8's default mapping is a fast path)
  if (acoo && mapping == "default") req.mapping = MappingKind::thread;
  if (acoo) check_acoo_mapping(req.mapping);
  req.storage = storage_for(req.mapping, storage, race, op);
  req.solve_with = op != "csr" ? operator_from_name(op) : pipeline::facts_of(req.storage).solve_with;
  req.ebe_atomic = race == "atomic";  // EbE products by colour otherwise, as in the paper
  return req;
}

static std::size_t count_pairings(const Deck& deck) {  // throws when none goes together
  std::size_t n = 0;
  for (const auto& mn : deck.mappings)
    for (const auto& rn : deck.races) n += goes_with(mn, rn) ? 1 : 0;
  if (n == 0) throw InputError("no mapping x race pair of the deck goes together: " + pairing_rule());
  return n;
}

bool goes_with(const std::string& mapping, const std::string& race) {
  if (mapping == "default" || race == "default" || is_acoo_race(race)) return true;
  try {
    return pairs_with_kinds(mapping_from_name(mapping, false, CellType::hex8), race_from_name(race, false));
  } catch (const InputError&) {
    return true;  // an unknown name: request() says so
  }
}

parallel::PartitionMethod partition_method(const Deck& deck, const MeshSpec& spec) {
  return deck.partition == "metis" || (deck.partition == "default" && !spec.file.empty())
             ? parallel::PartitionMethod::metis
             : parallel::PartitionMethod::rcb;
}

parallel::Transport transport_of(const std::string& name) {
  return name == "nccl"  ? parallel::Transport::nccl
         : name == "mpi" ? parallel::Transport::mpi
                         : parallel::Transport::automatic;
}

int cmd_info() {
  const parallel::Comm comm = parallel::Comm::world();
  const json ctx = run_context(true);
  // Under mpirun: every rank's host and device, gathered to rank 0.
  std::string line = fmt::format("rank {} of {}: host {}", comm.rank(), comm.size(), parallel::host_name());
  if (ctx["device"].is_object())
    line +=
        fmt::format(", device {} {} (PCI {})", ctx["device"]["id"].get<int>(),
                    ctx["device"]["name"].get<std::string>(), ctx["device"]["pci_bus_id"].get<std::string>());
  else
    line += fmt::format(", {} host threads", ctx["kokkos"]["host_concurrency"].get<int>());
  const auto lines = comm.gather(std::vector<char>(line.begin(), line.end()), 0);
  if (comm.rank() != 0) return 0;
  fmt::print("{}\n", context_summary(ctx));
  fmt::print("mappings: {}\nraces:    {}\noperators: {}\n", fmt::join(mapping_names(), " "),
             fmt::join(race_names(), " "), fmt::join(operator_names(), " "));
  const auto dev = ctx["device"].is_object() ? device_info() : std::nullopt;
  for (const auto& l : hex8_capacity_lines(dev ? double(dev->free_bytes) : 0.0)) fmt::print("{}\n", l);
  if (!parallel::built_with_mpi()) {
    fmt::print("MPI: not built in (KFEM_ENABLE_MPI=OFF): one rank\n");
    return 0;
  }
  fmt::print("MPI: {}; {} rank{}; device buffers {}\n", parallel::mpi_library_version(), comm.size(),
             comm.size() == 1 ? "" : "s",
             parallel::device_aware_mpi() ? "sent directly (CUDA-aware)" : "staged through the host");
  fmt::print("NCCL: {}\n",
             parallel::DeviceComm::available()
                 ? "NCCL " + parallel::DeviceComm::version() + ": CG's halo and sums GPU to GPU (--halo nccl)"
                 : std::string("not built in: the halo goes through MPI"));
  for (const auto& l : lines) fmt::print("  {}\n", std::string(l.begin(), l.end()));
  return 0;
}

namespace {
bool report_run(const Deck& deck, const Model& model, const json& res, OutputSet& outputs);
}  // namespace

int cmd_run(const Deck& given, OutputSet& outputs) {
  // Under mpirun every rank builds the model; rank 0 alone holds the oracle, prints and writes.
  const parallel::Comm comm = parallel::Comm::world();
  const bool root = comm.rank() == 0;
  Deck deck = given;  // the pipeline writes the exports to their temporaries
  deck.export_matrix = root ? outputs.temp(given.export_matrix) : "";
  deck.export_solution = root ? outputs.temp(given.export_solution) : "";
  const Model model = model_of(deck.meshes.front(), deck);
  const Mesh& mesh = model.mesh;
  std::optional<TunerChoice> tuned;
  if (deck.mappings.front() == "auto") {  // rank 0 tunes on its device; every rank runs the choice
    std::string choice;
    if (root)
      choice = or_abort_all(comm, [&] {
        tuned = tune(model, deck, deck.races.front(), deck.scalars.front(), deck.retune);
        return tuned->mapping + " " + tuned->race;
      });
    choice.resize(std::size_t(comm.max(std::int64_t(choice.size()))));
    comm.broadcast_bytes(choice.data(), choice.size(), 0);
    deck.mappings = {choice.substr(0, choice.find(' '))};
    deck.races = {choice.substr(choice.find(' ') + 1)};
  }
  PointRequest req = request(deck, model, deck.mappings.front(), deck.races.front(), deck.scalars.front(),
                             deck.operators.front(), deck.storages.front());
  req.timed = true;
  req.exports = true;
  req.comm = &comm;
  req.partition = partition_method(deck, deck.meshes.front());
  req.halo = transport_of(deck.halos.front());
  req.sums = transport_of(deck.sums);
  std::optional<BoundarySetup> boundary;  // bad names fail here, before any allocation
  if (deck.solve) req.boundary = &boundary.emplace(boundary_setup(model, deck));
  req.solve = deck.solve;
  // Rank 0's own work (mesh export, oracle, then the prints and files) fails for all ranks at once.
  const Oracle oracle = !root ? Oracle{} : or_abort_all(comm, [&] {
    if (!deck.export_mesh.empty()) write_gmsh(mesh, outputs.temp(deck.export_mesh));
    return oracle_of(model, deck);
  });
  json res = point_of(model, deck, req, oracle);
  if (tuned) res["tuner"] = tuned->report;
  const bool ok = !root || or_abort_all(comm, [&] { return report_run(deck, model, res, outputs); });
  return comm.max(std::int64_t(!ok)) == 0 ? 0 : 1;  // rank 0's verdict, on every rank
}

namespace {
// The summary lines, the report and the exports of a run (rank 0); true when it verified and solved.
bool report_run(const Deck& deck, const Model& model, const json& res, OutputSet& outputs) {
  const Mesh& mesh = model.mesh;
  const json& mesh_info = model.info;
  const json& a = res["assembly"]["stats"];
  fmt::print("kfem run: {}\n", deck.source);
  fmt::print("  mesh          {}: {} {} elements (order {}), {} nodes, {} DOFs, {} nonzeros\n",
             mesh_info["name"].get<std::string>(), mesh.num_elements(),
             mesh_info["family"].get<std::string>(), model.dofs.order, model.dofs.num_nodes,
             res["dofs"].get<long>(), res["nnz"].get<long>());
  fmt::print("  strategy      {} x {} in {} on {}, storage {}\n", res["mapping"].get<std::string>(),
             res["race"].get<std::string>(), res["scalar"].get<std::string>(),
             res["backend"].get<std::string>(), res.value("storage", std::string("csr")));
  std::vector<std::string> stages;  // the setup stages the point ran, in pipeline order
  for (const auto& [key, label] : pipeline::setup_stages)
    if (res["setup"].contains(key))
      stages.push_back(fmt::format("{} {}", label, fmt_time(res["setup"][key])));
  fmt::print("  setup         {}{}\n", fmt::join(stages, ", "),
             res["setup"].contains("graph_s") ? "" : " (no DOF graph, no colouring)");
  fmt::print("  assembly      median {} (min {}, max {}, {} runs) = {:.3g} elements/s\n",
             fmt_time(a["median"]), fmt_time(a["min"]), fmt_time(a["max"]), a["count"].get<int>(),
             res["rates"]["elements_per_s"].get<double>());
  if (res.contains("first_assembly_s"))
    fmt::print(
        "  first matrix  {} from the mesh on the host (wall: setup stages, first assembly {}, host work "
        "between)\n",
        fmt_time(res["first_matrix_s"]), fmt_time(res["first_assembly_s"]));
  else if (res.contains("first_matrix_s"))
    fmt::print("  first matrix  {} from the mesh on the host (setup stages + first run)\n",
               fmt_time(res["first_matrix_s"]));
  if (res.contains("tuner")) print_tuner(res["tuner"]);
  if (res.contains("acoo")) print_acoo(res["acoo"]);
  if (res.contains("distributed")) print_ranks(res);
  const json& v = res["verification"];
  fmt::print("  verification  {}", v["status"].get<std::string>());
  if (v.contains("max_rel"))
    fmt::print(" ({}, max abs diff {:.3g}, max rel diff {:.3g}; oracle {}, check {})",
               v["method"] == "products" ? "A x vs the oracle's K x" : "entry by entry",
               v["max_abs"].get<double>(), v["max_rel"].get<double>(), fmt_time(v["oracle_s"]),
               fmt_time(v.value("check_s", 0.0)));
  fmt::print("\n");
  if (res.contains("solve")) {
    const json& s = res["solve"];
    fmt::print("  CG            {}{}: {} iterations, relative residual {:.3g}, {} ({} per iteration){}\n",
               operator_label(s, res),
               std::string(s.value("cg_recurrence", "classic") == "classic" ? "" : " (single reduction)") +
                   (s.value("preconditioner", "jacobi") == "jacobi" ? "" : ", block Jacobi"),
               s["cg_iterations"].get<int>(), s["cg_relative_residual"].get<double>(), fmt_time(s["cg_s"]),
               fmt_time(s["cg_s_per_iteration"]), s["cg_converged"].get<bool>() ? "" : " (NOT converged)");
    fmt::print("  CG operator   {:.1f} bytes per element\n", s["memory"]["bytes_per_element"].get<double>());
    if (s.contains("tip_deflection_m"))
      fmt::print("  tip deflection {:.6e} m (Timoshenko beam {:.6e} m)\n",
                 s["tip_deflection_m"].get<double>(), s["timoshenko_tip_deflection_m"].get<double>());
    if (s.contains("capacitance_per_depth"))
      fmt::print(
          "  capacitance   {:.6e} per unit depth (field energy {:.6e}; ideal parallel plates {:.6e})\n",
          s["capacitance_per_depth"].get<double>(), s["field_energy"].get<double>(),
          s["ideal_capacitance_per_depth"].get<double>());
  }
  const std::string report = deck.report.empty() ? default_report : deck.report;
  write_json(outputs.temp(report), {{"kfem_report", 1},
                                    {"command", "run"},
                                    {"wall_s", process_seconds()},
                                    {"deck", deck.source},
                                    {"context", run_context(false)},
                                    {"mesh", mesh_info},
                                    {"point", res}});
  outputs.commit();  // a report of a failed verification or solve is kept (exit 1)
  fmt::print("  report        {}\n", report);
  // Exit 1: one stderr line says why, the verification's failure and CG's.
  std::vector<std::string> why;
  if (v["status"] == "FAILED")
    why.push_back("verification FAILED: " + verification_failure(res, mesh_info["name"].get<std::string>()));
  if (res.contains("solve") && !res["solve"]["cg_converged"].get<bool>())
    why.push_back(cg_failure(res["solve"], deck.max_iterations));
  if (!why.empty()) fmt::print(stderr, "kfem: error: {}\n", fmt::join(why, "; "));
  return why.empty();
}
}  // namespace

int cmd_verify(const Deck& deck) {
  count_pairings(deck);
  int failures = 0, points = 0;
  std::string first;  // the first failure, for the line that says why verify exits 1
  for (const auto& spec : deck.meshes) {
    Deck d = deck;
    d.verify_limit = std::numeric_limits<long>::max();  // verify always consults the oracle,
    d.verify = pipeline::VerifyMethod::entries;         // entry by entry
    const Model model = model_of(spec, d);
    const Oracle oracle = oracle_of(model, d);
    for (const auto& sc : deck.scalars)
      for (const auto& mn : deck.mappings)
        for (const auto& rn : deck.races) {
          if (!goes_with(mn, rn)) continue;
          PointRequest req = request(deck, model, mn, rn, sc, "csr", deck.storages.front());
          req.timed = false;
          const json res = point_of(model, d, req, oracle);
          const json& v = res["verification"];
          const bool ok = v["status"] == "passed";
          ++points;
          if (!ok && !failures++) first = verification_failure(res, spec.name);
          fmt::print("{:<8} {:<14} {:<8} {:<6}  max abs diff {:.3e}  max rel diff {:.3e}  {}\n", spec.name,
                     name_of(req.mapping), res["race"].get<std::string>(), sc, v["max_abs"].get<double>(),
                     v["max_rel"].get<double>(), ok ? "ok" : "FAILED");
        }
  }
  if (failures == 0) return 0;
  fmt::print(stderr, "kfem: error: verification FAILED for {} of {} strategies; the first: {}\n", failures,
             points, first);
  return 1;
}

int cmd_bench(const Deck& deck, const std::string& out_dir) {
  const std::string path = out_dir + "/results.json";  // the folder exists: the OutputSet made it
  if (deck.stages) return bench_stages(deck, out_dir);
  if (deck.scaling) return bench_scaling(deck, out_dir);
  if (deck.procurement) return bench_procurement(deck, out_dir);
  // Operators only matter when the points solve.
  const std::vector<std::string> operators =
      deck.bench_solve ? deck.operators : std::vector<std::string>{"csr"};
  const std::size_t pairings = count_pairings(deck);
  std::size_t total = 0;
  for (const int p : deck.orders)
    total +=
        deck.scalars.size() * pairings * operators.size() * deck.storages.size() * meshes_for(deck, p).size();
  json doc = {
      {"kfem_results", 1},
      {"deck", deck.source},
      {"context", run_context(true)},
      {"points", json::array()},
      {"models",
       {{"flops",
         "per family: hex8 8*(144+45+120+64*62); others nq*(2VD^2 + inv + 2ND^2 + 2N^2D^2) + N^2*block"},
        {"bytes", "nnz*s (zeroing) + elements*(V*D*s + index bytes + 2*(N*C)^2*s)"},
        {"hbm_floor", "nnz*s / measured copy bandwidth"}}}};
  const double bw = doc["context"]["copy_bandwidth_gbs"].is_number()
                        ? doc["context"]["copy_bandwidth_gbs"].get<double>()
                        : 0.0;
  const bool tty = isatty(fileno(stderr));
  const auto t0 = clock::now();
  std::size_t done = 0;
  for (const int order : deck.orders)
    for (const auto& spec : meshes_for(deck, order)) {
      Deck at_order = deck;
      at_order.order = order;
      const Model model = model_of(spec, at_order);
      const Oracle oracle = oracle_of(model, deck, deck.bench_solve);  // the reference solve needs K
      json mesh_info = model.info;
      mesh_info["oracle_s"] = oracle.seconds;
      mesh_info["flops_per_element"] = model_flops_per_element(model);
      std::optional<BoundarySetup> boundary;  // bad names fail here, before any allocation
      std::optional<ReferenceSolution> reference;
      if (deck.bench_solve) {
        boundary.emplace(boundary_setup(model, at_order));
        reference = reference_solution(model, at_order, *boundary, oracle);
        if (reference) mesh_info["reference_solve"] = reference->info();
      }
      std::vector<PointRequest> plan;
      for (const auto& sc : deck.scalars)
        for (const auto& mn : deck.mappings)
          for (const auto& rn : deck.races)
            for (const auto& on : operators)
              for (const auto& st : deck.storages) {
                if (!goes_with(mn, rn)) continue;
                PointRequest req = request(deck, model, mn, rn, sc, on, st);
                req.solve = deck.bench_solve;
                req.boundary = boundary ? &*boundary : nullptr;
                req.reference = reference ? &*reference : nullptr;
                req.time_colorings = deck.bench_solve;
                plan.push_back(req);
              }
      for (const auto& req : plan) {
        json res = point_of(model, deck, req, oracle);
        res["mesh"] = mesh_info;
        // The measured bandwidth is that of the default execution space's memory: compare only its points.
        if (bw > 0 && res["backend"] == doc["context"]["kokkos"]["default_execution_space"])
          res["rates"]["hbm_floor_fraction"] = res["rates"]["value_bytes"].get<double>() / (bw * 1e9) /
                                               res["assembly"]["stats"]["median"].get<double>();
        doc["points"].push_back(res);
        doc["wall_s"] = process_seconds();
        write_json(path, doc);  // every finished point is on disk (in the temporary until the end)
        ++done;
        const double el = std::chrono::duration<double>(clock::now() - t0).count();
        fmt::print(stderr, "{}[{}/{}] {} {} {}{} {}: {} ({}) elapsed {:.0f} s, remaining ~{:.0f} s{}",
                   tty ? "\r\033[K" : "", done, total, spec.name, name_of(req.mapping),
                   res["race"].get<std::string>(), " " + name_of(req.storage), name_of(req.scalar),
                   fmt_time(res["assembly"]["stats"]["median"]),
                   res["verification"]["status"].get<std::string>(), el, el / done * (total - done),
                   tty ? "" : "\n");
      }
    }
  if (tty) fmt::print(stderr, "\n");
  // Summary table, in sweep order.
  const std::size_t w = mesh_width(doc["points"]);
  fmt::print("{:<{}} {:<6} {:<14} {:<8} {:>12} {:>12} {:>10} {:>9} {:>9}\n", "mesh", w, "scalar", "mapping",
             "race", "median", "min..max%", "GDOF/s", "floor", "verified");
  for (const auto& p : doc["points"]) {
    const auto& st = p["assembly"]["stats"];
    const double med = st["median"];
    fmt::print("{:<{}} {:<6} {:<14} {:<8} {:>12} {:>11.1f}% {:>10.4g} {:>9} {:>9}\n",
               p["mesh"]["name"].get<std::string>(), w, p["scalar"].get<std::string>(),
               p["mapping"].get<std::string>(), p["race"].get<std::string>(), fmt_time(med),
               100.0 * (st["max"].get<double>() - st["min"].get<double>()) / med,
               p["rates"]["gdof_per_s"].get<double>(),
               p["rates"].contains("hbm_floor_fraction")
                   ? fmt::format("{:.2f}", p["rates"]["hbm_floor_fraction"].get<double>())
                   : "-",
               p["verification"]["status"].get<std::string>());
  }
  if (deck.bench_solve) print_solves(doc["points"]);
  return finish_bench(path, doc["points"]);
}
}  // namespace kfem::app
