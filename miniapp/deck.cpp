#include "deck.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "kfem/core/error.hpp"
#include "kfem/problems/problem.hpp"
#include "names.hpp"

namespace kfem::app {
namespace {
struct Reader {
  std::string file;
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw InputError(file + ": key '" + key + "': " + what);
  }
  // A mapping key of `where` as a name: a key that is itself a mapping or a list is an error.
  std::string name(const YAML::Node& key, const std::string& where) const {
    if (!key.IsScalar()) fail(where, "keys must be names, not mappings or lists");
    return key.Scalar();
  }
  // Rejects keys of `node` not in `allowed`.
  void keys(const YAML::Node& node, const std::string& where, const std::set<std::string>& allowed) const {
    if (!node.IsMap()) fail(where, "expected a mapping");
    for (const auto& kv : node) {
      const std::string k = name(kv.first, where);
      if (!allowed.count(k)) fail(where.empty() ? k : where + "." + k, "unknown key");
    }
  }
  template <class T>
  void get(const YAML::Node& node, const std::string& key, const std::string& path, T& out) const {
    if (!node[key]) return;
    if (node[key].IsNull()) fail(path, "missing value");
    try {
      out = node[key].as<T>();
    } catch (const YAML::Exception&) {
      fail(path, "wrong type");
    }
  }
  // A string or a non-empty list of strings: an empty list would run (or verify) nothing.
  std::vector<std::string> list(const YAML::Node& node, const std::string& path) const {
    if (node.IsNull()) fail(path, "missing value");
    std::vector<std::string> out;
    try {
      out = node.IsSequence() ? node.as<std::vector<std::string>>()
                              : std::vector<std::string>{node.as<std::string>()};
    } catch (const YAML::Exception&) {
      fail(path, "expected a string or a list of strings");
    }
    if (out.empty()) fail(path, "empty list");
    for (const auto& s : out)
      if (s.empty()) fail(path, "empty name");
    return out;
  }
};

// yaml-cpp 0.7 keeps both pairs of a key given twice and node[key] answers the first: the second
// value would be dropped silently. Walks every mapping (block or flow, at any depth) and throws
// naming the key and both places. Containers are visited once by their position in the file: an
// alias shares its anchor's node, and `&a [*a]` makes a cycle.
void check_duplicate_keys(const Reader& r, const YAML::Node& node, const std::string& where,
                          std::set<std::size_t>& seen, int depth = 0) {
  if (!node.IsMap() && !node.IsSequence()) return;
  const YAML::Mark at = node.Mark();
  if (depth > 256 || (!at.is_null() && !seen.insert(std::size_t(at.pos)).second)) return;
  const auto inner = [&](const std::string& part) { return where.empty() ? part : where + "." + part; };
  if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i)
      check_duplicate_keys(r, node[i], where + "[" + std::to_string(i) + "]", seen, depth + 1);
    return;
  }
  std::map<std::string, YAML::Mark> first;
  for (const auto& kv : node) {
    if (!kv.first.IsScalar()) continue;  // Reader::name rejects such keys
    const std::string& k = kv.first.Scalar();
    const YAML::Mark m = kv.first.Mark();
    const auto [it, fresh] = first.emplace(k, m);
    if (!fresh) {
      const YAML::Mark& a = it->second;
      r.fail(inner(k), a.line == m.line
                           ? "given twice on line " + std::to_string(m.line + 1) + " (columns " +
                                 std::to_string(a.column + 1) + " and " + std::to_string(m.column + 1) + ")"
                           : "given twice, on lines " + std::to_string(a.line + 1) + " and " +
                                 std::to_string(m.line + 1));
    }
    check_duplicate_keys(r, kv.second, inner(k), seen, depth + 1);
  }
}

// mesh.capacitor.triangles as a list: every plain "capacitor" entry becomes "capacitor:N", one per count.
std::vector<MeshSpec> per_triangle_count(const std::vector<MeshSpec>& meshes,
                                         const std::vector<double>& counts) {
  std::vector<MeshSpec> out;
  for (const auto& m : meshes) {
    if (!m.capacitor || m.triangles > 0) {
      out.push_back(m);
      continue;
    }
    for (const double n : counts)
      out.push_back(parse_mesh_name("capacitor:" + std::to_string(std::llround(n))));
  }
  return out;
}
}  // namespace

namespace {
// A double as a user would read it back: 1e+300, inf, nan, -0.5.
std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}
}  // namespace

namespace {
// DOF ids are 32-bit too: components * DOF nodes of every generated box, at each order it runs
// with (a structured prism box of order p has the (p nx + 1)(p ny + 1)(p nz + 1) lattice nodes).
void check_dof_counts(const Deck& d) {
  const int components = problems::problem_for(d.problem).components;
  for (const int p : d.orders)
    for (const auto& spec : meshes_for(d, p)) check_dof_count(spec, p, components);
}
}  // namespace

void check_parameters(const Deck& d) {
  if (d.problem != "elasticity" && d.problem != "electrostatics")
    throw InputError(d.source + ": key 'problem': '" + d.problem +
                     "' (expected elasticity or electrostatics)");
  for (const int p : d.orders)
    if (p < 1 || p > 7)
      throw InputError(d.source + ": key 'element.order': p = " + std::to_string(p) +
                       " (prisms support 1..7)");
  for (const auto& [p, specs] : d.meshes_by_order)
    if (std::find(d.orders.begin(), d.orders.end(), p) == d.orders.end())
      throw InputError(d.source + ": key 'mesh.sizes." + std::to_string(p) + "': order " + std::to_string(p) +
                       " is not in element.order");
  if (d.refine < 0 || d.refine > 8)
    throw InputError(d.source + ": key 'mesh.refine': " + std::to_string(d.refine) +
                     " (expected 0..8 refinements)");
  const auto bad = [&](const std::string& key, const std::string& what) {
    throw InputError(d.source + ": key '" + key + "': " + what);
  };
  if (!(d.permittivity > 0) || !std::isfinite(d.permittivity))
    bad("material.permittivity", number(d.permittivity) + " (need a finite value > 0)");
  if (!(d.young > 0) || !std::isfinite(d.young))
    bad("material.E", number(d.young) + " (need a finite E > 0)");
  if (!(d.poisson > -1 && d.poisson < 0.5)) bad("material.nu", number(d.poisson) + " (need -1 < nu < 0.5)");
  if (!std::isfinite(d.force)) bad("load.P", number(d.force) + " (need a finite load)");
  if (!(d.tolerance > 0 && d.tolerance < 1))
    bad("solver.tolerance", number(d.tolerance) + " (need 0 < tolerance < 1)");
  if (d.max_iterations < 1) bad("solver.max_iterations", std::to_string(d.max_iterations) + " (need >= 1)");
  if (!(d.distort >= 0) || !std::isfinite(d.distort))
    bad("mesh.distort", number(d.distort) + " (need a finite fraction of the element size >= 0)");
  // Only banas' block mappings have the option (gemm is symmetric by construction): a deck that
  // asks for it must name one of them, or the option would silently do nothing.
  if (d.symmetric_blocks && std::none_of(d.mappings.begin(), d.mappings.end(),
                                         [](const std::string& m) { return integrates_by_blocks(m); }))
    bad("assembly.symmetric_blocks", "true, but no mapping of the deck integrates by blocks (" +
                                         join_names(block_mapping_names()) + "; " +
                                         name_of(MappingKind::gemm) + " is symmetric already)");
  if (d.warmup < 0) bad("bench.warmup", std::to_string(d.warmup) + " (need >= 0)");
  if (d.repetitions < 1)
    bad("bench.repetitions", std::to_string(d.repetitions) + " (need >= 1: nothing would be timed)");
  if (d.verify_limit < 0) bad("bench.verify_limit", std::to_string(d.verify_limit) + " (need >= 0)");
  if (d.coloring != "greedy" && d.coloring != "device")
    bad("assembly.coloring", "'" + d.coloring + "' (expected greedy or device)");
  if (d.element_order != "natural" && d.element_order != "morton")
    bad("assembly.element_order", "'" + d.element_order + "' (expected natural or morton)");
  if (d.partition != "default" && d.partition != "metis" && d.partition != "rcb")
    bad("parallel.partition", "'" + d.partition + "' (expected metis, rcb or default)");
  for (const auto& h : d.halos)
    if (h != "auto" && h != "mpi" && h != "nccl")
      bad("parallel.halo", "'" + h + "' (expected auto, mpi or nccl)");
  if (d.sums != "auto" && d.sums != "mpi" && d.sums != "nccl")
    bad("parallel.sums", "'" + d.sums + "' (expected auto, mpi or nccl)");
  if (d.target != "default" && d.target != "index" && d.target != "search")
    bad("assembly.target", "'" + d.target + "' (expected index, search or default)");
  for (const auto& s : d.scalars)
    if (s != "float" && s != "double") bad("assembly.scalar", "'" + s + "' (expected float or double)");
  const std::pair<const char*, std::size_t> lists[] = {{"mesh.size", d.meshes.size()},
                                                       {"assembly.mapping", d.mappings.size()},
                                                       {"assembly.race", d.races.size()},
                                                       {"assembly.scalar", d.scalars.size()},
                                                       {"solver.operator", d.operators.size()}};
  for (const auto& [key, n] : lists)
    if (n == 0) bad(key, "empty list");
  for (const auto& bc : d.dirichlet)
    for (const double v : bc.values)
      if (!std::isfinite(v)) bad("bc.dirichlet." + bc.name, number(v) + " (need finite values)");
  if (!d.solve && !d.export_solution.empty())
    bad("output.export_solution",
        "'" + d.export_solution +
            "': no solution to export without a solve (--no-solve or solver.enabled: false)");
  const std::size_t want = std::size_t(problems::problem_for(d.problem).components);
  for (const auto& bc : d.dirichlet)
    if (bc.values.size() != want)
      throw InputError(d.source + ": key 'bc.dirichlet." + bc.name + "': " + d.problem + " needs " +
                       (want == 1 ? "one value" : "[ux, uy, uz]"));
  check_dof_counts(d);
  if (d.problem == "electrostatics" && d.dirichlet.empty())
    throw InputError(d.source +
                     ": electrostatics without bc.dirichlet is singular (fix the potential somewhere)");
}

const std::vector<MeshSpec>& meshes_for(const Deck& d, int p) {
  const auto it = d.meshes_by_order.find(p);
  return it != d.meshes_by_order.end() ? it->second : d.meshes;
}

Deck read_deck(const std::string& path) {
  Reader r{path};
  {
    // A mesh where the deck goes (`kfem run beam.msh`) is often valid YAML (one long string).
    std::ifstream in(path, std::ios::binary);
    std::string first;
    std::getline(in, first);
    if (first.rfind("$MeshFormat", 0) == 0)
      throw InputError(path + ": a Gmsh mesh file, not a YAML deck (give meshes with --mesh " + path + ")");
  }
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw InputError(path + ": cannot open deck");
  } catch (const YAML::Exception& e) {
    throw InputError(path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  std::set<std::size_t> seen;
  check_duplicate_keys(r, root, "", seen);
  Deck d;
  d.source = path;
  if (root.IsNull()) return d;
  if (!root.IsMap())
    throw InputError(path +
                     ": not a deck (a YAML mapping of keys such as mesh:, assembly:; see inputs/README.md)");
  r.keys(root, "",
         {"problem", "mesh", "element", "material", "load", "bc", "assembly", "solver", "bench", "output",
          "backend", "parallel"});
  r.get(root, "backend", "backend", d.backend);
  r.get(root, "problem", "problem", d.problem);
  if (const auto el = root["element"]) {
    r.keys(el, "element", {"order"});
    if (el["order"] && el["order"].IsSequence()) {
      r.get(el, "order", "element.order", d.orders);
      if (d.orders.empty()) r.fail("element.order", "empty list");
      d.order = d.orders.front();
    } else {
      r.get(el, "order", "element.order", d.order);
      d.orders = {d.order};
    }
  }
  if (const auto bc = root["bc"]) {
    r.keys(bc, "bc", {"dirichlet"});
    if (const auto dir = bc["dirichlet"]) {
      if (!dir.IsMap()) r.fail("bc.dirichlet", "expected a mapping NAME: value or NAME: [ux, uy, uz]");
      for (const auto& kv : dir) {
        DirichletSpec spec{r.name(kv.first, "bc.dirichlet"), {}};
        try {
          spec.values = kv.second.IsSequence() ? kv.second.as<std::vector<double>>()
                                               : std::vector<double>{kv.second.as<double>()};
        } catch (const YAML::Exception&) {
          r.fail("bc.dirichlet." + spec.name, "expected a number or a list of numbers");
        }
        d.dirichlet.push_back(spec);
      }
    }
  }
  if (const auto m = root["mesh"]) {
    r.keys(m, "mesh", {"sizes", "size", "length", "renumber", "seed", "distort", "capacitor", "refine"});
    std::vector<double> capacitor_counts;  // a list sweeps capacitor sizes
    if (const auto c = m["capacitor"]) {
      r.keys(c, "mesh.capacitor", {"box", "triangles"});
      std::vector<double> box{d.capacitor_width, d.capacitor_height};
      r.get(c, "box", "mesh.capacitor.box", box);
      if (box.size() != 2 || !(box[0] > 0) || !(box[1] > 0) || !std::isfinite(box[0]) ||
          !std::isfinite(box[1]))
        r.fail("mesh.capacitor.box", "expected finite [width, height] > 0");
      d.capacitor_width = box[0], d.capacitor_height = box[1];
      if (c["triangles"] && c["triangles"].IsSequence()) {
        r.get(c, "triangles", "mesh.capacitor.triangles", capacitor_counts);
      } else {
        r.get(c, "triangles", "mesh.capacitor.triangles", d.capacitor_triangles);
        capacitor_counts = {d.capacitor_triangles};
      }
      for (const double n : capacitor_counts)
        if (!(n >= 100 && n <= std::numeric_limits<ordinal_t>::max()))
          r.fail("mesh.capacitor.triangles", "expected a count in 100..2147483647");
      if (capacitor_counts.empty()) r.fail("mesh.capacitor.triangles", "empty list");
      d.capacitor_triangles = capacitor_counts.front();
    }
    std::vector<double> len{16.0, 2.0, 2.0};
    r.get(m, "length", "mesh.length", len);
    if (len.size() != 3) r.fail("mesh.length", "expected [Lx, Ly, Lz]");
    for (const double l : len)
      if (!std::isfinite(l)) r.fail("mesh.length", "expected finite lengths");  // > 0: the box generator
    const auto specs = [&](const std::vector<std::string>& sizes) {
      std::vector<MeshSpec> out;
      for (const auto& s : sizes) {
        MeshSpec spec = parse_mesh_name(s);
        if (spec.box && s.rfind("mesh", 0) != 0 && (m["length"] || spec.cell != CellType::tri3))
          spec.box->lx = len[0], spec.box->ly = len[1], spec.box->lz = len[2];
        out.push_back(spec);
      }
      return out;
    };
    std::vector<std::string> sizes{"16x2x2"};
    if (m["sizes"] && m["sizes"].IsMap()) {  // {order: sizes}: a mesh per order (bench sweeps over orders)
      for (const auto& kv : m["sizes"]) {
        int p = 0;
        try {
          p = kv.first.as<int>();
        } catch (const YAML::Exception&) {
          r.fail("mesh.sizes", "expected a list of sizes or a mapping {order: sizes}");
        }
        d.meshes_by_order[p] = specs(r.list(kv.second, "mesh.sizes." + std::to_string(p)));
      }
      if (d.meshes_by_order.empty()) r.fail("mesh.sizes", "empty mapping");
      sizes.clear();
      for (const auto& spec : d.meshes_by_order.begin()->second) sizes.push_back(spec.name);
    } else if (m["sizes"]) {
      sizes = r.list(m["sizes"], "mesh.sizes");
    }
    if (m["size"]) sizes = r.list(m["size"], "mesh.size");
    d.meshes = specs(sizes);
    if (capacitor_counts.size() > 1) d.meshes = per_triangle_count(d.meshes, capacitor_counts);
    std::string ren = "natural";
    r.get(m, "renumber", "mesh.renumber", ren);
    try {
      d.renumber = renumbering_from_name(ren);
    } catch (const InputError& e) {
      r.fail("mesh.renumber", e.what());
    }
    r.get(m, "seed", "mesh.seed", d.seed);
    r.get(m, "distort", "mesh.distort", d.distort);
    r.get(m, "refine", "mesh.refine", d.refine);
  }
  if (const auto m = root["material"]) {
    r.keys(m, "material", {"E", "nu", "permittivity"});
    r.get(m, "E", "material.E", d.young);
    r.get(m, "nu", "material.nu", d.poisson);
    r.get(m, "permittivity", "material.permittivity", d.permittivity);
  }
  if (const auto l = root["load"]) {
    r.keys(l, "load", {"P"});
    r.get(l, "P", "load.P", d.force);
  }
  if (const auto a = root["assembly"]) {
    r.keys(a, "assembly",
           {"mapping", "race", "scalar", "storage", "coloring", "element_order", "elements_per_team",
            "target", "symmetric_blocks"});
    r.get(a, "target", "assembly.target", d.target);
    if (d.target != "default" && d.target != "index" && d.target != "search")
      r.fail("assembly.target", "expected index, search or default");
    if (a["mapping"]) d.mappings = r.list(a["mapping"], "assembly.mapping");
    if (a["race"]) d.races = r.list(a["race"], "assembly.race");
    if (a["scalar"]) d.scalars = r.list(a["scalar"], "assembly.scalar");
    if (a["storage"]) d.storages = r.list(a["storage"], "assembly.storage");
    for (const auto& name : d.storages) {
      try {
        check_storage_name(name);
      } catch (const InputError& e) {
        r.fail("assembly.storage", e.what());
      }
    }
    r.get(a, "coloring", "assembly.coloring", d.coloring);
    if (d.coloring != "greedy" && d.coloring != "device")
      r.fail("assembly.coloring", "expected greedy or device");
    r.get(a, "element_order", "assembly.element_order", d.element_order);
    if (d.element_order != "natural" && d.element_order != "morton")
      r.fail("assembly.element_order", "expected natural or morton");
    r.get(a, "elements_per_team", "assembly.elements_per_team", d.elements_per_team);
    if (d.elements_per_team < 1 || d.elements_per_team > 32)
      r.fail("assembly.elements_per_team", "expected 1..32");
    r.get(a, "symmetric_blocks", "assembly.symmetric_blocks", d.symmetric_blocks);
  }
  if (const auto s = root["solver"]) {
    r.keys(s, "solver",
           {"enabled", "method", "tolerance", "max_iterations", "single_reduction", "operator",
            "preconditioner"});
    r.get(s, "enabled", "solver.enabled", d.solve);
    r.get(s, "tolerance", "solver.tolerance", d.tolerance);
    r.get(s, "max_iterations", "solver.max_iterations", d.max_iterations);
    std::string method;
    r.get(s, "method", "solver.method", method);
    if (!method.empty()) {
      try {
        d.solver = solver_from_name(method);
      } catch (const InputError& e) {
        r.fail("solver.method", e.what());
      }
    }
    std::string preconditioner;
    r.get(s, "preconditioner", "solver.preconditioner", preconditioner);
    if (!preconditioner.empty()) {
      try {
        d.preconditioner = preconditioner_from_name(preconditioner);
      } catch (const InputError& e) {
        r.fail("solver.preconditioner", e.what());
      }
    }
    bool single_reduction = false;  // the older spelling of method: cg-single-reduction
    r.get(s, "single_reduction", "solver.single_reduction", single_reduction);
    if (single_reduction) {
      const SolverId single = solver_from_name(solver::CgSingleReduction::name);
      if (!method.empty() && d.solver != single)
        r.fail("solver.single_reduction", "true contradicts solver.method: " + method);
      d.solver = single;
    }
    if (s["operator"]) d.operators = r.list(s["operator"], "solver.operator");
    for (const auto& name : d.operators) {
      try {
        operator_from_name(name);
      } catch (const InputError& e) {
        r.fail("solver.operator", e.what());
      }
    }
  }
  if (const auto b = root["bench"]) {
    r.keys(b, "bench",
           {"warmup", "repetitions", "verify", "verify_limit", "solve", "stages", "launch_bytes", "scaling",
            "procurement"});
    if (const auto sc = b["scaling"]) {
      r.keys(sc, "bench.scaling", {"ranks", "weak", "strong"});
      ScalingSpec spec;
      r.get(sc, "ranks", "bench.scaling.ranks", spec.ranks);
      for (const int k : spec.ranks)
        if (k < 1) r.fail("bench.scaling.ranks", std::to_string(k) + " (need rank counts >= 1)");
      r.get(sc, "weak", "bench.scaling.weak", spec.weak);
      r.get(sc, "strong", "bench.scaling.strong", spec.strong);
      if (!spec.weak && !spec.strong) r.fail("bench.scaling", "weak and strong are both off: nothing to run");
      d.scaling = spec;
    }
    if (const auto pr = b["procurement"]) {
      ProcurementSpec spec;
      if (!pr.IsMap() || pr.size() > 0) {
        r.keys(pr, "bench.procurement", {"elements_per_rank", "verify_mesh", "max_spread"});
        r.get(pr, "elements_per_rank", "bench.procurement.elements_per_rank", spec.elements_per_rank);
        r.get(pr, "verify_mesh", "bench.procurement.verify_mesh", spec.verify_mesh);
        r.get(pr, "max_spread", "bench.procurement.max_spread", spec.max_spread);
      }
      if (spec.elements_per_rank < 1)
        r.fail("bench.procurement.elements_per_rank",
               std::to_string(spec.elements_per_rank) + " (need >= 1)");
      if (!(spec.max_spread >= 0)) r.fail("bench.procurement.max_spread", "expected a fraction >= 0");
      std::optional<MeshSpec> vm;
      try {
        vm = parse_mesh_name(spec.verify_mesh);
      } catch (const InputError& e) {
        r.fail("bench.procurement.verify_mesh", e.what());
      }
      if (!vm->box || vm->cell != CellType::hex8)
        r.fail("bench.procurement.verify_mesh", "'" + spec.verify_mesh + "': expected a hex8 box NXxNYxNZ");
      d.procurement = spec;
    }
    if (d.scaling && d.procurement)
      r.fail("bench", "scaling and procurement are separate benches: one per deck");
    if ((d.scaling || d.procurement) && (d.stages || d.bench_solve))
      r.fail("bench", "scaling and procurement solve on their own: drop bench.stages and bench.solve");
    r.get(b, "stages", "bench.stages", d.stages);
    r.get(b, "launch_bytes", "bench.launch_bytes", d.launch_bytes);
    if (!(d.launch_bytes >= 0)) r.fail("bench.launch_bytes", "expected a size in bytes >= 0 (0: automatic)");
    r.get(b, "warmup", "bench.warmup", d.warmup);
    r.get(b, "repetitions", "bench.repetitions", d.repetitions);
    r.get(b, "verify_limit", "bench.verify_limit", d.verify_limit);
    std::string verify;
    r.get(b, "verify", "bench.verify", verify);
    if (!verify.empty()) {
      if (const auto m = verify_method_from_name(verify))
        d.verify = *m;
      else
        r.fail("bench.verify", "'" + verify + "' (expected products or entries)");
    }
    r.get(b, "solve", "bench.solve", d.bench_solve);
    if (d.warmup < 0 || d.repetitions < 1) r.fail("bench", "need warmup >= 0 and repetitions >= 1");
  }
  if (const auto pa = root["parallel"]) {
    r.keys(pa, "parallel", {"partition", "halo", "sums"});
    r.get(pa, "sums", "parallel.sums", d.sums);
    r.get(pa, "partition", "parallel.partition", d.partition);
    if (d.partition != "default" && d.partition != "metis" && d.partition != "rcb")
      r.fail("parallel.partition", "expected metis, rcb or default");
    if (pa["halo"]) d.halos = r.list(pa["halo"], "parallel.halo");
  }
  if (const auto o = root["output"]) {
    r.keys(o, "output", {"report", "export_matrix", "export_mesh", "export_solution"});
    r.get(o, "report", "output.report", d.report);
    r.get(o, "export_matrix", "output.export_matrix", d.export_matrix);
    r.get(o, "export_mesh", "output.export_mesh", d.export_mesh);
    r.get(o, "export_solution", "output.export_solution", d.export_solution);
  }
  check_parameters(d);
  return d;
}
}  // namespace kfem::app
