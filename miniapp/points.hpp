// The steps of a command's point, with errors that say what was being done (commands.cpp): the
// model of a mesh, its oracle, a request from the deck's names, the point itself. The MPI benches
// (bench_scaling.cpp, bench_procurement.cpp) run their points through them as `run` and `bench` do.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "deck.hpp"
#include "kfem/pipeline/point.hpp"
#include "model.hpp"

namespace kfem::app {
Model model_of(const MeshSpec& spec, const Deck& deck);  // out of memory: InputError naming the mesh
Oracle oracle_of(const Model& model, const Deck& deck,
                 bool with_matrix = false);  // none above bench.verify_limit
// Throws InputError for unknown names, for race acoo with a mapping it cannot push through and for a
// storage the mapping cannot write (pipeline::storage_for).
PointRequest request(const Deck& deck, const Model& model, const std::string& mapping,
                     const std::string& race, const std::string& scalar, const std::string& op = "csr",
                     const std::string& storage = "default");
// False for a mapping x race pair of a deck's lists that cannot go together (owner with a race
// handling, an element mapping with race none): benches and verify skip those and run the rest.
bool goes_with(const std::string& mapping, const std::string& race);
nlohmann::json point_of(const Model& model, const Deck& deck, const PointRequest& req, const Oracle& oracle);
// parallel.partition: METIS for mesh files and RCB for boxes unless the deck names one.
parallel::PartitionMethod partition_method(const Deck& deck, const MeshSpec& spec);
parallel::Transport transport_of(const std::string& name);  // parallel.halo's names
}  // namespace kfem::app
