#include "kfem/pipeline/tuner.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <utility>

#include "kfem/assembly/assembler.hpp"
#include "kfem/core/atomic_file.hpp"
#include "kfem/core/backends.hpp"
#include "kfem/core/error.hpp"
#include "kfem/fe/lagrange_basis.hpp"
#include "kfem/pipeline/setup.hpp"
#include "kfem/report/context.hpp"

namespace kfem::pipeline {
using nlohmann::json;
namespace {
// Elements of the sample: enough to fill a GPU (a quarter of mesh4), little enough for a CPU core.
std::size_t sample_size(bool device) {
  return device ? 262144 : 16384;
}
// Each candidate's timing: short, since every candidate of the family runs.
constexpr int warmup = 1, repetitions = 3;

// Full-storage mappings serving the family, in registry order.
std::vector<MappingKind> candidate_mappings(CellType cell) {
  std::vector<MappingKind> out;
  fe::with_family(cell, [&](auto family) {
    for_each_entry<MappingRegistry>([&](auto e) {
      using E = decltype(e);
      if (E::template serves<decltype(family)> && !MappingTraits<typename E::type>::lower)
        out.push_back(E::kind);
    });
  });
  return out;
}

// A candidate's point: a registry race handling, or a-COO's row lists (acoo_race), which push
// through the generic mappings only (check_acoo_mapping refuses the others).
PointRequest candidate_request(MappingKind mapping, const std::string& race, const TunerQuery& q) {
  PointRequest req{mapping, RaceKind::atomic, q.target, q.scalar, q.backend};
  if (race == acoo_race) {
    check_acoo_mapping(mapping);
    req.storage = StorageKind::acoo;
  } else if (const auto kind = entry_kind<RaceRegistry>(race)) {
    req.race = *kind;
    req.storage = storage_for(mapping, "default");
  } else {
    throw InputError("unknown race handling '" + race + "'");
  }
  req.timed = true;
  req.diagnostics = false;
  return req;
}

// What the choice depends on: the device (GPU name, or CPU model and threads), backend, family and
// order, scalar, storage, and the launch order (settings.element_order: a choice timed in one order
// need not hold in the other).
std::string cache_key(const Model& model, const Settings& settings, const TunerQuery& q, const json& ctx) {
  std::string backend;
  with_backend(q.backend, [&](auto exec) { backend = decltype(exec)::name(); });
  const bool gpu = is_device_backend(q.backend) && ctx["device"].is_object();
  const std::string device = gpu ? ctx["device"]["name"].get<std::string>()
                                 : fmt::format("{} x{}", ctx["host"]["cpu_model"].get<std::string>(),
                                               ctx["kokkos"]["host_concurrency"].get<int>());
  return fmt::format("{} | {} | {} p{} | {} | full | race {} | {} order", device, backend,
                     model.info["family"].get<std::string>(), model.dofs.order, name_of(q.scalar), q.race,
                     settings.element_order);
}

// The cache's document, or an empty one (with a note when the file is there but not kfem's).
json read_cache(const std::string& path, std::vector<std::string>& notes) {
  std::ifstream in(path);
  if (!in) return json::object();
  try {
    json doc = json::parse(in);
    if (doc.is_object() && doc.value("kfem_tuner", 0) == 1 && doc["entries"].is_object()) return doc;
  } catch (const json::exception&) {
  }
  notes.push_back(fmt::format("tuner cache {} is not one kfem wrote: timing again and replacing it", path));
  return json::object();
}

// Written atomically: a crash leaves the old cache, never half of one. A cache that cannot be
// written costs the next run a retune, not this one its result.
void write_cache(const std::string& path, const json& doc, std::vector<std::string>& notes) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  try {
    write_atomically(path, doc.dump(2) + "\n");
  } catch (const InputError& e) {
    notes.push_back(fmt::format("tuner cache: {}: the choice is not remembered", e.what()));
  }
}

// The candidates' report entries in candidate order, every one timed on the sample and verified.
json time_candidates(const Model& sample, const Settings& settings, const TunerQuery& q,
                     const CandidateRunner& run) {
  Settings quick = settings;
  quick.warmup = warmup, quick.repetitions = repetitions;
  quick.verify_limit = std::numeric_limits<long>::max();
  quick.export_matrix.clear(), quick.export_solution.clear();  // candidates write nothing
  const Oracle oracle = make_oracle(sample, quick);
  const std::vector<std::string> races =  // registry order: colored, atomic, scatter, none
      q.race == "default" ? entry_names<RaceRegistry>() : std::vector<std::string>{q.race};
  json candidates = json::array();
  const SharedPattern pattern;  // one upload and DOF graph per storage for all candidates
  for (const MappingKind mapping : candidate_mappings(sample.mesh.cell))
    for (const std::string& race : races) {
      const auto kind = entry_kind<RaceRegistry>(race);
      if (kind && !pairs_with_kinds(mapping, *kind)) continue;  // owner computes: race none alone
      json c = {{"mapping", name_of(mapping)}, {"race", race}};
      try {
        PointRequest req = candidate_request(mapping, race, q);
        req.share_pattern = &pattern;
        const json res = run(sample, quick, req, oracle);
        c["median_s"] = res["assembly"]["stats"]["median"];
        c["verification"] = res["verification"]["status"];
      } catch (const InputError& e) {
        c["verification"] = std::string("refused: ") + e.what();
      }
      candidates.push_back(c);
    }
  return candidates;
}

// Within 1 % of the fastest verified median is a tie (on a GPU, scatter is atomic underneath): the
// first in candidate order wins, so a retune does not flip between equals. Null if none verified.
const json* fastest_verified(const json& candidates) {
  double fastest = std::numeric_limits<double>::infinity();
  for (const json& c : candidates)
    if (c["verification"] == "passed") fastest = std::min(fastest, c["median_s"].get<double>());
  for (const json& c : candidates)
    if (c["verification"] == "passed" && c["median_s"].get<double>() <= 1.01 * fastest) return &c;
  return nullptr;
}

TunerChoice choice(const json& entry, const char* source, const std::string& path, const std::string& key,
                   std::vector<std::string> notes) {
  json report = entry;
  report["source"] = source;
  report["cache"] = path;
  report["key"] = key;
  return {entry["mapping"], entry["race"], report, std::move(notes)};
}

// The first n elements of the model with their nodes numbered compactly: the same family, order,
// element shapes and (for generated meshes) element order as the problem.
Model sample_of(const Model& m, std::size_t n) {
  if (n >= m.mesh.num_elements()) return m;
  Model s;
  s.mesh.cell = m.mesh.cell;
  std::vector<ordinal_t> new_id(m.mesh.num_nodes(), -1);
  const int nv = m.mesh.nodes_per_element();
  for (std::size_t e = 0; e < n; ++e) {
    auto row = m.mesh.elements[e];
    for (int v = 0; v < nv; ++v) {
      ordinal_t& id = new_id[std::size_t(row[v])];
      if (id < 0)
        id = ordinal_t(s.mesh.nodes.size()), s.mesh.nodes.push_back(m.mesh.nodes[std::size_t(row[v])]);
      row[v] = id;
    }
    s.mesh.elements.push_back(row);
  }
  s.dofs = lagrange::has_basis(m.mesh.cell) ? lagrange_dof_map(s.mesh, m.dofs.order) : vertex_dof_map(s.mesh);
  s.reference = m.reference;
  s.components = m.components;
  s.info = m.info;
  s.info["name"] = fmt::format("{} (first {} elements)", m.info["name"].get<std::string>(), n);
  s.info["elements"] = n;
  s.info["nodes"] = s.dofs.num_nodes;
  s.info["dofs"] = std::int64_t(s.components) * s.dofs.num_nodes;
  return s;
}
}  // namespace

std::string tuner_cache_path() {
  if (const char* p = std::getenv("KFEM_TUNER_CACHE"); p && *p) return p;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/kfem/tuner.json";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.cache/kfem/tuner.json";
}

TunerChoice tune(const Model& model, const Settings& settings, const TunerQuery& query,
                 const CandidateRunner& run) {
  const std::string path = query.cache.empty() ? tuner_cache_path() : query.cache;
  const json ctx = run_context(false);
  const std::string key = cache_key(model, settings, query, ctx);
  std::vector<std::string> notes;
  json cache = read_cache(path, notes);
  if (!query.retune && cache.contains("entries") && cache["entries"].contains(key))
    return choice(cache["entries"][key], "cache", path, key, std::move(notes));

  const Model sample = sample_of(model, sample_size(is_device_backend(query.backend)));
  const json candidates = time_candidates(sample, settings, query, run);
  const json* best = fastest_verified(candidates);
  if (!best) throw InputError("mapping auto: no candidate passed verification on the sample");
  json entry = {
      {"mapping", (*best)["mapping"]},
      {"race", (*best)["race"]},
      {"median_s", (*best)["median_s"]},
      {"sample", sample.info["name"]},
      {"sample_elements", sample.mesh.num_elements()},
      {"candidates", candidates},
      {"tuned_at", ctx["date"]},
      {"why", fmt::format("the fastest assembly median ({} warm-up, {} runs) among the candidates that "
                          "matched the sample's oracle; within 1 % of it, the first candidate (registry "
                          "order, then {})",
                          warmup, repetitions, join_names(race_names_for(false)))}};
  if (!cache.contains("entries")) cache = {{"kfem_tuner", 1}, {"entries", json::object()}};
  cache["entries"][key] = entry;
  write_cache(path, cache, notes);
  return choice(entry, query.retune ? "retuned" : "tuned", path, key, std::move(notes));
}
}  // namespace kfem::pipeline
