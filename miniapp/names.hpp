// Names of strategies and backends as users type them, and the per-backend defaults.
#pragma once
#include <string>
#include <vector>

#include "kfem/assembly/strategies.hpp"
#include "kfem/mesh/renumber.hpp"

namespace kfem::app {
// "default" resolves per backend and family.
MappingKind mapping_from_name(const std::string& name, bool device, CellType cell = CellType::hex8);
TargetKind target_from_name(const std::string& name, int order);  // "default": index up to p = 2, else search
std::string name_of(TargetKind k);
RaceKind race_from_name(const std::string& name, bool device);
std::string name_of(MappingKind k);
std::string name_of(RaceKind k);
std::vector<std::string> mapping_names();
std::vector<std::string> race_names();
Renumbering renumbering_from_name(const std::string& name);  // natural | random | rcm
std::string name_of(Renumbering r);
}  // namespace kfem::app
