// The pipeline's last stages for one measured point: the assembly handle that the request's storage
// and strategy choose (full or lower CSR, a-COO, or an element-by-element operator for the solve),
// its timed assembly, verification against the family's oracle, and for `run` the problem's
// boundary conditions, CG and read-outs. Every phase is a Kokkos profiling region.
//   point.cpp              CSR storage: setup.hpp's steps, make_assembler, timed assembly, SpMV
//   point_acoo.cpp         a-COO: no DOF graph, row lists consolidated into CSR (amorim)
//   solve_ebe.cpp          CG on an element-by-element operator (amorim's EbE-v1 / EbE-v2)
//   point_distributed.cpp  the same point on the ranks of req.comm
#pragma once
#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "kfem/assembly/strategies.hpp"
#include "kfem/core/backends.hpp"
#include "kfem/parallel/comm.hpp"
#include "kfem/parallel/partition.hpp"
#include "kfem/parallel/transport.hpp"
#include "kfem/pipeline/model.hpp"
#include "kfem/pipeline/storage.hpp"

namespace kfem::pipeline {
class SharedPattern;  // setup.hpp
// Race handling "acoo" is the storage acoo's older spelling (storage.hpp): it pairs with the mappings
// of GenericMappingRegistry.
inline constexpr const char* acoo_race = storage::Acoo::name;
inline constexpr const char* acoo_help = storage::Acoo::help;

struct PointRequest {
  MappingKind mapping;
  RaceKind race;
  TargetKind target;  // generic mappings
  Scalar scalar = Scalar::f64;
  Backend backend = Backend::automatic;
  bool timed = true;        // warm-up + repetitions (bench) or a single assembly (verify)
  bool diagnostics = true;  // with timed: also the compute-only and SpMV timings (off for the tuner)
  bool solve = false;       // boundary conditions + CG + problem read-outs (run)
  // with solve: the caller's, built (and its names checked) before allocation
  const BoundarySetup* boundary = nullptr;
  bool exports = false;  // write the settings' export_matrix / export_solution files
  // Where the assembly leaves the operator (storage.hpp, storage_for): the point's path and, with
  // solve, the operator CG applies. acoo: a-COO insertion + consolidation, `race` unused.
  StorageKind storage = StorageKind::csr;
  // with solve: the operator CG applies; the storage's (StorageTraits::solve_with) unless the
  // request names another (race acoo with operator ebe-v1 / ebe-v2)
  SolveOperator solve_with = SolveOperator::csr;
  bool ebe_atomic = false;      // EbE products: atomic when the point's race is atomic, else by colour
  bool time_colorings = false;  // also time both colourings (greedy host, device) as pre-processing
  const ReferenceSolution* reference = nullptr;  // with solve: the solution to compare with (bench)
  // More than one rank: the distributed point (point_distributed.cpp), elements split by `partition`.
  const parallel::Comm* comm = nullptr;
  // CSR storage: take the upload and the DOF graph from here when it holds the same, else leave
  // them there (the tuner's candidates share one per storage; their setup times are not reported).
  const SharedPattern* share_pattern = nullptr;
  parallel::PartitionMethod partition = parallel::PartitionMethod::rcb;
  parallel::Transport halo = parallel::Transport::automatic;  // CG's halo exchange
  parallel::Transport sums = parallel::Transport::automatic;  // CG's dot products; auto: MPI (measured)
};

// Race acoo pushes through the generic kernels only: one-line InputError for another mapping.
void check_acoo_mapping(MappingKind mapping);

// InputError, alike on every rank, for what kfem does not distribute: a-COO, EbE operators,
// lower-storage mappings.
void check_distributed(const PointRequest& req);

// The point's report (reports/README.md): setup times, assembly samples and rates, verification,
// SpMV and the solve as the request asks.
nlohmann::json run_point(const Model& model, const Settings& settings, const PointRequest& req,
                         const Oracle& oracle);

// Model counts used for derived rates, per family (documented in reports/README.md): the FLOPs of
// the node-pair formulation (geometry per point + dim^2 products per pair and point + the block),
// and the bytes of zeroing + element inputs + one read-modify-write per Ke entry.
double model_flops_per_element(const Model& model);
double model_bytes(const Model& model, std::int64_t nnz, int scalar_bytes, double index_bytes_per_element);
}  // namespace kfem::pipeline
