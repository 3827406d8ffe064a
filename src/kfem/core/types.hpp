// Index types shared by every module. Node and DOF ids fit in 32 bits up to ~700 M DOFs;
// CSR offsets and value positions are 64-bit: one GPU's memory holds hex8 matrices of billions of
// entries, past 2^31. Row lengths stay 32-bit (row_length_t).
#pragma once
#include <cstdint>

namespace kfem {
using ordinal_t = std::int32_t;        // node, element, DOF and column ids
using offset_t = std::int64_t;         // CSR row offsets
using slot_t = std::int64_t;           // a position in the CSR value array
using row_length_t = std::int32_t;     // entries in one CSR row (a few thousand at most)
using block_offset_t = std::uint16_t;  // hex8 index: a node block's place within its CSR row

inline constexpr int dofs_per_node = 3;
inline constexpr int hex8_nodes = 8;
inline constexpr int hex8_dofs = dofs_per_node * hex8_nodes;  // 24
// hex8's CSR index per element (Hex8ElementData): a row start per node, a block offset per node pair and
// a row stride per node. The assembler's index figure and the device-memory estimate both use it.
inline constexpr int hex8_index_bytes = hex8_nodes * int(sizeof(slot_t)) +
                                        hex8_nodes * hex8_nodes * int(sizeof(block_offset_t)) +
                                        hex8_nodes * int(sizeof(row_length_t));
}  // namespace kfem
