// Race handling by atomics: one launch over all elements, every add atomic (native double
// atomics on sm_60+). Not reproducible bit for bit: the summation order varies run to run.
#pragma once
#include <Kokkos_Core.hpp>
#include <vector>

#include "kfem/core/types.hpp"

namespace kfem::race {
struct Atomic {
  static constexpr const char* name = "atomic";
  static constexpr const char* help = "one launch, every add atomic; the summation order varies run to run";
  static constexpr bool needs_coloring = false;

  template <class Values>
  struct Adder {
    Values v;
    KOKKOS_INLINE_FUNCTION const Adder& access() const { return *this; }
    KOKKOS_INLINE_FUNCTION void operator()(slot_t s, typename Values::value_type x) const {
      Kokkos::atomic_add(&v(s), x);
    }
  };

  template <class Exec, class Values>
  struct Runner {
    explicit Runner(const Values&) {}
    template <class Launch>
    void operator()(const Exec&, const Values& values, const std::vector<ordinal_t>& offsets,
                    Launch&& launch) {
      launch(offsets.front(), offsets.back(), Adder<Values>{values});
    }
  };
};
}  // namespace kfem::race
