// assembly.mapping: auto (kfem run --mapping auto): the fastest verified mapping x race handling
// for this device, backend, family, scalar and storage. Every full-storage mapping that serves the
// mesh's family, with each race handling (or the one the deck names), assembles a sample of the
// problem (its first elements) and is checked against the sample's oracle; the fastest median of
// those that pass wins. The choice is remembered in a small JSON cache (tuner_cache_path) and used
// until --retune times the candidates again.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "deck.hpp"
#include "model.hpp"

namespace kfem::app {
struct TunerChoice {
  std::string mapping, race;
  nlohmann::json report;  // source (tuned | cache), key, cache path, candidates with their times
};

// $KFEM_TUNER_CACHE, else $XDG_CACHE_HOME/kfem/tuner.json, else $HOME/.cache/kfem/tuner.json.
std::string tuner_cache_path();

// `race`: "default" lets every race handling compete; another name fixes it. Throws InputError when
// no candidate passes verification on the sample.
TunerChoice tune(const Model& model, const Deck& deck, const std::string& race, const std::string& scalar,
                 bool retune);
}  // namespace kfem::app
