// The graph path's set-up, shared by a point on one rank (pipeline.cpp) and on many
// (pipeline_mpi.cpp): the library's set-up for a CSR point (kfem/pipeline/setup.hpp), the check
// that the rest fits in device memory, and the point's assembler; each phase timed.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>

#include "device_memory.hpp"
#include "kfem/assembly/make_assembler.hpp"
#include "kfem/pipeline/setup.hpp"
#include "kfem/report/context.hpp"
#include "names.hpp"
#include "pipeline_detail.hpp"

namespace kfem::app::detail {
template <class Exec, class S, class Family>
std::unique_ptr<AssemblerBase<Exec, S>> prepare_graph_assembly(const Exec& exec, const Model& model,
                                                               const Deck& deck, const PointRequest& req,
                                                               Problem<Exec>& p, nlohmann::json& setup) {
  const auto op = make_operator<Family, S>(deck);
  pipeline::SetupChoice choice =
      pipeline::csr_setup(req.mapping, req.race, coloring_method(deck), deck.element_order == "morton");
  choice.time_colorings = req.time_colorings;
  pipeline::Setup<Exec> s =
      pipeline::make_setup(exec, model.mesh, model.dofs, model.components, model.orders, choice);
  p = std::move(s.problem);
  setup.update(s.times);
  bool specialised = false;
  dispatch_entry<MappingRegistry>(req.mapping, [&](auto e) { specialised = decltype(e)::specialised; });
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
                       point_memory(counts, p.graph.dof.nnz(), choice.lower ? p.lower.nnz() : p.graph.dof.nnz(),
                                    choice.lower, sizeof(S), per_element, req.solve),
                       info ? double(info->free_bytes) : 0.0);
  }

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
