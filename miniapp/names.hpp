// Names of strategies and backends as users type them, and the per-backend defaults.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kfem/assembly/strategies.hpp"
#include "kfem/mesh/renumber.hpp"
#include "kfem/pipeline/point.hpp"
#include "kfem/solve/solver.hpp"

namespace kfem::app {
using pipeline::acoo_help;
using pipeline::acoo_race;
using pipeline::name_of;
using pipeline::SolveOperator;
// "default" resolves per backend and family.
// `element_race`: an element-centric race handling was named, which the default must take.
MappingKind mapping_from_name(const std::string& name, bool device, CellType cell = CellType::hex8,
                              bool element_race = false);
TargetKind target_from_name(const std::string& name, int order);  // "default": index up to p = 2, else search
// Registry races only: "acoo" is a path of its own (is_acoo_race), not a RaceKind.
RaceKind race_from_name(const std::string& name, bool device);
inline bool is_acoo_race(const std::string& name) {
  return name == acoo_race;
}
// A mapping name (not "default" or "auto") whose kernels have the assembly.symmetric_blocks option.
bool integrates_by_blocks(const std::string& mapping);
std::vector<std::string> mapping_names();  // registry order
std::vector<std::string> race_names();     // the registry's and acoo
// Mappings with the assembly.symmetric_blocks option (registry order).
std::vector<std::string> block_mapping_names();
// From the registries: the --mapping and --race help (a line per strategy: families, races, help),
// and inputs/README.md's strategy tables in Markdown (`kfem info --strategies`).
std::string mapping_help();
std::string race_help();
std::string strategies_markdown();
std::string target_help();                  // --target: default and the registry's targets with their help
std::vector<std::string> target_choices();  // default and the registry's target names
SolveOperator operator_from_name(const std::string& name);  // csr | ebe-v1 | ebe-v2
SolverId solver_from_name(const std::string& name);         // SolverRegistry's names; InputError if none
std::string solver_help();                                  // "cg (...), cg-single-reduction (...)"
Preconditioner preconditioner_from_name(const std::string& name);  // jacobi | block-jacobi
std::vector<std::string> operator_names();
// default or a name of pipeline::StorageRegistry; InputError naming the storages otherwise.
void check_storage_name(const std::string& name);
std::string storage_help();                                  // "default (...); csr (...); ..."
Renumbering renumbering_from_name(const std::string& name);  // natural | random | rcm
std::optional<pipeline::VerifyMethod> verify_method_from_name(const std::string& name);  // products | entries
std::string name_of(Renumbering r);
}  // namespace kfem::app
