// The strategy registry: every work mapping, race handling and target kfem knows, each with its
// kind, and for each mapping the element families it serves (none listed = every family, on the
// family's elements; hex8-only fast paths list fe::Hex8 and run on hex8's own element data). Adding a
// strategy = its file under mapping/, race/ or target/ (a mapping or race tag carries its `name` and one line
// of `help`) + one line in the lists below. Tests, benchmarks and the driver (names, --help, messages, the
// tuner, inputs/README.md's table) iterate these lists.
#pragma once
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "kfem/assembly/mapping/banas_blocks.hpp"
#include "kfem/assembly/mapping/gemm_blocks.hpp"
#include "kfem/assembly/mapping/hex8_batch.hpp"
#include "kfem/assembly/mapping/hex8_batch_owner.hpp"
#include "kfem/assembly/mapping/hex8_box_owner.hpp"
#include "kfem/assembly/mapping/hex8_owner.hpp"
#include "kfem/assembly/mapping/hex8_pairs.hpp"
#include "kfem/assembly/mapping/hex8_pairs_mma.hpp"
#include "kfem/assembly/mapping/hex8_ppni.hpp"
#include "kfem/assembly/mapping/hex8_sym300.hpp"
#include "kfem/assembly/mapping/hex8_thread_per_element.hpp"
#include "kfem/assembly/mapping/hex8_two_kernel.hpp"
#include "kfem/assembly/mapping/hex8_warp.hpp"
#include "kfem/assembly/mapping/team_per_element.hpp"
#include "kfem/assembly/mapping/thread_per_element.hpp"
#include "kfem/assembly/mapping_traits.hpp"
#include "kfem/assembly/race/atomic.hpp"
#include "kfem/assembly/race/colored.hpp"
#include "kfem/assembly/race/none.hpp"
#include "kfem/assembly/race/scatter.hpp"
#include "kfem/assembly/target/bsr_index.hpp"
#include "kfem/assembly/target/csr_index.hpp"
#include "kfem/assembly/target/csr_search.hpp"
#include "kfem/fe/family.hpp"

namespace kfem {
enum class MappingKind {
  element,
  warp4,
  warp8,
  ppni4,
  ppni8,
  twokernel,
  warp4_scratch,
  warp4_atomic,
  warp4_vreduce,
  sym300,
  sym300x2,
  pairs,
  sympairs,
  thread,
  team,
  reg_jac,
  reg_nojac,
  shm_jac,
  shm_nojac,
  gemm,
  owner,
  batch,
  batch_owner,
  pairs_mma,
  sympairs_mma,
  box_owner,
  symbox_owner
};
enum class RaceKind { colored, atomic, scatter, none };
enum class TargetKind { index, search };

// A registry entry: the strategy's tag, its kind and the families it serves (none listed = every
// family). `specialised` marks a fast path with its own element data and kernels (the hex8 ones,
// inputs::Hex8); the others read the family's elements and a target (inputs::Family).
template <class Tag, auto Kind, bool OwnData, class... Families>
struct EntryOf {
  using type = Tag;
  static constexpr auto kind = Kind;
  // The name users type (CLI, decks, reports) and one line of help, the tag's own.
  static constexpr const char* name() { return Tag::name; }
  static constexpr const char* help() { return Tag::help; }
  static constexpr bool specialised = OwnData;
  static constexpr bool every_family = sizeof...(Families) == 0;
  template <class Family>
  static constexpr bool serves = every_family || (std::is_same_v<Family, Families> || ...);
};
// A fast path when families are listed (hex8's own data), else generic for every family.
template <class Tag, auto Kind, class... Families>
using Entry = EntryOf<Tag, Kind, (sizeof...(Families) > 0), Families...>;
// A generic mapping (the family's elements and a target) that serves the listed families only.
template <class Tag, auto Kind, class... Families>
using FamilyEntry = EntryOf<Tag, Kind, false, Families...>;

using JR = mapping::JacobianReduction;
using MappingRegistry = std::tuple<
    Entry<mapping::Hex8Element, MappingKind::element, fe::Hex8>,
    Entry<mapping::Hex8Warp<4>, MappingKind::warp4, fe::Hex8>,
    Entry<mapping::Hex8Warp<8>, MappingKind::warp8, fe::Hex8>,
    Entry<mapping::Hex8Ppni<4>, MappingKind::ppni4, fe::Hex8>,
    Entry<mapping::Hex8Ppni<8>, MappingKind::ppni8, fe::Hex8>,
    Entry<mapping::Hex8TwoKernel, MappingKind::twokernel, fe::Hex8>,
    Entry<mapping::Hex8Warp<4, JR::scratch>, MappingKind::warp4_scratch, fe::Hex8>,
    Entry<mapping::Hex8Warp<4, JR::atomic>, MappingKind::warp4_atomic, fe::Hex8>,
    Entry<mapping::Hex8Warp<4, JR::vector_reduce>, MappingKind::warp4_vreduce, fe::Hex8>,
    Entry<mapping::Hex8Sym300<1>, MappingKind::sym300, fe::Hex8>,
    Entry<mapping::Hex8Sym300<2>, MappingKind::sym300x2, fe::Hex8>,
    Entry<mapping::Hex8Pairs<false>, MappingKind::pairs, fe::Hex8>,
    Entry<mapping::Hex8Pairs<true>, MappingKind::sympairs, fe::Hex8>,
    Entry<mapping::Hex8PairsMma<false>, MappingKind::pairs_mma, fe::Hex8>,
    Entry<mapping::Hex8PairsMma<true>, MappingKind::sympairs_mma, fe::Hex8>,
    Entry<mapping::Hex8Owner, MappingKind::owner, fe::Hex8>,
    Entry<mapping::Hex8Batch, MappingKind::batch, fe::Hex8>,
    Entry<mapping::Hex8BatchOwner, MappingKind::batch_owner, fe::Hex8>,
    Entry<mapping::Hex8BoxOwner<false>, MappingKind::box_owner, fe::Hex8>,
    Entry<mapping::Hex8BoxOwner<true>, MappingKind::symbox_owner, fe::Hex8>,
    Entry<mapping::ThreadPerElement, MappingKind::thread>, Entry<mapping::TeamPerElement, MappingKind::team>,
    // banas et al.'s prism integration kernels (Algorithms 3-4): generic code, listed for P_p (prisms, tets).
    FamilyEntry<mapping::BanasBlocks<mapping::Accumulate::registers, mapping::Jacobian::device>,
                MappingKind::reg_jac, fe::Lagrange>,
    FamilyEntry<mapping::BanasBlocks<mapping::Accumulate::registers, mapping::Jacobian::host>,
                MappingKind::reg_nojac, fe::Lagrange>,
    FamilyEntry<mapping::BanasBlocks<mapping::Accumulate::shared, mapping::Jacobian::device>,
                MappingKind::shm_jac, fe::Lagrange>,
    FamilyEntry<mapping::BanasBlocks<mapping::Accumulate::shared, mapping::Jacobian::host>,
                MappingKind::shm_nojac, fe::Lagrange>,
    FamilyEntry<mapping::GemmBlocks, MappingKind::gemm, fe::Lagrange>>;
// Every mapping has what its kind needs (MappingTraits::check names what a tag lacks).
template <class... E>
constexpr bool mappings_complete(std::tuple<E...>*) {
  return (MappingTraits<typename E::type>::check() && ...);
}
static_assert(mappings_complete(static_cast<MappingRegistry*>(nullptr)));
// In the tuner's candidate order (within 1 % the first wins: on a GPU scatter is atomic underneath).
using RaceRegistry =
    std::tuple<Entry<race::Colored, RaceKind::colored>, Entry<race::Atomic, RaceKind::atomic>,
               Entry<race::Scatter, RaceKind::scatter>, Entry<race::None, RaceKind::none>>;
// Owner-computes mappings write every value once and take race `none`; the element-centric ones
// take any other race handling. `pairs_with` says whether a mapping and a race go together.
// Owner-computes mappings write every value once and take race `none`; the element-centric ones
// take any other race handling (a race tag's `single_writer`). `pairs_with` says whether a mapping
// and a race go together.
template <class T, class = void>
struct single_writer : std::false_type {};
template <class T>
struct single_writer<T, std::void_t<decltype(T::single_writer)>> : std::bool_constant<T::single_writer> {};
template <class M, class R>
inline constexpr bool pairs_with = MappingTraits<M>::owner_computes == single_writer<R>::value;

// Targets of the generic mappings (the hex8 fast paths carry their own 72-slot index).
using TargetRegistry =
    std::tuple<Entry<target::Index, TargetKind::index>, Entry<target::Search, TargetKind::search>>;
// The registry split by kind of mapping (tests iterate these: the hex8 fast paths on hex8 data,
// the generic mappings on every family).
template <template <class> class Pred, class Tuple>
struct filter_entries;
template <template <class> class Pred, class... Es>
struct filter_entries<Pred, std::tuple<Es...>> {
  using type =
      decltype(std::tuple_cat(std::conditional_t<Pred<Es>::value, std::tuple<Es>, std::tuple<>>{}...));
};
template <class E>
struct is_fast_path : std::bool_constant<E::specialised> {};
template <class E>
struct is_generic : std::bool_constant<!E::specialised && E::every_family> {};
template <class E>
struct is_prism_integration
    : std::bool_constant<!E::specialised && !E::every_family && E::template serves<fe::Lagrange>> {};
using FastPathRegistry = filter_entries<is_fast_path, MappingRegistry>::type;
// Generic mappings that serve every family (thread, team).
using GenericMappingRegistry = filter_entries<is_generic, MappingRegistry>::type;
// Generic mappings written for the prism integration study (banas: REG/SHM x JAC/NOJAC, GEMM).
using PrismMappingRegistry = filter_entries<is_prism_integration, MappingRegistry>::type;
// The (family, operator) pairs kfem solves.
using FamilyRegistry = std::tuple<fe::Tri3, fe::Hex8, fe::Lagrange>;

// Calls f(entry) for every entry of a registry (entry::type is the tag, entry::kind its kind).
template <class Registry, class F>
void for_each_entry(F&& f) {
  std::apply([&](auto... entry) { (f(entry), ...); }, Registry{});
}

// Calls f(Tag{}) for the registry entry of `kind`; returns false when none matches.
template <class Registry, class Kind, class F>
bool dispatch(Kind kind, F&& f) {
  return std::apply(
      [&](auto... entry) {
        return ((decltype(entry)::kind == kind ? (f(typename decltype(entry)::type{}), true) : false) || ...);
      },
      Registry{});
}

// Run-time views of the registries, in registry order: the driver's names, help, messages and the
// tuner's candidates come from these, so a new entry needs no edit there.
template <class Registry>
std::vector<std::string> entry_names() {
  std::vector<std::string> out;
  for_each_entry<Registry>([&](auto e) { out.emplace_back(decltype(e)::name()); });
  return out;
}
// The name of `kind` ("?" where the registry has none).
template <class Registry, class Kind>
std::string entry_name(Kind kind) {
  std::string out = "?";
  for_each_entry<Registry>([&](auto e) {
    if (decltype(e)::kind == kind) out = decltype(e)::name();
  });
  return out;
}
// The names users type and reports carry, from the registries.
inline std::string name_of(MappingKind k) {
  return entry_name<MappingRegistry>(k);
}
inline std::string name_of(RaceKind k) {
  return entry_name<RaceRegistry>(k);
}
inline std::string name_of(TargetKind k) {
  return entry_name<TargetRegistry>(k);
}
// The kind named `name`, if the registry has one.
template <class Registry>
auto entry_kind(const std::string& name) {
  std::optional<std::remove_const_t<decltype(std::tuple_element_t<0, Registry>::kind)>> out;
  for_each_entry<Registry>([&](auto e) {
    if (name == decltype(e)::name()) out = decltype(e)::kind;
  });
  return out;
}
// "a, b, c", or with last = " or ": "a, b or c".
inline std::string join_names(const std::vector<std::string>& names, const char* last = ", ") {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? last : ", ") + names[i];
  return out;
}
// The families a registry entry serves, by name ("" for every family).
template <class E>
std::string entry_families() {
  std::vector<std::string> out;
  if (!E::every_family)
    std::apply(
        [&](auto... f) {
          ((E::template serves<decltype(f)> ? out.push_back(decltype(f)::name) : void()), ...);
        },
        FamilyRegistry{});
  return join_names(out);
}
// The owner-computes mappings (race none only).
inline std::vector<std::string> owner_mapping_names() {
  std::vector<std::string> out;
  for_each_entry<MappingRegistry>([&](auto e) {
    if (MappingTraits<typename decltype(e)::type>::owner_computes) out.emplace_back(decltype(e)::name());
  });
  return out;
}
// The races that pair with owner-computes mappings (`owner_mapping`), or with the others.
inline std::vector<std::string> race_names_for(bool owner_mapping) {
  std::vector<std::string> out;
  for_each_entry<RaceRegistry>([&](auto e) {
    if (single_writer<typename decltype(e)::type>::value == owner_mapping)
      out.emplace_back(decltype(e)::name());
  });
  return out;
}

// Why a mapping and a race do not go together, for every refusal (one wording everywhere).
inline std::string mismatch_reason(bool owner_mapping) {
  const std::string owners = "owner-computes mappings (" + join_names(owner_mapping_names()) + ")";
  const std::string single = join_names(race_names_for(true), " or ");
  return owner_mapping ? owners + " write every value once and take race " + single
                       : "race " + single + " is for " + owners;
}
// Which mappings take which races, for messages about a whole deck.
inline std::string pairing_rule() {
  return "owner-computes mappings (" + join_names(owner_mapping_names()) + ") take race " +
         join_names(race_names_for(true), " or ") + ", the other mappings " +
         join_names(race_names_for(false), " or ");
}

// Run-time forms of the traits above.
inline bool owner_computes_kind(MappingKind mapping) {
  bool owner = false;
  dispatch<MappingRegistry>(mapping, [&](auto m) { owner = MappingTraits<decltype(m)>::owner_computes; });
  return owner;
}
inline bool needs_coloring_kind(RaceKind race) {
  bool colored = false;
  dispatch<RaceRegistry>(race, [&](auto r) { colored = decltype(r)::needs_coloring; });
  return colored;
}
inline bool pairs_with_kinds(MappingKind mapping, RaceKind race) {
  bool single = false;
  dispatch<RaceRegistry>(race, [&](auto r) { single = single_writer<decltype(r)>::value; });
  return owner_computes_kind(mapping) == single;
}
// Whether the mapping takes the elements in Problem's launch order (element-centric, no colouring).
inline bool follows_launch_order(MappingKind mapping, RaceKind race) {
  return !needs_coloring_kind(race) && !owner_computes_kind(mapping);
}

// Mappings with the symmetric_blocks option (banas' block kernels: integrate b <= a, mirror the rest).
inline bool has_symmetric_blocks_kind(MappingKind mapping) {
  bool has = false;
  dispatch<MappingRegistry>(mapping, [&](auto m) { has = MappingTraits<decltype(m)>::has_symmetric_blocks; });
  return has;
}

// Per-backend defaults: the fastest measured full-storage combination on every mesh and precision.
// On GPUs pairs with atomics. On CPU backends batch's owner-computes form with race none, or batch
// where an element-centric race handling is named (`element_race`), which the owner-computes form
// does not take. Other families take the generic team mapping.
template <class Exec>
constexpr MappingKind default_mapping(CellType cell = CellType::hex8, bool element_race = false) {
  if (cell != CellType::hex8) return MappingKind::team;
  if (!lanes::in_turn<Exec>) return MappingKind::pairs;
  return element_race ? MappingKind::batch : MappingKind::batch_owner;
}
// The per-element index up to order 2 (N_sh^2 slots: 342 at p = 2), the search beyond (O(N_sh)).
constexpr TargetKind default_target(int order) {
  return order <= 2 ? TargetKind::index : TargetKind::search;
}
// For element-centric mappings; an owner-computes mapping takes race none (the driver picks it).
template <class Exec>
constexpr RaceKind default_race() {
  return lanes::in_turn<Exec> ? RaceKind::colored : RaceKind::atomic;
}
}  // namespace kfem
