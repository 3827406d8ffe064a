#include "names.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <utility>

#include "kfem/core/error.hpp"

namespace kfem::app {
namespace {
const std::vector<std::pair<std::string, Renumbering>> renumbering_names = [] {
  std::vector<std::pair<std::string, Renumbering>> out;
  for (const Renumbering r : renumberings) out.emplace_back(renumbering_name(r), r);
  return out;
}();
const std::vector<std::pair<std::string, SolveOperator>> operators(pipeline::solve_operators.begin(),
                                                                   pipeline::solve_operators.end());

template <class K>
std::vector<std::string> names(const std::vector<std::pair<std::string, K>>& table) {
  std::vector<std::string> v;
  for (const auto& e : table) v.push_back(e.first);
  return v;
}
// `extra`: names served outside the table, listed in the error too.
[[noreturn]] void unknown(const std::string& name, const char* what, const std::vector<std::string>& table,
                          bool has_default, const std::string& extra = "") {
  std::string known = has_default ? " default" : "";
  for (const auto& n : table) known += " " + n;
  throw InputError(std::string("unknown ") + what + " '" + name + "' (known:" + known + extra + ")");
}
template <class K>
K lookup(const std::vector<std::pair<std::string, K>>& table, const std::string& name, const char* what,
         bool has_default = true) {
  for (const auto& [n, k] : table)
    if (n == name) return k;
  unknown(name, what, names(table), has_default);
}
template <class K>
std::string reverse(const std::vector<std::pair<std::string, K>>& table, K k) {
  for (const auto& [n, kk] : table)
    if (kk == k) return n;
  return "?";
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}
// A strategy as the help and the tables show it; `pairs`: the names of what it goes with (races of
// a mapping, mappings of a race), in registry order.
struct Row {
  std::string name, families, help;
  std::vector<std::string> pairs;
  bool owner = false;
};
std::vector<Row> mapping_rows() {
  std::vector<Row> rows;
  const std::vector<std::string> generic = entry_names<GenericMappingRegistry>();
  for_each_entry<MappingRegistry>([&](auto m) {
    using M = typename decltype(m)::type;
    Row row{decltype(m)::name(),
            entry_families<decltype(m)>(),
            decltype(m)::help(),
            {},
            MappingTraits<M>::owner_computes};
    for_each_entry<RaceRegistry>([&](auto r) {
      if (pairs_with<M, typename decltype(r)::type>) row.pairs.emplace_back(decltype(r)::name());
    });
    if (contains(generic, row.name)) row.pairs.emplace_back(acoo_race);
    rows.push_back(row);
  });
  return rows;
}
std::vector<Row> race_rows() {
  std::vector<Row> rows;
  const std::vector<Row> mappings = mapping_rows();
  const auto add = [&](const std::string& name, const std::string& help, bool owner) {
    Row row{name, "", help, {}, owner};
    for (const Row& m : mappings)
      if (contains(m.pairs, name)) row.pairs.push_back(m.name);
    rows.push_back(row);
  };
  for_each_entry<RaceRegistry>([&](auto r) {
    add(decltype(r)::name(), decltype(r)::help(), single_writer<typename decltype(r)::type>::value);
  });
  add(acoo_race, acoo_help, false);
  return rows;
}
// Whether a race goes with few mappings (they are listed), or with most ("every mapping but ...").
bool few(const Row& race, const std::vector<std::string>& all) {
  return 2 * race.pairs.size() <= all.size();
}
std::string race_mappings(const Row& race, const std::vector<std::string>& all) {
  if (few(race, all)) return join_names(race.pairs);
  std::vector<std::string> others;
  for (const auto& m : all)
    if (!contains(race.pairs, m)) others.push_back(m);
  return "every mapping but " + join_names(others);
}
std::string cell(std::string text) {  // a Markdown table cell
  for (std::size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2))
    text.replace(at, 1, "\\|");
  return text;
}
}  // namespace

MappingKind mapping_from_name(const std::string& name, bool device, CellType cell, bool element_race) {
  if (name == "default")
    return device ? default_mapping<Kokkos::DefaultExecutionSpace>(cell, element_race)
                  : default_mapping<Kokkos::DefaultHostExecutionSpace>(cell, element_race);
  if (const auto kind = entry_kind<MappingRegistry>(name)) return *kind;
  unknown(name, "mapping", entry_names<MappingRegistry>(), true);
}
TargetKind target_from_name(const std::string& name, int order) {
  if (name == "default") return default_target(order);
  if (const auto kind = entry_kind<TargetRegistry>(name)) return *kind;
  unknown(name, "target", entry_names<TargetRegistry>(), true);
}
RaceKind race_from_name(const std::string& name, bool device) {
  if (name == "default")
    return device ? default_race<Kokkos::DefaultExecutionSpace>()
                  : default_race<Kokkos::DefaultHostExecutionSpace>();
  if (const auto kind = entry_kind<RaceRegistry>(name)) return *kind;
  unknown(name, "race handling", entry_names<RaceRegistry>(), true, std::string(" ") + acoo_race);
}
bool integrates_by_blocks(const std::string& mapping) {
  const auto kind = entry_kind<MappingRegistry>(mapping);
  return kind && has_symmetric_blocks_kind(*kind);
}
std::vector<std::string> mapping_names() {
  return entry_names<MappingRegistry>();
}
std::vector<std::string> block_mapping_names() {
  std::vector<std::string> out;
  for_each_entry<MappingRegistry>([&](auto m) {
    if (MappingTraits<typename decltype(m)::type>::has_symmetric_blocks)
      out.emplace_back(decltype(m)::name());
  });
  return out;
}

std::string mapping_help() {
  std::string out =
      "work mapping (repeatable): default (per backend and family), auto (run: the fastest verified, tuned "
      "and cached) or one of:";
  for (const Row& m : mapping_rows())
    out += "\n" + m.name + " (" + (m.families.empty() ? "every family" : m.families) +
           (m.owner ? "; race " + join_names(m.pairs, " or ") : "") + "): " + m.help;
  return out;
}
std::string race_help() {
  std::string out =
      "race handling (repeatable): default (per backend; none for owner-computes mappings) or one of:";
  const std::vector<std::string> all = mapping_names();
  for (const Row& r : race_rows())
    out += "\n" + r.name + (few(r, all) ? " (mappings " + join_names(r.pairs) + ")" : "") + ": " + r.help;
  return out;
}
std::string strategies_markdown() {
  std::string out = "| mapping | families | races | what it does |\n|---|---|---|---|\n";
  for (const Row& m : mapping_rows())
    out += "| `" + m.name + "` | " + (m.families.empty() ? "every family" : m.families) + " | " +
           join_names(m.pairs) + " | " + cell(m.help) + " |\n";
  out += "\n| race | mappings | what it does |\n|---|---|---|\n";
  const std::vector<std::string> all = mapping_names();
  for (const Row& r : race_rows())
    out += "| `" + r.name + "` | " + race_mappings(r, all) + " | " + cell(r.help) + " |\n";
  return out;
}
std::string target_help() {
  std::string out =
      "where Ke goes for the generic mappings: default (index up to order 2, else search) or one of:";
  for_each_entry<TargetRegistry>([&](auto t) { out += "\n" + std::string(t.name()) + ": " + t.help(); });
  return out;
}
std::vector<std::string> target_choices() {
  std::vector<std::string> v{"default"};
  for (const auto& n : entry_names<TargetRegistry>()) v.push_back(n);
  return v;
}
Renumbering renumbering_from_name(const std::string& name) {
  return lookup(renumbering_names, name, "renumbering", false);
}
std::string name_of(Renumbering r) {
  return reverse(renumbering_names, r);
}
std::vector<std::string> race_names() {
  std::vector<std::string> v = entry_names<RaceRegistry>();
  v.push_back(acoo_race);
  return v;
}
SolveOperator operator_from_name(const std::string& name) {
  return lookup(operators, name, "CG operator", false);
}
SolverId solver_from_name(const std::string& name) {
  if (const auto id = solver_named(name)) return *id;
  std::vector<std::string> known;
  for (const auto& [n, help] : solver_entries()) known.push_back(n);
  throw InputError("unknown solver '" + name + "' (expected " + join_names(known, " or ") + ")");
}
Preconditioner preconditioner_from_name(const std::string& name) {
  for (const Preconditioner p : {Preconditioner::jacobi, Preconditioner::block_jacobi})
    if (name == name_of(p)) return p;
  unknown(name, "preconditioner", {name_of(Preconditioner::jacobi), name_of(Preconditioner::block_jacobi)},
          false);
}
std::string solver_help() {
  std::string out;
  for (const auto& [n, help] : solver_entries()) out += (out.empty() ? "" : "; ") + n + " (" + help + ")";
  return out + "; default " + name_of(SolverId{});
}
void check_storage_name(const std::string& name) {
  if (name == "default" || entry_kind<pipeline::StorageRegistry>(name)) return;
  throw InputError("unknown storage '" + name + "' (expected default, " +
                   join_names(entry_names<pipeline::StorageRegistry>(), " or ") + ")");
}
std::string storage_help() {
  std::string out = "default (the mapping's: csr-lower for a symmetric mapping, else csr)";
  for_each_entry<pipeline::StorageRegistry>(
      [&](auto e) { out += std::string("; ") + decltype(e)::name() + " (" + decltype(e)::help() + ")"; });
  return out + " (repeatable: bench sweeps them)";
}
std::vector<std::string> operator_names() {
  return names(operators);
}
std::optional<pipeline::VerifyMethod> verify_method_from_name(const std::string& name) {
  if (name == "products") return pipeline::VerifyMethod::products;
  if (name == "entries") return pipeline::VerifyMethod::entries;
  return std::nullopt;
}
}  // namespace kfem::app
