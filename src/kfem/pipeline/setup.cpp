#include "kfem/pipeline/setup.hpp"

#include <Kokkos_Core.hpp>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kfem/assembly/make_assembler.hpp"  // dispatch_entry
#include "kfem/assembly/strategies.hpp"
#include "kfem/coloring/device_coloring.hpp"
#include "kfem/mesh/morton.hpp"
#include "kfem/mesh/renumber.hpp"
#include "kfem/report/timing.hpp"
#include "kfem/sparsity/dof_graph.hpp"
#include "kfem/sparsity/lower.hpp"

namespace kfem::pipeline {
namespace {
template <class F>
double host_seconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Mesh, element DOF nodes and the natural element order to the device; the fenced seconds of the
// copies. hex8's DOF nodes are its 8 vertices in their order (vertex_dof_map): the connectivity
// serves as both, which saves a third of mesh4's upload. With `coords`, the coordinates go beside
// what the caller does next (the DOF graph reads the connectivity alone): it waits for them.
template <class Exec>
double upload(const Exec& exec, const Mesh& mesh, const DofMap& dm, Problem<Exec>& p,
              std::optional<UploadBeside<Exec>>* coords = nullptr) {
  using Mem = typename Exec::memory_space;
  ScopedRegion r("kfem::setup::mesh_to_device");
  const double s = time_fenced(exec, [&] {
    p.mesh = allocate_device_mesh<Mem>(mesh);
    std::vector<HostUpload> now{conn_upload(p.mesh, mesh)};
    if (dm.order == 1 && dm.nodes_per_element == max_cell_vertices) {
      p.dofs = p.mesh.conn;
    } else {
      p.dofs = decltype(p.dofs)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::element_dofs"),
                                dm.num_elements(), dm.nodes_per_element);
      now.push_back(host_upload(p.dofs, dm.element_nodes.data(), dm.element_nodes.size()));
    }
    if (!coords) now.push_back(coords_upload(p.mesh, mesh));
    kfem::upload(exec, now);
    if (coords) coords->emplace(exec, std::vector<HostUpload>{coords_upload(p.mesh, mesh)});
  });
  p.natural = Kokkos::View<ordinal_t*, Mem>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::natural_order"), mesh.num_elements());
  fill_iota(exec, p.natural);
  return s;
}
}  // namespace

const Coloring& MeshOrders::greedy(const Mesh& mesh) const {
  if (!greedy_) greedy_s_ = host_seconds([&] { greedy_ = greedy_coloring(mesh); });
  return *greedy_;
}

SetupChoice csr_setup(MappingKind mapping, RaceKind race, ColoringMethod coloring, bool morton) {
  SetupChoice c;
  dispatch_entry<MappingRegistry>(
      mapping, [&](auto e) { c.lower = MappingTraits<typename decltype(e)::type>::lower; });
  c.coloring = needs_coloring_kind(race);
  c.coloring_method = coloring;
  c.launch_order = morton && follows_launch_order(mapping, race);
  return c;
}

template <class Exec>
Setup<Exec> make_setup(const Exec& exec, const Mesh& mesh, const DofMap& dofs, int components,
                       const MeshOrders& orders, const SetupChoice& choice) {
  Setup<Exec> s;
  Problem<Exec>& p = s.problem;
  nlohmann::json& t = s.times;
  const Problem<Exec>* shared =
      choice.share && choice.pattern ? choice.share->find<Exec>(components, choice.lower) : nullptr;
  if (shared) {  // the upload and the pattern of an earlier point
    p.mesh = shared->mesh, p.dofs = shared->dofs, p.natural = shared->natural;
    p.graph = shared->graph, p.lower = shared->lower;
    t["pattern_shared"] = true;
  } else if (choice.pattern) {
    // The coordinates upload beside the graph; mesh_to_device_s is the connectivity's upload and
    // whatever of the coordinates' the graph did not hide.
    std::optional<UploadBeside<Exec>> coords;
    double to_device_s = upload(exec, mesh, dofs, p, &coords);
    {
      ScopedRegion r("kfem::setup::graph");
      const KeepWorkspace<typename Exec::memory_space> keep{choice.spare_bytes,
                                                            choice.spare_bytes > 0 ? &p.spare : nullptr};
      t["graph_s"] = time_fenced(
          exec, [&] { p.graph = build_dof_graph(exec, p.dofs, dofs.num_nodes, components, 0, keep); });
      if (choice.lower) {
        t["lower_graph_s"] = time_fenced(exec, [&] { p.lower = lower_triangle(exec, p.graph.dof); });
        // Lower storage reads the node graph and its own pattern: the full pattern's columns (4 bytes
        // per entry, as much as float values) would only take room from the largest mesh.
        p.graph.dof.cols = {};
      }
    }
    {
      ScopedRegion r("kfem::setup::mesh_to_device");
      to_device_s += coords->wait();
    }
    t["mesh_to_device_s"] = to_device_s;
    if (choice.share) choice.share->keep(p, components, choice.lower);
  } else {  // the storage sizes its vectors by Problem::num_dofs()
    t["mesh_to_device_s"] = upload(exec, mesh, dofs, p);
    p.graph.components = components;
    p.graph.dof.num_rows = ordinal_t(components * dofs.num_nodes);
  }
  if (choice.coloring) {
    ScopedRegion r("kfem::setup::coloring");
    const int npe = mesh.nodes_per_element();
    DeviceColoring<typename Exec::memory_space> c;
    if (choice.coloring_method == ColoringMethod::device) {
      t["coloring_s"] =
          time_fenced(exec, [&] { c = device_coloring(exec, p.mesh.conn, p.mesh.num_nodes, npe); });
    } else {
      const Coloring& h = orders.greedy(mesh);
      c = to_device(exec, h, "greedy");  // the upload is not the host's colouring: not timed
      t["coloring_s"] = orders.greedy_seconds();
    }
    t["coloring_method"] = choice.coloring_method == ColoringMethod::device ? "device" : "greedy";
    t["coloring_found_by"] = c.method;
    t["colors"] = c.num_colors();
    // Checked where the colours are, whoever found them.
    const std::string bad =
        coloring_conflict(exec, p.mesh.conn, p.mesh.num_nodes, npe, c.color, c.num_colors());
    if (!bad.empty()) throw std::runtime_error("invalid colouring: " + bad);
    p.coloring.offsets = c.offsets;
    p.colors = c.color;
    p.by_color = c.order;
  }
  if (choice.launch_order) {
    ScopedRegion r("kfem::setup::launch_order");
    t["morton_order_s"] = time_fenced(exec, [&] {
      // Its keys in the graph's kept workspace, if any: the element data overwrites them later.
      p.uncolored = morton::order(exec, p.mesh.coords, p.mesh.conn, mesh.nodes_per_element(), p.spare.lend());
    });
  }
  if (choice.time_colorings) {
    ScopedRegion r("kfem::setup::coloring_times");
    orders.greedy(mesh);
    t["coloring_greedy_s"] = orders.greedy_seconds();
    t["coloring_device_s"] = time_fenced(
        exec, [&] { (void)device_coloring(exec, p.mesh.conn, p.mesh.num_nodes, mesh.nodes_per_element()); });
  }
  return s;
}

#define KFEM_MAKE_SETUP(Exec)                                                                            \
  template Setup<Exec> make_setup<Exec>(const Exec&, const Mesh&, const DofMap&, int, const MeshOrders&, \
                                        const SetupChoice&);
KFEM_FOR_EACH_EXEC_SPACE(KFEM_MAKE_SETUP)
#undef KFEM_MAKE_SETUP
}  // namespace kfem::pipeline
