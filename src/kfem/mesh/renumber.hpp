// Node and element renumbering: the natural, random and reverse Cuthill-McKee orders that the
// benchmarks compare (memory locality of the gathers/scatters depends on them).
#pragma once
#include <cstdint>
#include <vector>

#include "kfem/mesh/mesh.hpp"

namespace kfem {
enum class Renumbering { natural, random, rcm };
inline constexpr Renumbering renumberings[] = {Renumbering::natural, Renumbering::random, Renumbering::rcm};
// As decks and reports spell it: "natural", "random", "rcm".
constexpr const char* renumbering_name(Renumbering r) {
  return r == Renumbering::random ? "random" : r == Renumbering::rcm ? "rcm" : "natural";
}

// perm[old] = new. natural: identity; random: Fisher-Yates driven by mt19937_64(seed);
// rcm: reverse Cuthill-McKee on the node graph (nodes sharing an element), one pass per connected
// component, each started from a pseudo-peripheral node. Only `random` uses the seed.
std::vector<ordinal_t> node_permutation(const Mesh&, Renumbering, std::uint64_t seed);

// A uniformly random permutation of 0..n-1, identical on every standard library for a seed.
std::vector<ordinal_t> random_permutation(std::size_t n, std::uint64_t seed);

// Node old moves to perm[old]; connectivity and node_sets (kept sorted) are rewritten so every
// element and set keeps its geometry; cell type and cell_sets are copied. Like node_permutation,
// expects connectivity that passed check_elements.
// Throws std::invalid_argument if perm is not a permutation of the nodes.
Mesh renumber_nodes(const Mesh&, const std::vector<ordinal_t>& perm);

// Same elements (rows untouched) in a seeded random order; cell_sets follow their elements (sorted).
Mesh shuffle_elements(const Mesh&, std::uint64_t seed);

// The elements along a Z-order (Morton) curve through their centroids: elements near in space come
// near in the order in every direction at once, so its runs are compact blocks, not mesh lines.
// The keys of mesh/morton.hpp (ties by element index); morton::order computes the same on a device.
std::vector<ordinal_t> morton_order(const Mesh&);

// max over elements of (largest - smallest node id): the half-bandwidth of the node graph.
ordinal_t node_bandwidth(const Mesh&);
}  // namespace kfem
