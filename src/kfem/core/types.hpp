// Index types shared by every module. Node and DOF ids fit in 32 bits up to ~700 M DOFs;
// CSR offsets are 64-bit because mesh4's matrix already holds 0.53 G entries.
#pragma once
#include <cstdint>

namespace kfem {
using ordinal_t = std::int32_t;  // node, element, DOF and column ids
using offset_t = std::int64_t;   // CSR row offsets
using slot_t = std::int32_t;     // a position in the CSR value array (checked to fit at setup)

inline constexpr int dofs_per_node = 3;
inline constexpr int hex8_nodes = 8;
inline constexpr int hex8_dofs = dofs_per_node * hex8_nodes;  // 24
}  // namespace kfem
