// Target `element matrix`: every element's dense Ke (N_sh C x N_sh C, row-major) in one array,
// elements [first, first + count) of the launch order; banas' output Ae, and EbE-v1's stored
// matrices. Each entry has one writer, so any adder does (the plain one is enough).
#pragma once
#include <Kokkos_Core.hpp>
#include <limits>
#include <string>

#include "kfem/assembly/target/block.hpp"
#include "kfem/core/error.hpp"
#include "kfem/core/types.hpp"

namespace kfem::target {
struct ElementMatrices {
  static constexpr const char* name = "element-matrix";
  ordinal_t first = 0;  // launch index of the array's element 0
  int components = 1, nsh = 0;

  KOKKOS_INLINE_FUNCTION int size() const { return components * nsh; }  // rows of one Ke
  KOKKOS_INLINE_FUNCTION BlockRef operator()(ordinal_t e, int a, int b) const {
    const slot_t n = size();
    return {slot_t((e - first) * n * n + components * (a * n + b)), n};
  }
  double bytes_per_element() const { return 0; }

  // For `count` elements from launch index `first`; their Ke must fit 32-bit slots.
  static ElementMatrices make(ordinal_t first, ordinal_t count, int components, int nsh) {
    const double entries = double(count) * components * nsh * double(components * nsh);
    if (entries > double(std::numeric_limits<slot_t>::max()))
      throw InputError("element matrices: " + std::to_string(count) + " elements x " +
                       std::to_string(components * nsh) + "^2 entries exceed 32-bit slots; launch fewer at once");
    return {first, components, nsh};
  }
};
}  // namespace kfem::target
