// assembly.mapping: auto (kfem run --mapping auto): the fastest verified mapping x race handling
// for this device, backend, family, scalar and storage. Every full-storage mapping that serves the
// mesh's family, with each race handling (or the one the query names), assembles a sample of the
// problem (its first elements) and is checked against the sample's oracle; the fastest median of
// those that pass wins. The choice is remembered in a small JSON cache (tuner_cache_path) and used
// until a retune times the candidates again.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kfem/assembly/strategies.hpp"
#include "kfem/pipeline/model.hpp"
#include "kfem/pipeline/point.hpp"
#include "kfem/pipeline/settings.hpp"

namespace kfem::pipeline {
// What the choice is for, besides the model and its settings (the launch order, verification).
struct TunerQuery {
  Backend backend = Backend::automatic;
  Scalar scalar = Scalar::f64;
  std::string race = "default";           // "default": every race handling competes; a name fixes it
  TargetKind target = TargetKind::index;  // of the generic mappings
  bool retune = false;                    // time the candidates even when the cache holds a choice
  std::string cache;                      // the cache file; empty: tuner_cache_path()
};

struct TunerChoice {
  std::string mapping, race;
  nlohmann::json report;  // source (tuned | retuned | cache), key, cache path, candidates with their times
  // What the user should hear: a cache kfem did not write (timed again and replaced), or one it
  // could not write (the choice is not remembered).
  std::vector<std::string> notes;
};

// Runs one candidate's point: run_point, or a caller's wrapper of it. A candidate whose point throws
// InputError (a pairing the pipeline refuses, memory that runs out where the wrapper says so) is
// recorded as refused, not fatal.
using CandidateRunner =
    std::function<nlohmann::json(const Model&, const Settings&, const PointRequest&, const Oracle&)>;

// $KFEM_TUNER_CACHE, else $XDG_CACHE_HOME/kfem/tuner.json, else $HOME/.cache/kfem/tuner.json.
std::string tuner_cache_path();

// The cached choice, or the candidates timed on a sample of the model (16,384 elements, 262,144 on
// a device) and the fastest verified one, cached. Throws InputError when no candidate passes
// verification on the sample.
TunerChoice tune(const Model& model, const Settings& settings, const TunerQuery& query,
                 const CandidateRunner& run = run_point);
}  // namespace kfem::pipeline
