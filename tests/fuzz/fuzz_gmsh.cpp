// Fuzz target for the Gmsh MSH 4.1 reader (kfem::read_gmsh). Rejections must be kfem::InputError;
// an accepted file must give a mesh that satisfies the reader's documented guarantees
// (src/kfem/mesh/gmsh.hpp) and that survives write_gmsh + read_gmsh unchanged.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "kfem/core/error.hpp"
#include "kfem/mesh/gmsh.hpp"
#include "kfem/mesh/validate.hpp"

namespace {
using kfem::fuzz::check;

// The round trip needs a real directory (write_gmsh writes path + ".tmp", then renames).
struct ScratchDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("kfem-fuzz-gmsh-" + std::to_string(getpid()));
  ScratchDir() { std::filesystem::create_directories(path); }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

template <class Sets>
void check_sets(const Sets& sets, std::size_t limit, const char* kind) {
  for (const auto& [name, ids] : sets) {
    check(!ids.empty(), std::string(kind) + " '" + name + "' is empty");
    for (std::size_t i = 0; i < ids.size(); ++i)
      check(ids[i] >= 0 && std::size_t(ids[i]) < limit && (i == 0 || ids[i] > ids[i - 1]),
            std::string(kind) + " '" + name + "' is unsorted, repeated or out of range");
  }
}

void check_mesh(const kfem::Mesh& mesh) {
  using kfem::CellType;
  check(mesh.cell == CellType::tri3 || mesh.cell == CellType::tet4 || mesh.cell == CellType::prism6 ||
            mesh.cell == CellType::hex8,
        "unknown cell type");
  check(mesh.num_elements() > 0 && mesh.num_nodes() > 0, "a mesh without cells or nodes was accepted");
  try {  // ids in range, unused slots -1, finite coordinates, no inverted or degenerate cell
    kfem::check_elements(mesh, "fuzz");
  } catch (const kfem::InputError& e) {
    kfem::fuzz::finding(std::string("accepted mesh fails check_elements: ") + e.what());
  }
  // Nodes that no cell uses are dropped, so every node is used.
  std::vector<bool> used(mesh.num_nodes(), false);
  for (const auto& el : mesh.elements)
    for (int a = 0; a < mesh.nodes_per_element(); ++a) used[std::size_t(el[a])] = true;
  for (std::size_t v = 0; v < used.size(); ++v) check(used[v], "node " + std::to_string(v) + " is unused");
  if (mesh.dimension() == 2)
    for (const auto& x : mesh.nodes) check(x[2] == 0, "a 2D mesh node off z = 0");
  check_sets(mesh.node_sets, mesh.num_nodes(), "node set");
  check_sets(mesh.cell_sets, mesh.num_elements(), "cell set");
}

// write_gmsh rejects names holding '"' or a line break (documented); the reader can produce '"'.
bool writable_names(const kfem::Mesh& mesh) {
  for (const auto* sets : {&mesh.node_sets, &mesh.cell_sets})
    for (const auto& [name, ids] : *sets)
      if (name.find_first_of("\"\r\n") != std::string::npos) return false;
  return true;
}

void check_round_trip(const kfem::Mesh& mesh) {
  static const ScratchDir dir;
  const std::string path = (dir.path / "round_trip.msh").string();
  kfem::Mesh again;
  try {
    kfem::write_gmsh(mesh, path);
    again = kfem::read_gmsh(path);
  } catch (const std::exception& e) {
    kfem::fuzz::finding(std::string("round trip of an accepted mesh failed: ") + e.what());
  }
  check(again.cell == mesh.cell, "round trip changed the cell type");
  check(again.nodes == mesh.nodes, "round trip changed the nodes");
  check(again.elements == mesh.elements, "round trip changed the elements");
  check(again.node_sets == mesh.node_sets, "round trip changed the node sets");
  check(again.cell_sets == mesh.cell_sets, "round trip changed the cell sets");
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static kfem::fuzz::MemoryFile file("kfem-fuzz.msh");
  const std::string& path = file.hold(data, size);
  kfem::Mesh mesh;
  try {
    mesh = kfem::read_gmsh(path);
  } catch (const kfem::InputError&) {
    return 0;  // the expected rejection
  } catch (const std::exception& e) {
    kfem::fuzz::unexpected_exception(e);
  }
  check_mesh(mesh);
  if (writable_names(mesh)) check_round_trip(mesh);
  return 0;
}
