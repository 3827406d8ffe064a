// Target `element matrix`: every element's dense Ke (N_sh C x N_sh C, row-major) in one array,
// elements [first, first + count) of the launch order; banas' output Ae, and EbE-v1's stored
// matrices. Every generic mapping hands each entry over once, whole, so its adder stores (Store).
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/assembly/target/block.hpp"
#include "kfem/core/types.hpp"

namespace kfem::target {
struct ElementMatrices {
  static constexpr const char* name = "element-matrix";
  ordinal_t first = 0;  // launch index of the array's element 0
  int components = 1, nsh = 0;

  KOKKOS_INLINE_FUNCTION int size() const { return components * nsh; }  // rows of one Ke
  KOKKOS_INLINE_FUNCTION BlockRef operator()(ordinal_t e, int a, int b) const {
    const row_length_t n = size();
    return {slot_t(e - first) * n * n + components * (a * n + b), n};
  }
  double bytes_per_element() const { return 0; }

  // For the elements from launch index `first` on (64-bit slots: any count that fits in memory).
  static ElementMatrices make(ordinal_t first, int components, int nsh) { return {first, components, nsh}; }

  // The adder: a store, no read of the output. An add would read every entry back first, and at high
  // order those loads stall gemm's epilogue.
  template <class Values>
  struct Store {
    Values v;
    KOKKOS_INLINE_FUNCTION const Store& access() const { return *this; }
    KOKKOS_INLINE_FUNCTION void operator()(slot_t s, typename Values::value_type x) const { v(s) = x; }
  };
};
}  // namespace kfem::target
