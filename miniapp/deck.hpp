// Input decks (YAML): every key is documented in inputs/README.md; unknown keys and wrong types are
// errors that name the key.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kfem/mesh/box.hpp"
#include "kfem/mesh/renumber.hpp"

namespace kfem::app {
struct MeshSpec {
  std::string name;          // "mesh1".."mesh4", "box" or the file name
  std::optional<BoxSpec> box;
  std::string file;          // Gmsh 4.1 file when not a box
};

struct Deck {
  std::string source = "<defaults>";
  std::vector<MeshSpec> meshes{MeshSpec{"16x2x2", BoxSpec{}, {}}};
  Renumbering renumber = Renumbering::natural;
  std::uint64_t seed = 1;
  double distort = 0.0;
  double young = 200e9, poisson = 0.333, force = 1.0e6;
  std::vector<std::string> mappings{"default"}, races{"default"}, scalars{"double"};
  std::string coloring = "greedy";  // greedy | device
  int elements_per_team = 4;        // warp mappings on a GPU: warps (elements) per block
  std::string backend = "default";
  bool solve = true;
  double tolerance = 1e-8;
  int max_iterations = 20000;
  int warmup = 2, repetitions = 5;
  long verify_limit = 3000000;      // elements above which the host oracle is skipped (reported as such)
  std::string report, export_matrix, export_mesh, export_solution;
};

Deck read_deck(const std::string& path);  // throws InputError naming file and key
MeshSpec parse_mesh_name(const std::string& text);  // "mesh3", "64x8x8", "file.msh"
}  // namespace kfem::app
