#include "deck.hpp"

#include <yaml-cpp/yaml.h>

#include <regex>
#include <set>

#include "kfem/core/error.hpp"
#include "names.hpp"

namespace kfem::app {
namespace {
struct Reader {
  std::string file;
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw InputError(file + ": key '" + key + "': " + what);
  }
  // Rejects keys of `node` not in `allowed`.
  void keys(const YAML::Node& node, const std::string& where, const std::set<std::string>& allowed) const {
    if (!node.IsMap()) fail(where, "expected a mapping");
    for (const auto& kv : node) {
      const std::string k = kv.first.as<std::string>();
      if (!allowed.count(k)) fail(where.empty() ? k : where + "." + k, "unknown key");
    }
  }
  template <class T>
  void get(const YAML::Node& node, const std::string& key, const std::string& path, T& out) const {
    if (!node[key]) return;
    try {
      out = node[key].as<T>();
    } catch (const YAML::Exception&) {
      fail(path, "wrong type");
    }
  }
  std::vector<std::string> list(const YAML::Node& node, const std::string& path) const {
    try {
      if (node.IsSequence()) return node.as<std::vector<std::string>>();
      return {node.as<std::string>()};
    } catch (const YAML::Exception&) {
      fail(path, "expected a string or a list of strings");
    }
  }
};
}  // namespace

MeshSpec parse_mesh_name(const std::string& text) {
  static const std::regex named("mesh([1-4])"), dims("([0-9]+)x([0-9]+)x([0-9]+)");
  std::smatch m;
  if (std::regex_match(text, m, named)) return {text, paper_mesh(std::stoi(m[1])), {}};
  if (std::regex_match(text, m, dims))
    return {text, BoxSpec{std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3])}, {}};
  if (text.size() > 4 && text.substr(text.size() - 4) == ".msh") return {text, std::nullopt, text};
  throw InputError("mesh '" + text + "': expected mesh1..mesh4, NXxNYxNZ or a .msh file");
}

Deck read_deck(const std::string& path) {
  Reader r{path};
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw InputError(path + ": cannot open deck");
  } catch (const YAML::Exception& e) {
    throw InputError(path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  Deck d;
  d.source = path;
  if (root.IsNull()) return d;
  r.keys(root, "", {"mesh", "material", "load", "assembly", "solver", "bench", "output", "backend"});
  r.get(root, "backend", "backend", d.backend);
  if (const auto m = root["mesh"]) {
    r.keys(m, "mesh", {"sizes", "size", "length", "renumber", "seed", "distort"});
    std::vector<double> len{16.0, 2.0, 2.0};
    r.get(m, "length", "mesh.length", len);
    if (len.size() != 3) r.fail("mesh.length", "expected [Lx, Ly, Lz]");
    std::vector<std::string> sizes{"16x2x2"};
    if (m["sizes"]) sizes = r.list(m["sizes"], "mesh.sizes");
    if (m["size"]) sizes = r.list(m["size"], "mesh.size");
    d.meshes.clear();
    for (const auto& s : sizes) {
      MeshSpec spec = parse_mesh_name(s);
      if (spec.box && s.rfind("mesh", 0) != 0) spec.box->lx = len[0], spec.box->ly = len[1], spec.box->lz = len[2];
      d.meshes.push_back(spec);
    }
    std::string ren = "natural";
    r.get(m, "renumber", "mesh.renumber", ren);
    try {
      d.renumber = renumbering_from_name(ren);
    } catch (const InputError& e) {
      r.fail("mesh.renumber", e.what());
    }
    r.get(m, "seed", "mesh.seed", d.seed);
    r.get(m, "distort", "mesh.distort", d.distort);
  }
  if (const auto m = root["material"]) {
    r.keys(m, "material", {"E", "nu"});
    r.get(m, "E", "material.E", d.young);
    r.get(m, "nu", "material.nu", d.poisson);
    if (!(d.young > 0) || !(d.poisson > -1 && d.poisson < 0.5)) r.fail("material", "need E > 0 and -1 < nu < 0.5");
  }
  if (const auto l = root["load"]) {
    r.keys(l, "load", {"P"});
    r.get(l, "P", "load.P", d.force);
  }
  if (const auto a = root["assembly"]) {
    r.keys(a, "assembly", {"mapping", "race", "scalar", "coloring", "elements_per_team"});
    if (a["mapping"]) d.mappings = r.list(a["mapping"], "assembly.mapping");
    if (a["race"]) d.races = r.list(a["race"], "assembly.race");
    if (a["scalar"]) d.scalars = r.list(a["scalar"], "assembly.scalar");
    r.get(a, "coloring", "assembly.coloring", d.coloring);
    if (d.coloring != "greedy" && d.coloring != "device") r.fail("assembly.coloring", "expected greedy or device");
    r.get(a, "elements_per_team", "assembly.elements_per_team", d.elements_per_team);
    if (d.elements_per_team < 1 || d.elements_per_team > 32) r.fail("assembly.elements_per_team", "expected 1..32");
  }
  if (const auto s = root["solver"]) {
    r.keys(s, "solver", {"enabled", "tolerance", "max_iterations"});
    r.get(s, "enabled", "solver.enabled", d.solve);
    r.get(s, "tolerance", "solver.tolerance", d.tolerance);
    r.get(s, "max_iterations", "solver.max_iterations", d.max_iterations);
  }
  if (const auto b = root["bench"]) {
    r.keys(b, "bench", {"warmup", "repetitions", "verify_limit"});
    r.get(b, "warmup", "bench.warmup", d.warmup);
    r.get(b, "repetitions", "bench.repetitions", d.repetitions);
    r.get(b, "verify_limit", "bench.verify_limit", d.verify_limit);
    if (d.warmup < 0 || d.repetitions < 1) r.fail("bench", "need warmup >= 0 and repetitions >= 1");
  }
  if (const auto o = root["output"]) {
    r.keys(o, "output", {"report", "export_matrix", "export_mesh", "export_solution"});
    r.get(o, "report", "output.report", d.report);
    r.get(o, "export_matrix", "output.export_matrix", d.export_matrix);
    r.get(o, "export_mesh", "output.export_mesh", d.export_mesh);
    r.get(o, "export_solution", "output.export_solution", d.export_solution);
  }
  return d;
}
}  // namespace kfem::app
