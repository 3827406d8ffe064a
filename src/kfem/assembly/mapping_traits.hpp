// The work-mapping axis' contract: every member a mapping tag may have, each with its default, in
// one place. The pipeline, the assemblers, the driver and the tests ask MappingTraits<M>, never a
// concrete mapping; strategies.hpp's registry instantiates MappingTraits<M>::check for every entry,
// so a tag that lacks a required member fails to compile with that member's name.
//
// Required of every mapping:
//   static constexpr const char* name, help   the name users type and one line of help
// and, by its kind,
//   element-centric (owner_computes false):  using layout (its element data's Kokkos layout) and
//     launch(exec, in, op, begin, end, adder): elements [begin, end) of the launch order, every
//     entry of their Ke handed to the adder once (assembler.hpp, ElementAssembler)
//   owner computes (owner_computes true):  make_data(exec, problem), index_bytes_per_element(data)
//     and launch(exec, data, op, write): every value stored once by its owner (OwnerAssembler)
// Optional, with their defaults:
//   owner_computes = false       one writer per value; pairs with race none only
//   lower = false                computes and stores Ke's lower triangle only (lower storage)
//   lower_blocks = false         a lower mapping that also writes lower block storage (bsr-lower)
//                                through hex8's element data (its adds go through slot() or
//                                block_start() + row_offset(), never a CSR row's own layout)
//   host_geometry = false        reads Jacobian terms prepared on the host (banas' NOJAC)
//   run<Exec, S>() = 1           elements one thread assembles in turn (colour such runs as units)
//   set_up_scratch<Mem>(ne, nn)  bytes of set-up temporaries (the DOF graph's workspace keeps them)
//   int elements_per_team        a run-time member: warps (elements) per block on a GPU
//   bool symmetric_blocks        a run-time member: integrate the blocks b <= a, mirror the rest
//   bool blocks                  an owner mapping's run-time member: it writes block storage when
//                                the storage asks (bsr; bsr-lower for a lower one), into
//                                Problem::block_pattern
//   stage_parameters<Exec, S>(StageQuery)  what the stage bench reports of the kernel (its team
//                                shape, its scratch) and the flops it executes per element;
//                                default: none, and the node-pair formulation's count
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kfem/core/contract.hpp"
#include "kfem/core/types.hpp"

namespace kfem {
// What the stage bench asks a mapping of its kernel (StageQuery) and what the mapping answers
// (StageParameters: named kernel parameters, the flops it executes per element).
struct StageQuery {
  int nsh = 0, nq = 0;           // shape functions and quadrature points per element
  int vertices = 0;              // geometry vertices per element
  ordinal_t launch = 0;          // elements per launch
  bool symmetric = false;        // symmetric_blocks asked
  double geometry_flops = 0;     // per point, as model_flops_per_element counts them
  double combination_flops = 0;  // per block
};
struct StageParameters {
  std::vector<std::pair<std::string, long>> counts;         // in report order
  std::vector<std::pair<std::string, bool>> flags;          // after them
  std::vector<std::pair<std::string, std::string>> labels;  // after those
  double executed_flops_per_element = 0;                    // 0: the node-pair formulation's count
};

namespace mapping_contract {
template <class M, class = void>
struct has_layout : std::false_type {};
template <class M>
struct has_layout<M, std::void_t<typename M::layout>> : std::true_type {};
// (A member template's presence, checked without instantiating its body: its declaration for int.)
template <class M, class = void>
struct has_index_bytes : std::false_type {};
template <class M>
struct has_index_bytes<M, std::void_t<decltype(&M::template index_bytes_per_element<int>)>> : std::true_type {
};

#define KFEM_MAPPING_FLAG(member)            \
  template <class M, class = void>           \
  struct member##_flag : std::false_type {}; \
  template <class M>                         \
  struct member##_flag<M, std::void_t<decltype(M::member)>> : std::bool_constant<bool(M::member)> {};
KFEM_MAPPING_FLAG(owner_computes)
KFEM_MAPPING_FLAG(lower)
KFEM_MAPPING_FLAG(host_geometry)
KFEM_MAPPING_FLAG(lower_blocks)
#undef KFEM_MAPPING_FLAG

template <class M, class = void>
struct has_member_elements_per_team : std::false_type {};
template <class M>
struct has_member_elements_per_team<M, std::void_t<decltype(std::declval<M&>().elements_per_team)>>
    : std::true_type {};
template <class M, class = void>
struct has_member_symmetric_blocks : std::false_type {};
template <class M>
struct has_member_symmetric_blocks<M, std::void_t<decltype(std::declval<M&>().symmetric_blocks)>>
    : std::true_type {};
template <class M, class = void>
struct has_member_blocks : std::false_type {};
template <class M>
struct has_member_blocks<M, std::void_t<decltype(std::declval<M&>().blocks)>> : std::true_type {};
template <class M, class Exec, class S, class = void>
struct run_of : std::integral_constant<ordinal_t, 1> {};
template <class M, class Exec, class S>
struct run_of<M, Exec, S, std::void_t<decltype(M::template run<Exec, S>())>>
    : std::integral_constant<ordinal_t, M::template run<Exec, S>()> {};
template <class M, class Mem, class = void>
struct has_set_up_scratch : std::false_type {};
template <class M, class Mem>
struct has_set_up_scratch<M, Mem, std::void_t<decltype(M::template set_up_scratch<Mem>(0, 0))>>
    : std::true_type {};
template <class M, class Exec, class S, class = void>
struct has_stage_parameters : std::false_type {};
template <class M, class Exec, class S>
struct has_stage_parameters<
    M, Exec, S,
    std::void_t<decltype(M::template stage_parameters<Exec, S>(std::declval<const StageQuery&>()))>>
    : std::true_type {};
}  // namespace mapping_contract

template <class M>
struct MappingTraits {
  static constexpr bool owner_computes = mapping_contract::owner_computes_flag<M>::value;
  static constexpr bool lower = mapping_contract::lower_flag<M>::value;
  static constexpr bool host_geometry = mapping_contract::host_geometry_flag<M>::value;
  static constexpr bool lower_blocks = mapping_contract::lower_blocks_flag<M>::value;
  static constexpr bool has_elements_per_team = mapping_contract::has_member_elements_per_team<M>::value;
  static constexpr bool has_symmetric_blocks = mapping_contract::has_member_symmetric_blocks<M>::value;
  static constexpr bool has_blocks = mapping_contract::has_member_blocks<M>::value;
  // Whether the mapping writes block storage: bsr (full) or bsr-lower (lower).
  static constexpr bool writes_blocks = owner_computes ? has_blocks : !lower || lower_blocks;
  template <class Exec, class S>
  static constexpr ordinal_t run = mapping_contract::run_of<M, Exec, S>::value;

  template <class Mem>
  static constexpr bool has_set_up_scratch = mapping_contract::has_set_up_scratch<M, Mem>::value;
  // Bytes of set-up temporaries (0: none).
  template <class Mem>
  static std::size_t set_up_scratch(ordinal_t ne, ordinal_t nn) {
    if constexpr (has_set_up_scratch<Mem>) return M::template set_up_scratch<Mem>(ne, nn);
    (void)ne, (void)nn;
    return 0;
  }
  template <class Exec, class S>
  static StageParameters stage_parameters(const StageQuery& q) {
    if constexpr (mapping_contract::has_stage_parameters<M, Exec, S>::value)
      return M::template stage_parameters<Exec, S>(q);
    (void)q;
    return {};
  }

  // Instantiated by the registry for every entry: what a tag must have.
  static constexpr bool check() {
    static_assert(contract::has_name_and_help<M>::value,
                  "a mapping needs `static constexpr const char* name` and `help` (mapping_traits.hpp)");
    static_assert(
        owner_computes || mapping_contract::has_layout<M>::value,
        "an element-centric mapping needs `using layout` and launch(exec, in, op, begin, end, adder) "
        "(mapping_traits.hpp)");
    static_assert(
        !owner_computes || mapping_contract::has_index_bytes<M>::value,
        "an owner-computes mapping needs make_data(exec, problem), index_bytes_per_element(data) and "
        "launch(exec, data, op, write) (mapping_traits.hpp)");
    static_assert(!lower_blocks || lower, "lower_blocks is a lower mapping's flag (mapping_traits.hpp)");
    return true;
  }
};
}  // namespace kfem
