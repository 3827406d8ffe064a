// Input decks (YAML): every key is documented in inputs/README.md; unknown keys and wrong types are
// errors that name the key.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kfem/mesh/box.hpp"
#include "kfem/mesh/mesh.hpp"
#include "kfem/mesh/renumber.hpp"
#include "kfem/pipeline/mesh_names.hpp"
#include "kfem/pipeline/settings.hpp"

namespace kfem::app {
using pipeline::DirichletSpec;
using pipeline::MeshSpec;

// bench.scaling (kfem bench under mpirun): each rank count k of `ranks` runs on the launcher's first
// k ranks; weak points stretch the deck's first mesh (a box) k times along x, strong points keep it.
struct ScalingSpec {
  std::vector<int> ranks;  // empty: 1, 2, 4, ... and the launcher's count
  bool weak = true, strong = true;
};

// bench.procurement: the figure of merit (bench_procurement.cpp).
struct ProcurementSpec {
  long elements_per_rank = 2097152;    // mesh4's 512x64x64 per rank by default
  std::string verify_mesh = "32x8x8";  // per rank, stretched like the scored mesh: every candidate's check
  double max_spread = 0.10;            // (max - min) / median of the scored assembly samples
};

// A deck: the pipeline's settings (the physics, the mesh's treatment, the solver, verify_limit) and
// what the driver sweeps, runs and writes.
struct Deck : pipeline::Settings {
  std::vector<MeshSpec> meshes{MeshSpec{"16x2x2", CellType::hex8, BoxSpec{}, false, {}}};
  std::vector<int> orders{1};  // bench sweeps these (element.order as a list); order = the first
  std::map<int, std::vector<MeshSpec>> meshes_by_order;  // mesh.sizes as {order: sizes}: meshes per order
  std::string target = "default";  // assembly.target of the generic mappings: index | search
  std::vector<std::string> mappings{"default"}, races{"default"}, scalars{"double"};
  std::string backend = "default";
  // parallel.partition under mpirun: metis | rcb | default (METIS for mesh files, RCB for boxes)
  std::string partition = "default";
  // parallel.halo under mpirun: auto | mpi | nccl (auto: NCCL on GPUs where built in); a list is
  // swept by bench.scaling, the others take the first
  std::vector<std::string> halos{"auto"};
  std::string sums = "auto";  // parallel.sums: CG's dot products: auto (= mpi, measured faster) | mpi | nccl
  bool solve = true;
  // solver.operator: csr | ebe-v1 | ebe-v2 (names.hpp); `run` uses the first, bench sweeps them
  // when its points solve
  std::vector<std::string> operators{"csr"};
  // assembly.storage / --storage: "default" (the mapping's: csr, or csr-lower for a symmetric one) or
  // names of pipeline::StorageRegistry; bench sweeps the list, run and verify take the first.
  std::vector<std::string> storages{"default"};
  bool bench_solve = false;  // bench.solve: every point also solves, compared with a reference
  bool stages = false;  // bench.stages: banas' stage bench (element matrices to the host) instead of assembly
  bool retune = false;  // kfem run --retune: mapping auto times its candidates again
  std::optional<ScalingSpec> scaling;          // bench.scaling
  std::optional<ProcurementSpec> procurement;  // bench.procurement
  std::string report, export_mesh;
};

Deck read_deck(const std::string& path);  // throws InputError naming file and key
// The meshes a bench runs at order p: mesh.sizes' entry for p if the deck maps orders to sizes.
const std::vector<MeshSpec>& meshes_for(const Deck& d, int p);
using pipeline::check_dof_count;
using pipeline::parse_mesh_name;  // the library's mesh-name grammar (pipeline/mesh_names.hpp)
// The checks that need no mesh: one clear line for a bad order, problem, permittivity or Poisson ratio.
void check_parameters(const Deck& d);
}  // namespace kfem::app
