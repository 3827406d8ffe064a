// Targets, the "where does Ke(i, j) go" step: given an element and a node pair (a, b), a target
// names the place of the components x components block (a, b) in the CSR value array. Every CSR
// target answers with a BlockRef, whatever it stores; a race handling then makes the adds safe.
// Adding a target = one file in target/ with make() and block(e, a, b), + one registry line.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/core/types.hpp"

namespace kfem::target {
// Slot of component pair (c, d) of a node block: the block's rows are `stride` slots apart.
struct BlockRef {
  slot_t base;
  row_length_t stride;
  KOKKOS_INLINE_FUNCTION slot_t operator()(int c, int d) const { return base + c * stride + d; }
};
}  // namespace kfem::target
