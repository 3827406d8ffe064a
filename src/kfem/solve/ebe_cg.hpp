// Jacobi-preconditioned CG with an element-by-element operator (ebe_operator.hpp) in place of the
// CSR matrix: the same recurrence (cg_detail::iterate), the diagonal summed element by element.
#pragma once
#include <Kokkos_Core.hpp>
#include <chrono>

#include "kfem/core/types.hpp"
#include "kfem/solve/cg.hpp"
#include "kfem/solve/ebe_operator.hpp"

namespace kfem {
// Solves A x = b, A the operator's constrained matrix (apply its Dirichlet conditions to b first),
// from x = 0, with the stopping rules of the CSR conjugate_gradient (opts.symmetric_storage is
// irrelevant here). Products run on Exec's default instance, where cg_detail::iterate's Kokkos
// Kernels calls run too; seconds include the diagonal set-up.
template <class Exec, class S>
CgResult conjugate_gradient(
    const Exec& exec, const EbeOperator<Exec, S>& A,
    const solve_detail::nondeduced_t<Kokkos::View<const S*, typename Exec::memory_space>>& b,
    const Kokkos::View<S*, typename Exec::memory_space>& x, const CgOptions& opts);

// Compiled once, in ebe_cg.cpp, for every enabled space in float and double (as cg.hpp's solver).
#define KFEM_EBE_CG_SCALAR(EXTERN, Exec, S)                                                        \
  EXTERN template CgResult conjugate_gradient<Exec, S>(                                            \
      const Exec&, const EbeOperator<Exec, S>&, const Kokkos::View<const S*, Exec::memory_space>&, \
      const Kokkos::View<S*, Exec::memory_space>&, const CgOptions&);
#define KFEM_EBE_CG(EXTERN, Exec) \
  KFEM_EBE_CG_SCALAR(EXTERN, Exec, double) KFEM_EBE_CG_SCALAR(EXTERN, Exec, float)
#define KFEM_EXTERN_EBE_CG(Exec) KFEM_EBE_CG(extern, Exec)
KFEM_FOR_EACH_EXEC_SPACE(KFEM_EXTERN_EBE_CG)
#undef KFEM_EXTERN_EBE_CG
}  // namespace kfem
