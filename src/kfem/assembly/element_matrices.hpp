// Element matrices kept on the device (banas' output Ae, EbE-v1's stored Ke): any generic mapping
// integrates elements [first, first + count) of the launch order into one dense array through
// target::ElementMatrices, whose adder stores each entry once.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <stdexcept>

#include "kfem/assembly/family_data.hpp"
#include "kfem/assembly/target/element_matrix.hpp"
#include "kfem/core/types.hpp"

namespace kfem {
// out: count x (C N_sh)^2 values, every one overwritten; Ke of launch element first + i starts at
// i (C N_sh)^2. The integration kernel alone (banas' "kernel" stage).
template <class Exec, class Mapping, class Elements, class Op, class Values>
void integrate_element_matrices(const Exec& exec, const Mapping& mapping, const Elements& els, const Op& op,
                                ordinal_t first, ordinal_t count, const Values& out) {
  const auto where = target::ElementMatrices::make(first, Op::components, els.ref.nsh);
  const std::size_t n = std::size_t(where.size());
  if (out.extent(0) < std::size_t(count) * n * n)
    throw std::logic_error("element_matrices: output array too small");
  mapping.launch(exec, family_inputs(els, where), op, first, first + count,
                 target::ElementMatrices::Store<Values>{out});
}
}  // namespace kfem
