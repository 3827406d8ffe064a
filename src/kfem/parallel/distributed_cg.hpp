// Jacobi CG over ranks: the recurrence of solve/cg.hpp with every dot product and norm summed over
// the ranks (MPI_Allreduce) and y = A x on the owned rows after a halo exchange of x's ghost
// entries. The matrix is the owned-row prefix of a rank's local CSR, its columns local (owned, then
// ghosts): rectangular, n_owned x n_local.
#pragma once
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cmath>

#include "kfem/parallel/comm.hpp"
#include "kfem/parallel/halo.hpp"
#include "kfem/solve/cg.hpp"

namespace kfem::parallel {
struct SummedReductions {
  Comm comm;
  template <class V, class W>
  double dot(const V& a, const W& b) const {
    return comm.sum(double(KokkosBlas::dot(a, b)));
  }
  template <class V>
  double nrm2(const V& a) const {
    return std::sqrt(dot(a, a));
  }
};

struct DistributedCgResult {
  CgResult cg;
  double halo_s = 0;  // of cg.seconds: the exchanges (pack, copies, messages)
};

// A: owned rows (A.num_rows = owned DOFs) over `num_cols` local columns; b and x: owned entries.
template <class Exec, class S>
DistributedCgResult distributed_conjugate_gradient(
    const Exec& exec, const Comm& comm, const Halo<Exec, S>& halo,
    const CsrGraph<typename Exec::memory_space>& A, ordinal_t num_cols,
    const Kokkos::View<S*, typename Exec::memory_space>& values,
    const Kokkos::View<const S*, typename Exec::memory_space>& b,
    const Kokkos::View<S*, typename Exec::memory_space>& x, const CgOptions& opts) {
  using Device = Kokkos::Device<Exec, typename Exec::memory_space>;
  using Vec = Kokkos::View<S*, Device>;
  using Matrix = KokkosSparse::CrsMatrix<S, ordinal_t, Device, void, offset_t>;
  const ordinal_t n = A.num_rows;
  exec.fence();
  comm.barrier();
  const auto start = std::chrono::steady_clock::now();
  const Vec inv_diag(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::cg_inv_diag"), n);
  cg_detail::inverse_diagonal(exec, A, values, inv_diag);
  const Matrix mat("kfem::owned_rows", num_cols, values,
                   typename Matrix::StaticCrsGraphType(A.cols, A.row_map));
  const Vec p_ext("kfem::cg_p_local", num_cols);  // owned entries, then ghosts
  const auto owned = Kokkos::make_pair(std::size_t(0), std::size_t(n));
  DistributedCgResult out;
  const auto apply = [&](const Vec& p, const Vec& Ap) {
    Kokkos::deep_copy(Kokkos::subview(p_ext, owned), p);
    const auto h0 = std::chrono::steady_clock::now();
    halo(p_ext);
    out.halo_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - h0).count();
    KokkosSparse::spmv("N", S(1), mat, p_ext, S(0), Ap);
  };
  out.cg = cg_detail::iterate(exec, apply, inv_diag, Kokkos::View<const S*, Device>(b), Vec(x), opts,
                              SummedReductions{comm});
  out.cg.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}
}  // namespace kfem::parallel
