// One measured point of kfem: setup, timed assembly, verification against the oracle, and (for
// `run`) boundary conditions, CG and exports. Every phase is a Kokkos profiling region.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "deck.hpp"
#include "kfem/assembly/strategies.hpp"
#include "model.hpp"

namespace kfem::app {
struct PointRequest {
  MappingKind mapping;
  RaceKind race;
  TargetKind target;    // generic mappings
  std::string scalar;   // float | double
  std::string backend;  // as in with_backend
  bool timed = true;    // warm-up + repetitions (bench) or a single assembly (verify)
  bool solve = false;   // boundary conditions + CG + problem read-outs (run)
  const BoundarySetup* boundary = nullptr;  // with solve: the caller's, built (and its names checked) before allocation
  bool exports = false; // write the deck's output.export_* files (run, with or without --no-solve)
};

nlohmann::json run_point(const Model& model, const Deck& deck, const PointRequest& req, const Oracle& oracle);

// Model counts used for derived rates, per family (documented in reports/README.md): the FLOPs of
// the node-pair formulation (geometry per point + dim^2 products per pair and point + the block),
// and the bytes of zeroing + element inputs + one read-modify-write per Ke entry.
double model_flops_per_element(const Model& model);
double model_bytes(const Model& model, std::int64_t nnz, int scalar_bytes, double index_bytes_per_element);
}  // namespace kfem::app
