// The graph path's set-up, shared by a point on one rank (pipeline.cpp) and on many
// (pipeline_mpi.cpp): mesh to the device, DOF graph (and its lower triangle for symmetric
// mappings), the colouring a coloured race needs, and the point's assembler; each phase timed.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>

#include "device_memory.hpp"
#include "kfem/assembly/make_assembler.hpp"
#include "kfem/mesh/renumber.hpp"
#include "kfem/report/context.hpp"
#include "kfem/sparsity/lower.hpp"
#include "names.hpp"
#include "pipeline_detail.hpp"

namespace kfem::app::detail {
template <class Exec, class S, class Family>
std::unique_ptr<AssemblerBase<Exec, S>> prepare_graph_assembly(const Exec& exec, const Model& model,
                                                               const Deck& deck, const PointRequest& req,
                                                               const Oracle& oracle, Problem<Exec>& p,
                                                               nlohmann::json& setup) {
  const auto op = make_operator<Family, S>(deck);
  setup["mesh_to_device_s"] = upload_model(exec, model, p);
  bool symmetric = false, specialised = false;
  dispatch_entry<MappingRegistry>(req.mapping, [&](auto e) {
    symmetric = stores_lower<typename decltype(e)::type>::value;
    specialised = decltype(e)::specialised;
  });
  {
    ScopedRegion r("kfem::setup::graph");
    setup["graph_s"] = time_fenced(
        exec, [&] { p.graph = build_dof_graph(exec, p.dofs, model.dofs.num_nodes, model.components); });
    if (symmetric) {
      setup["lower_graph_s"] = time_fenced(exec, [&] { p.lower = lower_triangle(exec, p.graph.dof); });
      // Lower storage reads the node graph and its own pattern: the full pattern's columns (4 bytes
      // per entry, as much as float values) would only take room from the largest mesh.
      p.graph.dof.cols = {};
    }
  }
  if (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible) {
    // The pattern is resident: what is still to come must fit in what is free now.
    const fe::HostReference& ref = model.reference;
    const MeshCounts counts{std::int64_t(model.mesh.num_elements()), model.dofs.num_nodes, model.components,
                            model.dofs.nodes_per_element, ref.vertices};
    const double per_element = specialised ? hex8_element_data_bytes(sizeof(S))
                                           : generic_element_data_bytes(sizeof(S), ref.vertices, ref.nsh,
                                                                        req.target == TargetKind::index);
    const auto info = device_info();
    check_point_memory(model.info.value("name", std::string("mesh")),
                       point_memory(counts, p.graph.dof.nnz(), symmetric ? p.lower.nnz() : p.graph.dof.nnz(),
                                    symmetric, sizeof(S), per_element, req.solve),
                       info ? double(info->free_bytes) : 0.0);
  }
  if (needs_coloring_kind(req.race)) setup.update(attach_coloring(exec, model, deck, oracle, p));
  if (follows_launch_order(req.mapping, req.race) && deck.element_order == "morton") {
    if (!oracle.morton) oracle.morton_seconds = time_fenced(exec, [&] { oracle.morton = morton_order(model.mesh); });
    setup["morton_order_s"] = oracle.morton_seconds;
    set_launch_order(exec, p, *oracle.morton);
  }
  if (req.time_colorings) setup.update(coloring_times(exec, model, oracle, p));

  std::unique_ptr<AssemblerBase<Exec, S>> assembler;
  ScopedRegion r("kfem::setup::element_data");
  setup["element_data_s"] = time_fenced(exec, [&] {
    const auto ref = fe::to_device<Family, S>(exec, model.reference);
    assembler = make_assembler<Exec, Family, S>(
        exec, p, ref, op,
        AssemblerChoice{req.mapping, req.race, req.target, deck.elements_per_team, deck.symmetric_blocks});
  });
  return assembler;
}

// What a report says of the strategy beyond its names: warps per block of the warp mappings, the
// target of the generic ones.
template <class Exec>
nlohmann::json strategy_fields(const PointRequest& req, const Deck& deck) {
  nlohmann::json out = nlohmann::json::object();
  bool specialised = false, warp = false;
  dispatch_entry<MappingRegistry>(req.mapping, [&](auto e) {
    using ME = decltype(e);
    specialised = ME::specialised;
    warp = has_elements_per_team<typename ME::type>::value;
  });
  if (warp) out["elements_per_team"] = lanes::on_host<Exec> ? 1 : deck.elements_per_team;
  if (follows_launch_order(req.mapping, req.race)) out["element_order"] = deck.element_order;
  if (has_symmetric_blocks_kind(req.mapping)) out["symmetric_blocks"] = deck.symmetric_blocks;
  if (!specialised) out["target"] = name_of(req.target);
  return out;
}
}  // namespace kfem::app::detail
