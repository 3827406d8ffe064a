// Run-time kinds -> one assembler: the registry lookup the driver and the tests share. A hex8-only
// fast path gets hex8's element data and material; a generic mapping gets the family's reference
// tables, its operator and a target.
#pragma once
#include <memory>
#include <string>
#include <type_traits>

#include "kfem/assembly/family_assembler.hpp"
#include "kfem/assembly/strategies.hpp"
#include "kfem/core/error.hpp"

namespace kfem {
template <class M, class = void>
struct has_elements_per_team : std::false_type {};
template <class M>
struct has_elements_per_team<M, std::void_t<decltype(M::elements_per_team)>> : std::true_type {};

// Calls f(entry) for the registry entry of `kind`; false when none matches.
template <class Registry, class Kind, class F>
bool dispatch_entry(Kind kind, F&& f) {
  return std::apply([&](auto... e) { return ((decltype(e)::kind == kind ? (f(e), true) : false) || ...); }, Registry{});
}

template <class Family>
bool serves(MappingKind kind) {
  bool ok = false;
  dispatch_entry<MappingRegistry>(kind, [&](auto e) { ok = decltype(e)::template serves<Family>; });
  return ok;
}

struct AssemblerChoice {
  MappingKind mapping;
  RaceKind race;
  TargetKind target = TargetKind::index;  // generic mappings only
  int elements_per_team = 4;              // warp mappings on a GPU
};

// Throws InputError when the mapping does not serve the family.
template <class Exec, class Family, class S, class Op>
std::unique_ptr<AssemblerBase<Exec, S>> make_assembler(const Exec& exec, const Problem<Exec>& p,
                                                       const fe::Reference<Family, S, typename Exec::memory_space>& ref,
                                                       const Op& op, const AssemblerChoice& choice) {
  std::unique_ptr<AssemblerBase<Exec, S>> out;
  dispatch_entry<MappingRegistry>(choice.mapping, [&](auto mentry) {
    using ME = decltype(mentry);
    using M = typename ME::type;
    if constexpr (!ME::template serves<Family>) {
      throw InputError(std::string("this mapping is a hex8 fast path; it does not serve ") + Family::name + " meshes");
    } else {
      M mapping;
      if constexpr (has_elements_per_team<M>::value) mapping.elements_per_team = choice.elements_per_team;
      dispatch<RaceRegistry>(choice.race, [&](auto race) {
        using R = decltype(race);
        if constexpr (ME::specialised) {
          static_assert(std::is_same_v<Family, fe::Hex8>, "only hex8 has fast paths");
          out = std::make_unique<Assembler<Exec, M, R, S>>(exec, p, op.material, mapping);
        } else {
          dispatch<TargetRegistry>(choice.target, [&](auto target) {
            out = std::make_unique<FamilyAssembler<Exec, Family, Op, M, R, decltype(target), S>>(exec, p, ref, op,
                                                                                                  mapping);
          });
        }
      });
    }
  });
  return out;
}
}  // namespace kfem
