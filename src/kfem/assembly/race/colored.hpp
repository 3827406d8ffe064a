// Race handling by colouring: one launch per colour, plain adds (no two elements of a launch
// share a node, so no two threads touch the same CSR slot). Bitwise reproducible.
#pragma once
#include <Kokkos_Core.hpp>
#include <vector>

#include "kfem/core/types.hpp"

namespace kfem::race {
// tour: colored-race
struct Colored {
  static constexpr const char* name = "colored";
  static constexpr const char* help =
      "a launch per colour of elements that share no node, plain adds; bitwise reproducible";
  static constexpr bool needs_coloring = true;

  template <class Values>
  struct Adder {
    static constexpr bool plain = true;  // mappings may tune for plain adds (hex8_pairs.hpp)
    Values v;
    KOKKOS_INLINE_FUNCTION const Adder& access() const { return *this; }
    KOKKOS_INLINE_FUNCTION void operator()(slot_t s, typename Values::value_type x) const { v(s) += x; }
  };

  template <class Exec, class Values>
  struct Runner {
    explicit Runner(const Values&) {}
    // `launch(begin, end, adder)` assembles elements [begin, end) of the launch order.
    template <class Launch>
    void operator()(const Exec&, const Values& values, const std::vector<ordinal_t>& offsets,
                    Launch&& launch) {
      for (std::size_t c = 0; c + 1 < offsets.size(); ++c)
        launch(offsets[c], offsets[c + 1], Adder<Values>{values});
    }
  };
};
// tour: end colored-race
}  // namespace kfem::race
