// Race acoo (amorim's a-COO): from the mesh on the device straight to a CSR, with no DOF graph, no
// colouring and no CSR index: a generic mapping pushes every Ke entry onto its row's list and the
// rows are consolidated into CSR (acoo_assembler.hpp). Every timed run starts from scratch.
// Verification assembles without conditions and compares the CSR with the oracle; the solve
// assembles again with the problem's Dirichlet conditions, which a-COO applies during consolidation
// (the system problems/dirichlet.hpp makes of the assembled CSR, minus its zeroed entries), and
// runs CG on that CSR. For the paper's comparison the graph path is timed on the same device mesh
// too: DOF graph + element data with the CSR index + atomic assembly, same mapping and scalar.
#include <Kokkos_Core.hpp>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kfem/assembly/acoo/acoo_assembler.hpp"
#include "kfem/assembly/assembler.hpp"
#include "kfem/assembly/make_assembler.hpp"
#include "kfem/assembly/strategies.hpp"
#include "kfem/core/error.hpp"
#include "kfem/io/matrix_market.hpp"
#include "kfem/pipeline/point_detail.hpp"
#include "kfem/sparsity/dof_graph.hpp"

namespace kfem::pipeline {
using nlohmann::json;
namespace {
// [[maybe_unused]]: a GPU-only build, which refuses a-COO (acoo_point), has no caller.
[[maybe_unused]] json samples_json(const std::vector<double>& samples) {
  return {{"samples_s", samples}, {"stats", summarize(samples)}};
}

// The graph path on p's device mesh, for the comparison: DOF graph, element data with the CSR index,
// atomic assembly (NaN-poisoned, warm-up + repetitions) and the same kernels with the adds discarded.
// The assembler comes from make_assembler, whose kernels the library compiles once.
template <class Exec, class S, class Family, class Mapping, class Op>
json graph_path(const Exec& exec, const Model& model, const Settings& settings, MappingKind mapping,
                Problem<Exec> p, const fe::Reference<Family, S, typename Exec::memory_space>& ref,
                const Op& op, json& element_computation) {
  ScopedRegion r("kfem::acoo::graph_path");
  json g = {{"race", "atomic"}, {"target", "index"}, {"mapping", Mapping::name}};
  g["graph_s"] = time_fenced(
      exec, [&] { p.graph = build_dof_graph(exec, p.dofs, model.dofs.num_nodes, model.components); });
  AssemblerChoice choice{mapping, RaceKind::atomic, TargetKind::index};
  if constexpr (MappingTraits<Mapping>::has_elements_per_team)
    choice.elements_per_team = Mapping{}.elements_per_team;
  std::unique_ptr<AssemblerBase<Exec, S>> a;
  g["element_data_s"] =
      time_fenced(exec, [&] { a = make_assembler<Exec, Family, S>(exec, p, ref, op, choice); });
  Kokkos::View<S*, typename Exec::memory_space> values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::values"), p.graph.dof.nnz());
  const std::vector<double> samples = time_repeated(
      exec, settings.warmup, settings.repetitions,
      [&] { Kokkos::deep_copy(exec, values, std::numeric_limits<S>::quiet_NaN()); },
      [&] { a->assemble(values); });
  const std::vector<double> c = time_repeated(
      exec, settings.warmup, settings.repetitions, [] {}, [&] { a->compute_only(values); });
  element_computation = samples_json(c);
  element_computation["includes"] =
      "the mapping's kernels with every add discarded, on the graph path's element data: the element work "
      "a-COO's "
      "insertion does before its pushes";
  const double median = summarize(samples).median;
  g["assembly"] = samples_json(samples);
  g["total_s"] = g["graph_s"].get<double>() + g["element_data_s"].get<double>() + median;
  g["includes"] = "DOF graph + element data (coordinates, CSR index) + median atomic assembly";
  g["memory"] = detail::csr_memory(model, p.graph.dof.nnz(), p.graph.dof.num_rows, sizeof(S),
                                   a->index_bytes_per_element());
  return g;
}

template <class Exec, class S, class Family, class Mapping>
json acoo_point_on(const Exec& exec, const Model& model, const Settings& settings, const PointRequest& req,
                   const Oracle& oracle) {
  using Mem = typename Exec::memory_space;
  const auto op = detail::make_operator<Family, S>(settings);
  using Acoo = AcooAssembler<Exec, Family, std::decay_t<decltype(op)>, S, Mapping>;
  json out, setup;
  Problem<Exec> p;
  pipeline::SetupChoice choice;
  choice.pattern = false;  // a-COO builds its own
  choice.time_colorings = req.time_colorings;
  {
    pipeline::Setup<Exec> s =
        pipeline::make_setup(exec, model.mesh, model.dofs, model.components, model.orders, choice);
    p = std::move(s.problem);
    setup = std::move(s.times);
  }
  const auto ref = fe::to_device<Family, S>(exec, model.reference);

  // Each run from scratch: element data (coordinates, DOF pairs), lists, insertion, consolidation,
  // CSR. The reset frees the previous run's assembler and CSR outside the timed interval.
  std::optional<Acoo> acoo;
  typename Acoo::Result csr;
  std::vector<double> element_data;
  std::vector<AcooTimes> times;
  const int warmup = req.timed ? settings.warmup : 0;
  std::vector<double> total;
  {
    ScopedRegion r("kfem::acoo");
    total = time_repeated(
        exec, warmup, req.timed ? settings.repetitions : 1,
        [&] {
          acoo.reset();
          csr = {};
        },
        [&] {
          element_data.push_back(time_fenced(exec, [&] { acoo.emplace(exec, p, ref, op); }));
          csr = acoo->assemble();
          times.push_back(csr.times);
        });
  }
  // The first run: with the upload, what a user waits for from a mesh on the host to the first values.
  out["first_matrix_s"] = detail::setup_stages_s(setup) + element_data.front() + times.front().total_s();
  element_data.erase(element_data.begin(), element_data.begin() + warmup);
  times.erase(times.begin(), times.begin() + warmup);
  std::vector<double> alloc, insert, consolidate, lengths, gather, sort, to_csr, assembly;
  for (const AcooTimes& t : times) {
    alloc.push_back(t.alloc_s), insert.push_back(t.insert_s), consolidate.push_back(t.consolidate_s);
    lengths.push_back(t.lengths_s), gather.push_back(t.gather_s), sort.push_back(t.sort_s);
    to_csr.push_back(t.csr_s), assembly.push_back(t.total_s());
  }
  setup["element_data_s"] = summarize(element_data).median;
  out["setup"] = setup;
  out["index_bytes_per_element"] = 0.0;  // no CSR index: every push carries its global (row, column)
  out["storage"] = name_of(req.storage);
  out["assembly"] = {{"samples_s", assembly},
                     {"stats", summarize(assembly)},
                     {"includes",
                      "a-COO: allocate the lists + element work and pushes + consolidation (gather, sort, "
                      "sum duplicates) + CSR write"}};
  const AcooTimes& last = csr.times;
  json a = {{"mapping", Mapping::name},
            {"target", "dof-pair (global row, column)"},
            {"stages",
             {{"element_data_s", samples_json(element_data)},
              {"alloc_s", samples_json(alloc)},
              {"insert_s", samples_json(insert)},
              {"consolidate_s", samples_json(consolidate)},
              {"lengths_s", samples_json(lengths)},
              {"gather_s", samples_json(gather)},
              {"sort_s", samples_json(sort)},
              {"csr_s", samples_json(to_csr)}}},
            {"new_mesh", samples_json(total)},
            {"pushed", last.pushed},
            {"pool_nodes", last.pool_nodes},
            {"retries", last.retries},
            {"storage_bytes_per_element", last.storage_bytes_per_element()},
            {"peak_bytes_per_element", last.peak_bytes_per_element()},
            {"csr_memory", detail::csr_memory(model, csr.graph.nnz(), csr.graph.num_rows, sizeof(S), 0.0)}};
  a["new_mesh"]["includes"] =
      "element data (coordinates, DOF pairs) + the a-COO assembly, from the mesh on the device";
  if (req.timed) {
    json element_computation;
    json g = graph_path<Exec, S, Family, Mapping>(exec, model, settings, req.mapping, p, ref, op,
                                                  element_computation);
    const double acoo_s = summarize(total).median;
    g["acoo_total_s"] = acoo_s;
    g["acoo_speedup"] = g["total_s"].get<double>() / acoo_s;  // > 1: a-COO is faster from a new mesh
    a["vs_graph_path"] = g;
    out["element_computation"] = element_computation;
  }
  out["acoo"] = a;
  out["nnz"] = csr.graph.nnz();
  out["dofs"] = p.num_dofs();

  {
    ScopedRegion r("kfem::verify");
    out["verification"] = pipeline::verification(exec, csr.graph, csr.values, false, oracle);
  }
  HostCsr<S> got;  // for the export and the solve's read-outs
  if ((!settings.export_matrix.empty() && req.exports) || req.solve) got = to_host(csr.graph, csr.values);
  if (!settings.export_matrix.empty() && req.exports) write_matrix_market(settings.export_matrix, got, false);

  if (req.solve) {
    ScopedRegion r("kfem::solve");
    const std::optional<HostCsr<double>> K = detail::full_matrix(got, false);
    csr = {};
    if (req.solve_with != SolveOperator::csr) {
      out["solve"] = detail::ebe_solve(model, settings, req, &*K);
    } else {
      const auto in = detail::solve_inputs<S, Mem>(req);
      const double assemble_s = time_fenced(exec, [&] {
        csr = acoo->assemble(acoo::Dirichlet<S, Mem>{in.fixed, in.values, in.rhs});
      });
      std::vector<double> u;
      const SolveResult cg =
          detail::csr_solve(exec, csr.graph, csr.values, in.rhs, false, settings, model.components, u);
      json s = detail::solve_report(model, settings, req, cg, u, &*K);
      const AcooTimes& t = csr.times;
      s["dirichlet"] =
          "during the a-COO consolidation (fixed rows keep their diagonal, fixed columns lifted to the rhs)";
      s["assembly_with_conditions"] = {
          {"alloc_s", t.alloc_s},     {"insert_s", t.insert_s}, {"consolidate_s", t.consolidate_s},
          {"lengths_s", t.lengths_s}, {"gather_s", t.gather_s}, {"sort_s", t.sort_s},
          {"csr_s", t.csr_s},         {"total_s", assemble_s}};
      s["memory"] = detail::csr_memory(model, csr.graph.nnz(), csr.graph.num_rows, sizeof(S), 0.0);
      out["solve"] = s;
    }
  }
  return out;
}
}  // namespace

void check_acoo_mapping(MappingKind mapping) {
  if (dispatch_entry<GenericMappingRegistry>(mapping, [](auto) {})) return;
  std::string generic;
  for_each_entry<GenericMappingRegistry>(
      [&](auto e) { generic += (generic.empty() ? "" : ", ") + name_of(decltype(e)::kind); });
  bool fast_path = false;
  dispatch_entry<MappingRegistry>(mapping, [&](auto e) { fast_path = decltype(e)::specialised; });
  throw InputError("race acoo pushes Ke through the generic kernels (mapping " + generic + "): '" +
                   name_of(mapping) +
                   (fast_path ? "' is a hex8 fast path with its own CSR index" : "' is not generic"));
}

namespace detail {
json acoo_point(const Model& model, const Settings& settings, const PointRequest& req, const Oracle& oracle) {
  check_acoo_mapping(req.mapping);
  json out;
  with_point_types(model, req, [&](auto exec, auto s, auto family) {
    dispatch_entry<GenericMappingRegistry>(req.mapping, [&](auto e) {
      using Mapping = typename decltype(e)::type;
      out = acoo_point_on<decltype(exec), decltype(s), decltype(family), Mapping>(exec, model, settings, req,
                                                                                  oracle);
    });
  });
  return out;
}
}  // namespace detail
}  // namespace kfem::pipeline
