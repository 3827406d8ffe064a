// assembly.mapping: auto (kfem run --mapping auto): the deck's options for the library's tuner
// (kfem/pipeline/tuner.hpp, which samples, times, chooses and caches) and its summary line.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "deck.hpp"
#include "kfem/pipeline/tuner.hpp"
#include "model.hpp"

namespace kfem::app {
using pipeline::TunerChoice;

// `race`: "default" lets every race handling compete; another name fixes it (InputError for an
// unknown one). Prints the tuner's notes; throws InputError when no candidate passes verification
// on the sample.
TunerChoice tune(const Model& model, const Deck& deck, const std::string& race, const std::string& scalar,
                 bool retune);

// The summary's tuner line: what won, against what, on what sample; or that the cache answered.
void print_tuner(const nlohmann::json& report);
}  // namespace kfem::app
