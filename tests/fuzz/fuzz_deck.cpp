// Fuzz target for the deck parser (kfem::app::read_deck, YAML through yaml-cpp). Rejections must be
// kfem::InputError; an accepted deck must pass the checks read_deck promises (check_parameters and
// the per-key ranges in miniapp/deck.cpp), so a silently wrong parse is a finding too.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "deck.hpp"
#include "fuzz_support.hpp"
#include "kfem/core/error.hpp"

namespace {
using kfem::fuzz::check;
using kfem::fuzz::finding;

void check_names(const std::vector<std::string>& names, const char* key) {
  check(!names.empty(), std::string(key) + " is empty");
  for (const auto& n : names) check(!n.empty(), std::string(key) + " holds an empty name");
}

// Each spec names exactly one source, and its name parses back to the same mesh (the deck may only
// have changed the box's lengths).
void check_specs(const std::vector<kfem::app::MeshSpec>& specs, const std::string& key) {
  check(!specs.empty(), key + " is empty");
  for (const auto& s : specs) {
    check(int(bool(s.box)) + int(s.capacitor) + int(!s.file.empty()) == 1,
          key + " '" + s.name + "' has not exactly one of box, capacitor, file");
    kfem::app::MeshSpec again;
    try {
      again = kfem::app::parse_mesh_name(s.name);
    } catch (const std::exception& e) {
      finding(key + " '" + s.name + "' does not parse again: " + e.what());
    }
    check(again.cell == s.cell && bool(again.box) == bool(s.box) && again.capacitor == s.capacitor &&
              again.file == s.file && again.triangles == s.triangles,
          key + " '" + s.name + "' parses again to another mesh");
    if (s.box)
      check(again.box->nx == s.box->nx && again.box->ny == s.box->ny && again.box->nz == s.box->nz,
            key + " '" + s.name + "' parses again to other element counts");
  }
}

void check_deck(const kfem::app::Deck& d, const std::string& path) {
  check(d.source == path, "source is not the deck's path");
  try {  // read_deck ends with it: an accepted deck must still pass
    kfem::app::check_parameters(d);
  } catch (const kfem::InputError& e) {
    finding(std::string("accepted deck fails check_parameters: ") + e.what());
  }
  check(!d.orders.empty() && d.order == d.orders.front(), "element.order is not the first of the orders");
  check_specs(d.meshes, "mesh.size");
  for (const auto& [p, specs] : d.meshes_by_order) check_specs(specs, "mesh.sizes." + std::to_string(p));
  for (const int p : d.orders) check(!kfem::app::meshes_for(d, p).empty(), "no mesh for an order");
  check_names(d.mappings, "assembly.mapping");
  check_names(d.races, "assembly.race");
  check_names(d.scalars, "assembly.scalar");
  check_names(d.operators, "solver.operator");
  check(d.capacitor_width > 0 && std::isfinite(d.capacitor_width) && d.capacitor_height > 0 &&
            std::isfinite(d.capacitor_height),
        "mesh.capacitor.box out of range");
  check(d.capacitor_triangles >= 100 && std::isfinite(d.capacitor_triangles),
        "mesh.capacitor.triangles out of range");
  check(d.elements_per_team >= 1 && d.elements_per_team <= 32, "assembly.elements_per_team out of range");
  check(d.launch_bytes >= 0, "bench.launch_bytes out of range");
  check(d.coloring == "greedy" || d.coloring == "device", "assembly.coloring unknown");
  check(d.element_order == "natural" || d.element_order == "morton", "assembly.element_order unknown");
  check(d.target == "default" || d.target == "index" || d.target == "search", "assembly.target unknown");
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static kfem::fuzz::MemoryFile file("kfem-fuzz.yaml");
  const std::string& path = file.hold(data, size);
  kfem::app::Deck deck;
  try {
    deck = kfem::app::read_deck(path);
  } catch (const kfem::InputError&) {
    return 0;  // the expected rejection
  } catch (const std::exception& e) {
    kfem::fuzz::unexpected_exception(e);
  }
  check_deck(deck, path);
  return 0;
}
