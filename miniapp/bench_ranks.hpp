// What the MPI benches share (bench_scaling.cpp, bench_procurement.cpp): the rank counts of a sweep,
// meshes that grow with them, and one point on the first k of the launcher's ranks while the
// others wait (asleep, off the cores).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "deck.hpp"
#include "kfem/parallel/comm.hpp"

namespace kfem::app {
struct Strategy {
  std::string mapping, race, scalar;
  std::string halo;  // parallel.halo of its CG; empty: the deck's first
};

// The asked counts (or 1, 2, 4, ... and `launched` when none are asked), those above `launched`
// dropped, sorted, without repeats.
std::vector<int> rank_counts(const std::vector<int>& asked, int launched);

// `base` (a box) k times longer along x, in elements and in metres: the beam of k ranks in a weak
// sweep (each rank's share and its halo stay the same).
MeshSpec stretched(const MeshSpec& base, int k);

// A hex8 beam of about n elements in mesh4's proportions (NX = 8 NY, NY = NZ; 16 x 2 x 2 m at 8:1:1).
MeshSpec beam_of(long n);

// InputError, alike on every rank and before any point runs, for a name kfem does not know or a
// strategy it does not distribute (the first such strategy).
void check_strategies(const Deck& deck, const MeshSpec& spec, const std::vector<Strategy>& strategies);

// One point of `spec` on world's first k ranks (a one-rank point for k = 1): timed, verified at
// rank 0 when the mesh is within bench.verify_limit, solved when `solve`. Its result, with "mesh"
// and "ranks", at world rank 0 (null elsewhere); every rank returns when the point is done. A
// failure on any rank stops them all.
nlohmann::json point_on_ranks(const parallel::Comm& world, int k, const MeshSpec& spec, const Deck& deck,
                              const Strategy& strategy, bool solve);

// The start of an MPI bench's results.json at world rank 0 (kind, deck, rank 0's context with its
// measured bandwidth, every rank's host, device and host threads, no points yet); null elsewhere.
nlohmann::json results_header(const parallel::Comm& world, const Deck& deck, const std::string& kind);
}  // namespace kfem::app
