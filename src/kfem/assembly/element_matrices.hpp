// Element matrices kept on the device (banas' output Ae, EbE-v1's stored Ke): any generic mapping
// integrates elements [first, first + count) of the launch order into one dense array through
// target::ElementMatrices. Each entry has one writer, so the adds are plain.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/assembly/race/colored.hpp"
#include "kfem/assembly/target/element_matrix.hpp"
#include "kfem/core/fill.hpp"
#include "kfem/core/types.hpp"

namespace kfem {
// out: count x (C N_sh)^2 values, already zero; Ke of launch element first + i starts at
// i (C N_sh)^2. The integration kernel alone (banas' "kernel" stage; zeroing is the memory set-up).
template <class Exec, class Mapping, class Elements, class Op, class Values>
void integrate_element_matrices(const Exec& exec, const Mapping& mapping, const Elements& els, const Op& op,
                                ordinal_t first, ordinal_t count, const Values& out) {
  const auto where = target::ElementMatrices::make(first, Op::components, els.ref.nsh);
  const std::size_t n = std::size_t(where.size());
  if (out.extent(0) < std::size_t(count) * n * n)
    throw std::logic_error("element_matrices: output array too small");
  mapping.launch(exec, els, op, where, first, first + count, race::Colored::Adder<Values>{out});
}

// The same on any out: zeroed here first.
template <class Exec, class Mapping, class Elements, class Op, class Values>
void element_matrices(const Exec& exec, const Mapping& mapping, const Elements& els, const Op& op,
                      ordinal_t first, ordinal_t count, const Values& out) {
  fill_zero(exec, out);
  integrate_element_matrices(exec, mapping, els, op, first, count, out);
}
}  // namespace kfem
