// Race handling by Kokkos::ScatterView: its default for the backend decides, duplicated copies
// reduced at the end on host backends (memory: one copy of the values per thread), atomics on GPUs.
#pragma once
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>
#include <vector>

#include "kfem/core/types.hpp"

namespace kfem::race {
struct Scatter {
  static constexpr const char* name = "scatter";
  static constexpr const char* help =
      "Kokkos::ScatterView: per-thread copies reduced at the end on host backends, atomics on GPUs";
  static constexpr bool needs_coloring = false;

  template <class SV>
  struct Adder {
    SV sv;
    struct Access {
      decltype(std::declval<const SV&>().access()) a;
      KOKKOS_INLINE_FUNCTION void operator()(slot_t s, typename SV::original_value_type x) const {
        a(s) += x;
      }
    };
    KOKKOS_INLINE_FUNCTION Access access() const { return Access{sv.access()}; }
  };

  template <class Exec, class Values>
  struct Runner {
    using SV = Kokkos::Experimental::ScatterView<typename Values::data_type, typename Values::array_layout,
                                                 Kokkos::Device<Exec, typename Exec::memory_space>>;
    SV sv;
    explicit Runner(const Values& values) : sv(values) {}
    template <class Launch>
    void operator()(const Exec& exec, const Values& values, const std::vector<ordinal_t>& offsets,
                    Launch&& launch) {
      sv.reset_except(exec, values);  // duplicates restart from zero; the original holds the zeroed values
      launch(offsets.front(), offsets.back(), Adder<SV>{sv});
      sv.contribute_into(exec, values);
    }
  };
};
}  // namespace kfem::race
