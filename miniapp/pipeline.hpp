// One measured point of kfem: setup, timed assembly, verification against the oracle, and (for
// `run`) boundary conditions, CG and exports. Every phase is a Kokkos profiling region.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "deck.hpp"
#include "kfem/assembly/reference.hpp"
#include "kfem/assembly/strategies.hpp"
#include "kfem/coloring/coloring.hpp"

namespace kfem::app {
struct PointRequest {
  MappingKind mapping;
  RaceKind race;
  std::string scalar;   // float | double
  std::string backend;  // as in with_backend
  bool timed = true;    // warm-up + repetitions (bench) or a single assembly (verify)
  bool solve = false;   // boundary conditions + CG + tip deflection + exports (run)
};

// What is computed once per mesh and shared by every point on it: the oracle and the host colouring.
struct Oracle {
  std::optional<HostCsr<double>> matrix;  // empty when the mesh is above the deck's verify_limit
  double seconds = 0;
  mutable std::optional<HostCsr<double>> lower;  // its lower triangle, for symmetric storage
  mutable std::optional<Coloring> greedy;  // filled by the first coloured point
  mutable double greedy_seconds = 0;
};

nlohmann::json run_point(const HexMesh& mesh, const Deck& deck, const PointRequest& req, const Oracle& oracle);

// Model counts used for derived rates (documented in reports/README.md).
double model_flops_per_element();
double model_bytes(std::int64_t elements, std::int64_t nnz, int scalar_bytes);
}  // namespace kfem::app
