#include "names.hpp"

#include <Kokkos_Core.hpp>
#include <utility>

#include "kfem/core/error.hpp"

namespace kfem::app {
namespace {
const std::vector<std::pair<std::string, MappingKind>> mappings = {
    {"element", MappingKind::element},         {"warp4", MappingKind::warp4},
    {"warp8", MappingKind::warp8},             {"ppni4", MappingKind::ppni4},
    {"ppni8", MappingKind::ppni8},             {"twokernel", MappingKind::twokernel},
    {"warp4-scratch", MappingKind::warp4_scratch}, {"warp4-atomic", MappingKind::warp4_atomic},
    {"warp4-vreduce", MappingKind::warp4_vreduce}, {"sym300", MappingKind::sym300},
    {"sym300x2", MappingKind::sym300x2},       {"pairs", MappingKind::pairs},
    {"sympairs", MappingKind::sympairs},       {"thread", MappingKind::thread},
    {"team", MappingKind::team},               {"reg-jac", MappingKind::reg_jac},
    {"reg-nojac", MappingKind::reg_nojac},     {"shm-jac", MappingKind::shm_jac},
    {"shm-nojac", MappingKind::shm_nojac},     {"gemm", MappingKind::gemm},
    {"owner", MappingKind::owner},             {"batch", MappingKind::batch},
    {"batch-owner", MappingKind::batch_owner}, {"pairs-mma", MappingKind::pairs_mma},
    {"sympairs-mma", MappingKind::sympairs_mma},
    {"box-owner", MappingKind::box_owner}};
const std::vector<std::pair<std::string, TargetKind>> targets = {{"index", TargetKind::index},
                                                                 {"search", TargetKind::search}};
const std::vector<std::pair<std::string, Renumbering>> renumberings = {
    {"natural", Renumbering::natural}, {"random", Renumbering::random}, {"rcm", Renumbering::rcm}};
const std::vector<std::pair<std::string, RaceKind>> races = {
    {"colored", RaceKind::colored}, {"atomic", RaceKind::atomic}, {"scatter", RaceKind::scatter},
    {"none", RaceKind::none}};
const std::vector<std::pair<std::string, SolveOperator>> operators = {
    {"csr", SolveOperator::csr}, {"ebe-v1", SolveOperator::ebe_v1}, {"ebe-v2", SolveOperator::ebe_v2}};

template <class K>
std::vector<std::string> names(const std::vector<std::pair<std::string, K>>& table) {
  std::vector<std::string> v;
  for (const auto& e : table) v.push_back(e.first);
  return v;
}
// `extra`: names served outside the table, listed in the error too.
template <class K>
K lookup(const std::vector<std::pair<std::string, K>>& table, const std::string& name, const char* what,
         bool has_default = true, const std::string& extra = "") {
  for (const auto& [n, k] : table)
    if (n == name) return k;
  std::string known = has_default ? " default" : "";
  for (const auto& n : names(table)) known += " " + n;
  throw InputError(std::string("unknown ") + what + " '" + name + "' (known:" + known + extra + ")");
}
template <class K>
std::string reverse(const std::vector<std::pair<std::string, K>>& table, K k) {
  for (const auto& [n, kk] : table)
    if (kk == k) return n;
  return "?";
}
}  // namespace

MappingKind mapping_from_name(const std::string& name, bool device, CellType cell, bool element_race) {
  if (name == "default")
    return device ? default_mapping<Kokkos::DefaultExecutionSpace>(cell, element_race)
                  : default_mapping<Kokkos::DefaultHostExecutionSpace>(cell, element_race);
  return lookup(mappings, name, "mapping");
}
TargetKind target_from_name(const std::string& name, int order) {
  if (name == "default") return default_target(order);
  return lookup(targets, name, "target");
}
std::string name_of(TargetKind k) { return reverse(targets, k); }
RaceKind race_from_name(const std::string& name, bool device) {
  if (name == "default")
    return device ? default_race<Kokkos::DefaultExecutionSpace>() : default_race<Kokkos::DefaultHostExecutionSpace>();
  return lookup(races, name, "race handling", true, std::string(" ") + acoo_race);
}
std::string name_of(MappingKind k) { return reverse(mappings, k); }
bool integrates_by_blocks(const std::string& mapping) {
  for (const auto& [name, kind] : mappings)
    if (name == mapping) return has_symmetric_blocks_kind(kind);
  return false;
}
std::string name_of(RaceKind k) { return reverse(races, k); }
std::vector<std::string> mapping_names() { return names(mappings); }
Renumbering renumbering_from_name(const std::string& name) { return lookup(renumberings, name, "renumbering", false); }
std::string name_of(Renumbering r) { return reverse(renumberings, r); }
std::vector<std::string> race_names() {
  std::vector<std::string> v = names(races);
  v.push_back(acoo_race);
  return v;
}
SolveOperator operator_from_name(const std::string& name) { return lookup(operators, name, "CG operator", false); }
std::string name_of(SolveOperator k) { return reverse(operators, k); }
std::vector<std::string> operator_names() { return names(operators); }
}  // namespace kfem::app
