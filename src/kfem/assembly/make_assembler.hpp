// Run-time kinds -> one assembler: the registry lookup the driver and the tests share. A hex8 fast
// path reads hex8's element data (inputs::Hex8); a generic mapping the family's elements and a
// target (inputs::Family<target>); owner-computes mappings run in OwnerAssembler.
#pragma once
#include <memory>
#include <string>
#include <type_traits>

#include "kfem/assembly/assembler.hpp"
#include "kfem/assembly/strategies.hpp"
#include "kfem/core/error.hpp"
#include "kfem/core/exec_spaces.hpp"

namespace kfem {
// Calls f(entry) for the registry entry of `kind`; false when none matches.
template <class Registry, class Kind, class F>
bool dispatch_entry(Kind kind, F&& f) {
  return std::apply([&](auto... e) { return ((decltype(e)::kind == kind ? (f(e), true) : false) || ...); },
                    Registry{});
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
  bool symmetric_blocks = false;          // banas mappings: integrate the blocks b <= a only
  // Block storage (storage bsr, sparsity/bsr.hpp): the mapping writes C x C node blocks through
  // target::Blocks (generic) or inputs::Hex8Blocks (hex8's element-centric fast paths).
  bool blocks = false;
};

namespace detail {
// One registry entry -> an assembler, chosen by partial specialisation rather than `if constexpr`
// inside the dispatching lambdas (nvcc 13 instantiates the discarded branches of those).
template <class Exec, class Family, class S, class Op, class ME, bool Serves = ME::template serves<Family>,
          bool FastPath = ME::specialised>
struct Build {  // the mapping does not serve the family
  template <class Ref>
  static std::unique_ptr<AssemblerBase<Exec, S>> make(const Exec&, const Problem<Exec>&, const Ref&,
                                                      const Op&, const AssemblerChoice&) {
    throw InputError(std::string(ME::specialised
                                     ? "this mapping is a hex8 fast path"
                                     : "this mapping is written for P_p on prisms and tetrahedra") +
                     "; it does not serve " + Family::name + " meshes");
  }
};

template <class M>
M tuned(const AssemblerChoice& choice) {
  M mapping;
  if constexpr (MappingTraits<M>::has_elements_per_team) mapping.elements_per_team = choice.elements_per_team;
  if constexpr (MappingTraits<M>::has_symmetric_blocks) mapping.symmetric_blocks = choice.symmetric_blocks;
  if constexpr (MappingTraits<M>::has_blocks) mapping.blocks = choice.blocks;
  return mapping;
}

// One mapping with one race handling and what it reads (In: inputs::Hex8 or inputs::Family<target>)
// -> ElementAssembler, or OwnerAssembler for owner computes; a pair that does not go together
// (pairs_with) is refused.
template <class Exec, class Family, class S, class Op, class M, class R, class In,
          bool Pairs = pairs_with<M, R>, bool Owner = MappingTraits<M>::owner_computes>
struct Make {
  template <class Ref>
  static std::unique_ptr<AssemblerBase<Exec, S>> make(const Exec&, const Problem<Exec>&, const Ref&,
                                                      const Op&, const M&) {
    throw InputError(mismatch_reason(Owner));
  }
};
template <class Exec, class Family, class S, class Op, class M, class R, class In>
struct Make<Exec, Family, S, Op, M, R, In, true, false> {
  template <class Ref>
  static std::unique_ptr<AssemblerBase<Exec, S>> make(const Exec& exec, const Problem<Exec>& p,
                                                      const Ref& ref, const Op& op, const M& mapping) {
    return std::make_unique<ElementAssembler<Exec, Family, Op, M, R, In, S>>(exec, p, ref, op, mapping);
  }
};
template <class Exec, class Family, class S, class Op, class M, class R, class In>
struct Make<Exec, Family, S, Op, M, R, In, true, true> {
  template <class Ref>
  static std::unique_ptr<AssemblerBase<Exec, S>> make(const Exec& exec, const Problem<Exec>& p, const Ref&,
                                                      const Op& op, const M& mapping) {
    return std::make_unique<OwnerAssembler<Exec, Op, M, S>>(exec, p, op, mapping);
  }
};

// A hex8 fast path into block storage (MappingTraits::writes_blocks): the element-centric full-storage
// ones, and the lower ones that declare lower_blocks, read hex8's element data with the block index;
// owner mappings with a `blocks` member build their own; the others are refused.
template <class Exec, class Family, class S, class Op, class M, class R,
          bool Writes = MappingTraits<M>::writes_blocks>
struct MakeBlocks {
  template <class Ref>
  static std::unique_ptr<AssemblerBase<Exec, S>> make(const Exec&, const Problem<Exec>&, const Ref&,
                                                      const Op&, const M&) {
    throw InputError(std::string("mapping ") + M::name + " does not write block storage: " +
                     (MappingTraits<M>::lower ? "it writes the lower triangle of the CSR"
                                              : "it writes the CSR from its own index"));
  }
};
template <class Exec, class Family, class S, class Op, class M, class R>
struct MakeBlocks<Exec, Family, S, Op, M, R, true> {
  template <class Ref>
  static std::unique_ptr<AssemblerBase<Exec, S>> make(const Exec& exec, const Problem<Exec>& p,
                                                      const Ref& ref, const Op& op, const M& mapping) {
    return Make<Exec, Family, S, Op, M, R, inputs::Hex8Blocks>::make(exec, p, ref, op, mapping);
  }
};

template <class Exec, class Family, class S, class Op, class ME>
struct Build<Exec, Family, S, Op, ME, true, true> {  // a hex8 fast path: hex8's own element data
  template <class Ref>
  static std::unique_ptr<AssemblerBase<Exec, S>> make(const Exec& exec, const Problem<Exec>& p,
                                                      const Ref& ref, const Op& op,
                                                      const AssemblerChoice& choice) {
    using M = typename ME::type;
    std::unique_ptr<AssemblerBase<Exec, S>> out;
    dispatch<RaceRegistry>(choice.race, [&](auto race) {
      if (choice.blocks)
        out = MakeBlocks<Exec, Family, S, Op, M, decltype(race)>::make(exec, p, ref, op, tuned<M>(choice));
      else
        out = Make<Exec, Family, S, Op, M, decltype(race), inputs::Hex8>::make(exec, p, ref, op,
                                                                               tuned<M>(choice));
    });
    return out;
  }
};

template <class Exec, class Family, class S, class Op, class ME>
struct Build<Exec, Family, S, Op, ME, true, false> {  // a generic mapping: reference tables + target
  template <class Ref>
  static std::unique_ptr<AssemblerBase<Exec, S>> make(const Exec& exec, const Problem<Exec>& p,
                                                      const Ref& ref, const Op& op,
                                                      const AssemblerChoice& choice) {
    using M = typename ME::type;
    std::unique_ptr<AssemblerBase<Exec, S>> out;
    dispatch<RaceRegistry>(choice.race, [&](auto race) {
      if (choice.blocks) {
        // Block storage through the generic mappings of every family (thread, team); the prism
        // integration study's mappings (banas', gemm) write the CSR only, so their kernels are not
        // compiled a third time for a target nothing measures them on.
        if constexpr (is_generic<ME>::value) {
          using In = inputs::Family<target::Blocks>;
          out = Make<Exec, Family, S, Op, M, decltype(race), In>::make(exec, p, ref, op, tuned<M>(choice));
        } else {
          throw InputError(std::string("mapping ") + M::name +
                           " does not write block storage (the generic mappings and hex8's element-centric "
                           "full-storage ones do)");
        }
        return;
      }
      dispatch<TargetRegistry>(choice.target, [&](auto target) {
        using In = inputs::Family<decltype(target)>;
        out = Make<Exec, Family, S, Op, M, decltype(race), In>::make(exec, p, ref, op, tuned<M>(choice));
      });
    });
    return out;
  }
};
}  // namespace detail

// Throws InputError when the mapping does not serve the family.
template <class Exec, class Family, class S, class Op>
std::unique_ptr<AssemblerBase<Exec, S>> make_assembler(
    const Exec& exec, const Problem<Exec>& p,
    const fe::Reference<Family, S, typename Exec::memory_space>& ref, const Op& op,
    const AssemblerChoice& choice) {
  std::unique_ptr<AssemblerBase<Exec, S>> out;
  dispatch_entry<MappingRegistry>(choice.mapping, [&](auto mentry) {
    out = detail::Build<Exec, Family, S, Op, decltype(mentry)>::make(exec, p, ref, op, choice);
  });
  return out;
}

// Every strategy's kernels for a family are compiled once, in make_assembler_<family>[_<scalar>].cpp, rather
// than in every file that asks for an assembler (the driver's points, the typed tests): explicit
// instantiation of the (family, operator) pairs kfem runs, both scalars, every enabled space.
#define KFEM_MAKE_ASSEMBLER(EXTERN, Exec, Family, S, Op)                                               \
  EXTERN template std::unique_ptr<AssemblerBase<Exec, S>> make_assembler<Exec, Family, S, Op<S>>(      \
      const Exec&, const Problem<Exec>&, const fe::Reference<Family, S, typename Exec::memory_space>&, \
      const Op<S>&, const AssemblerChoice&);
#define KFEM_MAKE_ASSEMBLER_BOTH_SCALARS(EXTERN, Exec, Family, Op) \
  KFEM_MAKE_ASSEMBLER(EXTERN, Exec, Family, double, Op)            \
  KFEM_MAKE_ASSEMBLER(EXTERN, Exec, Family, float, Op)
#define KFEM_EXTERN_MAKE_ASSEMBLER(Exec)                                       \
  KFEM_MAKE_ASSEMBLER_BOTH_SCALARS(extern, Exec, fe::Hex8, fe::Elasticity)     \
  KFEM_MAKE_ASSEMBLER_BOTH_SCALARS(extern, Exec, fe::Lagrange, fe::Elasticity) \
  KFEM_MAKE_ASSEMBLER_BOTH_SCALARS(extern, Exec, fe::Tri3, fe::Electrostatics)
KFEM_FOR_EACH_EXEC_SPACE(KFEM_EXTERN_MAKE_ASSEMBLER)
#undef KFEM_EXTERN_MAKE_ASSEMBLER
}  // namespace kfem
