#include "tuner.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "names.hpp"
#include "output_files.hpp"
#include "points.hpp"

namespace kfem::app {
using nlohmann::json;

TunerChoice tune(const Model& model, const Deck& deck, const std::string& race, const std::string& scalar,
                 bool retune) {
  // An unknown race name: its one-line error now, rather than every candidate refused.
  if (race != "default" && !is_acoo_race(race)) race_from_name(race, false);
  pipeline::TunerQuery query;  // its cache in the library's place (tuner_cache_path)
  query.backend = backend_named(deck.backend);
  query.scalar = scalar_named(scalar);
  query.race = race;
  query.target = target_from_name(deck.target, model.dofs.order);
  query.retune = retune;
  // The candidates run through point_of, whose InputError says what ran out of memory.
  Deck candidate_deck = deck;
  const auto run = [&](const Model& sample, const pipeline::Settings& settings, const PointRequest& req,
                       const Oracle& oracle) {
    static_cast<pipeline::Settings&>(candidate_deck) = settings;
    return point_of(sample, candidate_deck, req, oracle);
  };
  TunerChoice choice = pipeline::tune(model, deck, query, run);
  for (const std::string& note : choice.notes) fmt::print(stderr, "kfem: note: {}\n", note);
  return choice;
}

void print_tuner(const json& t) {
  if (t["source"] == "cache") {
    fmt::print("  tuner         {} x {} from the cache {} (tuned {} on {}; --retune times again)\n",
               t["mapping"].get<std::string>(), t["race"].get<std::string>(), t["cache"].get<std::string>(),
               t["tuned_at"].get<std::string>(), t["sample"].get<std::string>());
    return;
  }
  const std::string chosen = t["mapping"].get<std::string>() + " x " + t["race"].get<std::string>();
  std::vector<std::pair<double, std::string>> others;  // the verified runners-up, fastest first
  std::size_t verified = 0;
  for (const json& c : t["candidates"]) {
    if (c["verification"] != "passed") continue;
    ++verified;
    const std::string name = c["mapping"].get<std::string>() + " x " + c["race"].get<std::string>();
    if (name != chosen) others.emplace_back(c["median_s"].get<double>(), name);
  }
  std::sort(others.begin(), others.end());
  fmt::print(
      "  tuner         {}: the fastest of {} verified candidates ({} timed) on {}: {}{}; cached in {}\n",
      chosen, verified, t["candidates"].size(), t["sample"].get<std::string>(),
      fmt_time(t["median_s"].get<double>()),
      others.empty() ? ""
                     : fmt::format(" (next {} {})", others.front().second, fmt_time(others.front().first)),
      t["cache"].get<std::string>());
}
}  // namespace kfem::app
