// The storage a point's names choose (storage.hpp).
#include "kfem/pipeline/storage.hpp"

#include "kfem/core/error.hpp"

namespace kfem::pipeline {
namespace {
bool mapping_writes_lower(MappingKind mapping) {
  bool lower = false;
  dispatch<MappingRegistry>(mapping, [&](auto tag) { lower = MappingTraits<decltype(tag)>::lower; });
  return lower;
}
std::string lower_mappings() {
  std::vector<std::string> out;
  for_each_entry<MappingRegistry>([&](auto e) {
    if (MappingTraits<typename decltype(e)::type>::lower) out.emplace_back(decltype(e)::name());
  });
  return join_names(out, " or ");
}
// The mappings that write block storage, full or lower (MappingTraits::writes_blocks); the generic
// ones by that word.
std::string block_mappings(bool lower) {
  std::vector<std::string> out;
  if (!lower) out.emplace_back("the generic mappings");
  for_each_entry<MappingRegistry>([&](auto e) {
    using M = typename decltype(e)::type;
    if (decltype(e)::specialised && MappingTraits<M>::writes_blocks && MappingTraits<M>::lower == lower)
      out.emplace_back(decltype(e)::name());
  });
  return join_names(out, ", ");
}
}  // namespace

StorageKind storage_for(MappingKind mapping, const std::string& storage, const std::string& race,
                        const std::string& op) {
  std::optional<StorageKind> named;
  if (storage != "default") {
    named = entry_kind<StorageRegistry>(storage);
    if (!named)
      throw InputError("unknown storage '" + storage + "' (expected " +
                       join_names(entry_names<StorageRegistry>(), " or ") + ")");
  }
  // The older spellings of a storage: race acoo, operator ebe-v1 / ebe-v2.
  std::optional<StorageKind> implied;
  if (race == storage::Acoo::name) implied = StorageKind::acoo;
  // With race acoo, an EbE operator is the solve's only: the matrix is a-COO's, verified, and the
  // solve applies element matrices (PointRequest::solve_with).
  if (op == name_of(SolveOperator::ebe_v1) || op == name_of(SolveOperator::ebe_v2)) {
    if (!implied) implied = op == name_of(SolveOperator::ebe_v1) ? StorageKind::element : StorageKind::ebe;
  } else if (op != name_of(SolveOperator::csr)) {
    throw InputError("unknown CG operator '" + op + "' (expected csr, ebe-v1 or ebe-v2)");
  }
  if (named && implied && *named != *implied)
    throw InputError("storage " + storage + " contradicts " +
                     (race == storage::Acoo::name ? std::string("race acoo") : "operator " + op) +
                     " (storage " + name_of(*implied) + ")");
  const bool lower = mapping_writes_lower(mapping);
  const StorageKind kind = named     ? *named
                           : implied ? *implied
                           : lower   ? StorageKind::csr_lower
                                     : StorageKind::csr;
  const StorageFacts f = facts_of(kind);
  if (f.path == storage::Path::row_lists) {
    if (lower)
      throw InputError("storage " + name_of(kind) + " stores every entry; mapping " + name_of(mapping) +
                       " writes the lower triangle");
    return kind;
  }
  if (f.blocks) {
    bool writes = false, owner = false, study = false;
    for_each_entry<MappingRegistry>([&](auto e) {
      using E = decltype(e);
      if (E::kind != mapping) return;
      writes = MappingTraits<typename E::type>::writes_blocks;
      owner = MappingTraits<typename E::type>::owner_computes;
      study = is_prism_integration<E>::value;
    });
    const std::string who = " is written by " + block_mappings(f.lower) + "; mapping " + name_of(mapping);
    if (study || !writes)
      throw InputError("storage " + name_of(kind) + who + " writes " +
                       (study   ? "the CSR only (the prism integration study)"
                        : owner ? "the CSR from its own index"
                                : "the lower triangle of the CSR only"));
    if (f.lower != lower)
      throw InputError("storage " + name_of(kind) + who + " writes " +
                       (lower ? "the lower triangle (its block storage is bsr-lower)"
                              : "every entry (its block storage is bsr)"));
    return kind;
  }
  if (f.lower && !lower)
    throw InputError("storage " + name_of(kind) + " is written by the symmetric mappings (" +
                     lower_mappings() + "); mapping " + name_of(mapping) + " writes every entry");
  if (!f.lower && lower && kind == StorageKind::csr)
    throw InputError("mapping " + name_of(mapping) + " writes the lower triangle: its storage is csr-lower");
  return kind;
}
}  // namespace kfem::pipeline
