#include "tuner.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>

#include "kfem/assembly/make_assembler.hpp"
#include "kfem/core/backends.hpp"
#include "kfem/core/error.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/pipeline/setup.hpp"
#include "kfem/report/context.hpp"
#include "names.hpp"
#include "points.hpp"

namespace kfem::app {
using nlohmann::json;
namespace {
// Elements of the sample: enough to fill a GPU (a quarter of mesh4), little enough for a CPU core.
std::size_t sample_size(bool device) {
  return device ? 262144 : 16384;
}

// The first n elements of the mesh with their nodes renumbered compactly: the same family, order,
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
  s.dofs = m.mesh.cell == CellType::prism6 ? prism_dof_map(s.mesh, m.dofs.order) : vertex_dof_map(s.mesh);
  s.reference = m.reference;
  s.components = m.components;
  s.info = m.info;
  s.info["name"] = fmt::format("{} (first {} elements)", m.info["name"].get<std::string>(), n);
  s.info["elements"] = n;
  s.info["nodes"] = s.dofs.num_nodes;
  s.info["dofs"] = std::int64_t(s.components) * s.dofs.num_nodes;
  return s;
}

// Full-storage mappings serving the family, in registry order.
std::vector<std::string> candidate_mappings(CellType cell) {
  std::vector<std::string> out;
  fe::with_family(cell, [&](auto family) {
    using Family = decltype(family);
    std::apply(
        [&](auto... e) {
          ((decltype(e)::template serves<Family> && !stores_lower<typename decltype(e)::type>::value
                ? out.push_back(name_of(decltype(e)::kind))
                : void()),
           ...);
        },
        MappingRegistry{});
  });
  return out;
}

// What the choice depends on: the device (GPU name, or CPU model and threads), backend, family and
// order, scalar, storage, and the launch order (assembly.element_order: Morton made pairs x atomic
// 7 % faster on an H100, so a choice timed in one order need not hold in the other).
std::string cache_key(const Model& model, const Deck& deck, const std::string& scalar,
                      const std::string& race) {
  const json ctx = run_context(false);
  std::string backend;
  with_backend(deck.backend, [&](auto exec) { backend = decltype(exec)::name(); });
  const bool gpu = backend == "Cuda" && ctx["device"].is_object();
  const std::string device = gpu ? ctx["device"]["name"].get<std::string>()
                                 : fmt::format("{} x{}", ctx["host"]["cpu_model"].get<std::string>(),
                                               ctx["kokkos"]["host_concurrency"].get<int>());
  return fmt::format("{} | {} | {} p{} | {} | full | race {} | {} order", device, backend,
                     model.info["family"].get<std::string>(), model.dofs.order, scalar, race,
                     deck.element_order);
}

json read_cache(const std::string& path) {
  std::ifstream in(path);
  if (!in) return json::object();
  try {
    json doc = json::parse(in);
    if (doc.is_object() && doc.value("kfem_tuner", 0) == 1 && doc["entries"].is_object()) return doc;
  } catch (const json::exception&) {
  }
  fmt::print(stderr, "kfem: note: tuner cache {} is not one kfem wrote: timing again and replacing it\n",
             path);
  return json::object();
}

// The whole file written next to itself and renamed: a crash leaves the old cache, never half of one.
void write_cache(const std::string& path, json doc) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  const std::string temp = path + ".tmp";
  {
    std::ofstream out(temp);
    out << doc.dump(2) << "\n";
    if (!out) {
      fmt::print(stderr, "kfem: note: tuner cache {} cannot be written: the choice is not remembered\n",
                 path);
      return;
    }
  }
  fs::rename(temp, path, ec);
  if (ec)
    fmt::print(stderr, "kfem: note: tuner cache {}: {}: the choice is not remembered\n", path, ec.message());
}

std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}
}  // namespace

std::string tuner_cache_path() {
  if (const char* p = std::getenv("KFEM_TUNER_CACHE"); p && *p) return p;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/kfem/tuner.json";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.cache/kfem/tuner.json";
}

TunerChoice tune(const Model& model, const Deck& deck, const std::string& race, const std::string& scalar,
                 bool retune) {
  const std::string path = tuner_cache_path();
  const std::string key = cache_key(model, deck, scalar, race);
  json cache = read_cache(path);
  if (!retune && cache.contains("entries") && cache["entries"].contains(key)) {
    const json& e = cache["entries"][key];
    json report = e;
    report["source"] = "cache";
    report["cache"] = path;
    report["key"] = key;
    return {e["mapping"], e["race"], report};
  }

  std::string backend;
  with_backend(deck.backend, [&](auto exec) { backend = decltype(exec)::name(); });
  const Model sample = sample_of(model, sample_size(backend == "Cuda"));
  Deck quick = deck;
  quick.warmup = 1, quick.repetitions = 3;
  quick.verify_limit = std::numeric_limits<long>::max();
  quick.export_matrix.clear();
  const Oracle oracle = oracle_of(sample, quick);
  const std::vector<std::string> races =  // registry order: colored, atomic, scatter, none
      race == "default" ? entry_names<RaceRegistry>() : std::vector<std::string>{race};
  json candidates = json::array();
  const json* best = nullptr;
  const pipeline::SharedPattern pattern;  // one upload and DOF graph per storage for all candidates
  for (const std::string& mapping : candidate_mappings(model.mesh.cell))
    for (const std::string& r : races) {
      if (!goes_with(mapping, r)) continue;
      json c = {{"mapping", mapping}, {"race", r}};
      try {  // a pairing the pipeline refuses (a-COO with a fast path) is recorded, not fatal
        PointRequest req = request(quick, sample, mapping, r, scalar);
        req.timed = true;
        req.diagnostics = false;
        req.share_pattern = &pattern;
        const json res = point_of(sample, quick, req, oracle);
        c["median_s"] = res["assembly"]["stats"]["median"];
        c["verification"] = res["verification"]["status"];
      } catch (const InputError& e) {
        c["verification"] = std::string("refused: ") + e.what();
      }
      candidates.push_back(c);
    }
  double fastest = std::numeric_limits<double>::infinity();
  for (const json& c : candidates)
    if (c["verification"] == "passed") fastest = std::min(fastest, c["median_s"].get<double>());
  // Within 1 % of the fastest is a tie (on a GPU, scatter is atomic underneath): the first in
  // candidate order wins, so a retune does not flip between equals.
  for (const json& c : candidates)
    if (!best && c["verification"] == "passed" && c["median_s"].get<double>() <= 1.01 * fastest) best = &c;
  if (!best) throw InputError("mapping auto: no candidate passed verification on the sample");
  json entry = {{"mapping", (*best)["mapping"]},
                {"race", (*best)["race"]},
                {"median_s", (*best)["median_s"]},
                {"sample", sample.info["name"]},
                {"sample_elements", sample.mesh.num_elements()},
                {"candidates", candidates},
                {"tuned_at", now_utc()},
                {"why",
                 "the fastest assembly median (1 warm-up, 3 runs) among the candidates that matched the "
                 "sample's oracle; within 1 % of it, the first candidate (registry order, then " +
                     join_names(race_names_for(false)) + ")"}};
  if (!cache.contains("entries")) cache = {{"kfem_tuner", 1}, {"entries", json::object()}};
  cache["entries"][key] = entry;
  write_cache(path, cache);
  json report = entry;
  report["source"] = retune ? "retuned" : "tuned";
  report["cache"] = path;
  report["key"] = key;
  return {entry["mapping"], entry["race"], report};
}
}  // namespace kfem::app
