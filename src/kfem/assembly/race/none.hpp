// Race handling `none`: for owner-computes mappings, where every value has exactly one writer (the
// owner of its row), so there is no race to handle and nothing to zero. Element-centric mappings
// cannot use it, and owner-computes mappings use nothing else (make_assembler refuses the others).
#pragma once

namespace kfem::race {
struct None {
  static constexpr const char* name = "none";
  static constexpr const char* help =
      "one writer per value (owner computes): nothing to colour, lock or zero; deterministic";
  static constexpr bool needs_coloring = false;
  static constexpr bool single_writer = true;
};
}  // namespace kfem::race
