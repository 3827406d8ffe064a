// Jacobi-preconditioned CG with an element-by-element operator (ebe_operator.hpp) in place of the
// CSR matrix: the same recurrence (cg_detail::iterate), the diagonal summed element by element.
#pragma once
#include <Kokkos_Core.hpp>
#include <chrono>

#include "kfem/core/types.hpp"
#include "kfem/solve/cg.hpp"
#include "kfem/solve/ebe_operator.hpp"

namespace kfem {
namespace ebe_detail {
// inv(r) = 1 / d(r), in place; 1 where d(r) = 0, as cg_detail::inverse_diagonal does.
template <class Vec>
struct Invert {
  Vec v;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const {
    using S = typename Vec::non_const_value_type;
    v(r) = v(r) != S(0) ? S(1) / v(r) : S(1);
  }
};
}  // namespace ebe_detail

// Solves A x = b, A the operator's constrained matrix (apply its Dirichlet conditions to b first),
// from x = 0, with the stopping rules of the CSR conjugate_gradient (opts.symmetric_storage is
// irrelevant here). Products run on Exec's default instance, where cg_detail::iterate's Kokkos
// Kernels calls run too; seconds include the diagonal set-up.
template <class Exec, class S>
CgResult conjugate_gradient(
    const Exec& exec, const EbeOperator<Exec, S>& A,
    const solve_detail::nondeduced_t<Kokkos::View<const S*, typename Exec::memory_space>>& b,
    const Kokkos::View<S*, typename Exec::memory_space>& x, const CgOptions& opts) {
  // Typed on Device<Exec, Mem> as in the CSR solver, so Kokkos Kernels launches on Exec.
  using Device = Kokkos::Device<Exec, typename Exec::memory_space>;
  using Vec = Kokkos::View<S*, Device>;
  exec.fence();
  const auto start = std::chrono::steady_clock::now();
  const Vec inv_diag(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::cg_inv_diag"), A.num_dofs());
  A.diagonal(exec, inv_diag);
  Kokkos::parallel_for("kfem::ebe_cg_inverse_diagonal", Kokkos::RangePolicy<Exec>(exec, 0, A.num_dofs()),
                       ebe_detail::Invert<Vec>{inv_diag});
  const auto apply = [&A](const Vec& p, const Vec& Ap) { A.apply(Exec(), p, Ap); };
  CgResult res = cg_detail::iterate(exec, apply, inv_diag, Kokkos::View<const S*, Device>(b), Vec(x), opts);
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return res;
}

// Compiled once, in ebe_cg.cpp, for every enabled space in float and double (as cg.hpp's solver);
// other spaces instantiate as usual.
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
