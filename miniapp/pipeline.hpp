// One measured point of kfem: setup, timed assembly, verification against the oracle, and (for
// `run`) boundary conditions, CG and exports. Every phase is a Kokkos profiling region.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "deck.hpp"
#include "kfem/assembly/strategies.hpp"
#include "kfem/parallel/comm.hpp"
#include "kfem/parallel/partition.hpp"
#include "model.hpp"
#include "names.hpp"

namespace kfem::app {
struct PointRequest {
  MappingKind mapping;
  RaceKind race;
  TargetKind target;        // generic mappings
  std::string scalar;       // float | double
  std::string backend;      // as in with_backend
  bool timed = true;        // warm-up + repetitions (bench) or a single assembly (verify)
  bool diagnostics = true;  // with timed: also the compute-only and SpMV timings (off for the tuner)
  bool solve = false;       // boundary conditions + CG + problem read-outs (run)
  const BoundarySetup* boundary =
      nullptr;           // with solve: the caller's, built (and its names checked) before allocation
  bool exports = false;  // write the deck's output.export_* files (run, with or without --no-solve)
  bool acoo = false;     // race acoo: a-COO insertion + consolidation (pipeline_acoo.cpp); `race` unused
  SolveOperator op =
      SolveOperator::csr;  // with solve: CG on the CSR or on an EbE operator (pipeline_ebe.cpp)
  bool ebe_atomic =
      false;  // EbE products: atomic when the point's race is atomic, else by colour (the paper's)
  bool time_colorings = false;  // also time both colourings (greedy host, device) as pre-processing
  const ReferenceSolution* reference = nullptr;  // with solve: the solution to compare with (bench)
  // More than one rank: the distributed point (pipeline_mpi.cpp), elements split by `partition`.
  const parallel::Comm* comm = nullptr;
  parallel::PartitionMethod partition = parallel::PartitionMethod::rcb;
};

// Race acoo pushes through the generic kernels only: one-line InputError for another mapping.
void check_acoo_mapping(MappingKind mapping);

// InputError, alike on every rank, for what kfem does not distribute: a-COO, EbE operators,
// lower-storage mappings (pipeline_mpi.cpp).
void check_distributed(const PointRequest& req);

nlohmann::json run_point(const Model& model, const Deck& deck, const PointRequest& req, const Oracle& oracle);

// Model counts used for derived rates, per family (documented in reports/README.md): the FLOPs of
// the node-pair formulation (geometry per point + dim^2 products per pair and point + the block),
// and the bytes of zeroing + element inputs + one read-modify-write per Ke entry.
double model_flops_per_element(const Model& model);
double model_bytes(const Model& model, std::int64_t nnz, int scalar_bytes, double index_bytes_per_element);
}  // namespace kfem::app
