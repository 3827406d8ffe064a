// The CSR solver's definitions and their one instantiation per enabled space and scalar (cg.hpp).
#include "kfem/solve/cg.hpp"

namespace kfem {
template <class Exec, class S>
StiffnessOperator<Exec, S>::StiffnessOperator(const CsrGraph<Mem>& A, const Kokkos::View<S*, Mem>& values,
                                              bool symmetric_storage)
    : A_(A),
      values_(values),
      symmetric_storage_(symmetric_storage),
      mat_(symmetric_storage ? Matrix()
                             : Matrix("kfem::matrix", A.num_rows, values,
                                      typename Matrix::StaticCrsGraphType(A.cols, A.row_map))) {}

template <class Exec, class S>
void StiffnessOperator<Exec, S>::operator()(const Vec& x, const Vec& y) const {
  if (symmetric_storage_)
    symmetric_spmv(Exec(), A_, values_, x, y);
  else
    KokkosSparse::spmv("N", S(1), mat_, x, S(0), y);
}

template <class Exec, class S>
CgResult conjugate_gradient(
    const Exec& exec, const CsrGraph<typename Exec::memory_space>& A,
    const Kokkos::View<S*, typename Exec::memory_space>& values,
    const solve_detail::nondeduced_t<Kokkos::View<const S*, typename Exec::memory_space>>& b,
    const Kokkos::View<S*, typename Exec::memory_space>& x, const CgOptions& opts) {
  // Everything is typed on Device<Exec, Mem>: Kokkos Kernels 3.4 takes no execution-space instance
  // and launches on the view's execution space, which for a bare HostSpace view would be OpenMP
  // even when Exec is Serial.
  using Device = Kokkos::Device<Exec, typename Exec::memory_space>;
  using Vec = Kokkos::View<S*, Device>;
  const ordinal_t n = A.num_rows;

  exec.fence();
  const auto start = std::chrono::steady_clock::now();
  const Vec inv_diag(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::cg_inv_diag"), n);
  cg_detail::inverse_diagonal(exec, A, values, inv_diag);
  const Kokkos::View<const S*, Device> bd = b;
  CgResult res = cg_detail::iterate(exec, stiffness_operator<Exec>(A, values, opts.symmetric_storage),
                                    inv_diag, bd, Vec(x), opts);
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return res;
}

#define KFEM_CG_DEFINITIONS(Exec) KFEM_CG(, Exec)
KFEM_FOR_EACH_EXEC_SPACE(KFEM_CG_DEFINITIONS)
}  // namespace kfem
