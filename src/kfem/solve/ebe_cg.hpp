// The element-by-element operators (ebe_operator.hpp) as solve operators (solver.hpp's contract):
// products element by element in place of the CSR matrix, the diagonal summed element by element.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/core/types.hpp"
#include "kfem/solve/ebe_operator.hpp"
#include "kfem/solve/solver.hpp"

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

// An EbeOperator (its Dirichlet conditions applied first) seen through the solve contract. Products
// run on Exec's default instance, where the solvers' Kokkos Kernels calls run too; vectors are typed
// on Device<Exec, Mem>, as the CSR operator's, so Kokkos Kernels launches on Exec.
template <class Exec, class S>
class EbeSolveOperator {
 public:
  using Vec = Kokkos::View<S*, Kokkos::Device<Exec, typename Exec::memory_space>>;
  explicit EbeSolveOperator(const EbeOperator<Exec, S>& A) : A_(A) {}
  void apply(const Vec& x, const Vec& y) const { A_.apply(Exec(), x, y); }
  void inverse_diagonal(const Exec& exec, const Vec& d) const {
    A_.diagonal(exec, d);
    Kokkos::parallel_for("kfem::ebe_cg_inverse_diagonal", Kokkos::RangePolicy<Exec>(exec, 0, A_.num_dofs()),
                         ebe_detail::Invert<Vec>{d});
  }

 private:
  const EbeOperator<Exec, S>& A_;
};

// A solve with an element-by-element operator, compiled once in ebe_cg.cpp for every enabled space
// in float and double (as solve_csr); other spaces instantiate as usual.
template <class Exec, class S>
SolveResult solve_ebe(
    const Exec& exec, const EbeOperator<Exec, S>& A,
    const solve_detail::nondeduced_t<Kokkos::View<const S*, typename Exec::memory_space>>& b,
    const Kokkos::View<S*, typename Exec::memory_space>& x, const SolverOptions& opts) {
  using Op = EbeSolveOperator<Exec, S>;
  return solve(exec, Op(A), Kokkos::View<const S*, typename Op::Vec::device_type>(b), typename Op::Vec(x),
               opts);
}

#define KFEM_EBE_SOLVE_SCALAR(EXTERN, Exec, S)                                                     \
  EXTERN template SolveResult solve_ebe<Exec, S>(                                                  \
      const Exec&, const EbeOperator<Exec, S>&, const Kokkos::View<const S*, Exec::memory_space>&, \
      const Kokkos::View<S*, Exec::memory_space>&, const SolverOptions&);
#define KFEM_EBE_SOLVE(EXTERN, Exec) \
  KFEM_EBE_SOLVE_SCALAR(EXTERN, Exec, double) KFEM_EBE_SOLVE_SCALAR(EXTERN, Exec, float)
#define KFEM_EXTERN_EBE_SOLVE(Exec) KFEM_EBE_SOLVE(extern, Exec)
KFEM_FOR_EACH_EXEC_SPACE(KFEM_EXTERN_EBE_SOLVE)
#undef KFEM_EXTERN_EBE_SOLVE
}  // namespace kfem
