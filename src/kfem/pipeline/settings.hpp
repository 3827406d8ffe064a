// What the pipeline reads of a run's description: the mesh to build and the settings of its
// stages. The driver's deck (miniapp/deck.hpp) is these plus what it sweeps and writes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kfem/mesh/box.hpp"
#include "kfem/mesh/renumber.hpp"
#include "kfem/solve/solve_types.hpp"

namespace kfem::pipeline {
// A mesh as a run names it: a generator's box, amorim's capacitor, or a Gmsh file.
struct MeshSpec {
  std::string
      name;  // as the user wrote it: "mesh2", "64x8x8", "prism:8x4x4", "tri:64x32", "capacitor", "a.msh"
  CellType cell = CellType::hex8;  // of a generator; a file's family is known once read
  std::optional<BoxSpec> box;      // hex, prism (NXxNYxNZ) and triangle (NXxNY, nz unused) boxes
  bool capacitor = false;          // amorim's capacitor, meshed with Gmsh (capacitor_* settings)
  std::string file;                // Gmsh 4.1 file
  double triangles = 0;            // "capacitor:N": about N triangles (0: capacitor_triangles)
};

// Fixed values on a named boundary node set: 1 value (electrostatics) or 3 (elasticity).
struct DirichletSpec {
  std::string name;
  std::vector<double> values;
};

// How a point's matrix is checked against its family's oracle (inputs/README.md: bench.verify).
enum class VerifyMethod {
  products,  // A x against the oracle's element-by-element K x for random vectors (fast; the default)
  entries,   // entry by entry against the oracle's assembled matrix, pattern for pattern (kfem verify)
};

// What the pipeline reads of a run's description (the driver's deck adds what it sweeps).
struct Settings {
  std::string source = "<defaults>";  // where they come from, for messages (a deck's path)
  Renumbering renumber = Renumbering::natural;
  std::uint64_t seed = 1;
  double distort = 0.0;
  int refine = 0;                      // uniform refinements of every tri3 mesh (x4 triangles each)
  std::string problem = "elasticity";  // the problem's physics: elasticity | electrostatics
  int order = 1;                       // prisms 1..7; tri3 and hex8 are order 1
  double young = 200e9, poisson = 0.333, force = 1.0e6;
  double permittivity = 1.0;                               // electrostatics
  std::vector<DirichletSpec> dirichlet;                    // named node sets, in the given order
  double capacitor_width = 8.0, capacitor_height = 4.0;    // the capacitor's air box [in]
  double capacitor_triangles = 2.0e4;                      // the capacitor mesher's size knob
  SolverId solver{};                                       // solver.method (solve/solver.hpp's registry)
  Preconditioner preconditioner = Preconditioner::jacobi;  // solver.preconditioner
  double tolerance = 1e-8;                                 // the solver's relative residual
  int max_iterations = 20000;
  long verify_limit = 3000000;  // elements above which the host oracle is skipped (reported as such)
  VerifyMethod verify = VerifyMethod::products;
  // How a point sets up, assembles and is timed (inputs/README.md: assembly.*, bench.*, output.*).
  std::string coloring = "greedy";       // greedy | device
  std::string element_order = "morton";  // natural | morton: launch order without colouring
  int elements_per_team = 4;             // warp mappings on a GPU: warps (elements) per block
  bool symmetric_blocks = false;         // banas mappings: integrate the blocks b <= a, mirror the rest
  int warmup = 2, repetitions = 5;
  double launch_bytes =
      0;  // bench.launch_bytes: element-matrix output per launch of the stage bench; 0 = auto
  std::string export_matrix, export_solution;  // written by points whose request says exports
};

}  // namespace kfem::pipeline
