// Solver `amg` (solver.method: amg, --solver amg): conjugate gradients preconditioned by algebraic
// multigrid, hypre's PCG with one BoomerAMG V-cycle as its preconditioner, on the assembled matrix.
// Elasticity runs systems AMG: C functions per node (SolverOptions::block, the DOFs C n + c of node n,
// kfem's interleaved numbering), so coarsening and interpolation keep a node's displacements apart.
//
// What it takes from the operator (solver.hpp's contract, an optional hook):
//   HostCsr<double> host_matrix() const   every entry of A (a lower storage mirrored), on the host
// Operators without it (the element-by-element ones) are refused in one line. This is the host path:
// the matrix and the vectors travel to the host, hypre (Debian's, CPU, MPI) solves there on one rank
// (MPI_COMM_SELF; MPI is started for it where the process has not), and x travels back. The times
// say so: the result's set-up (seconds - iterations_seconds) holds the copies, hypre's IJ assembly
// and the AMG set-up; its iterations, hypre's PCG solve.
#pragma once
#include <Kokkos_Core.hpp>
#include <chrono>
#include <type_traits>
#include <utility>
#include <vector>

#include "kfem/core/error.hpp"
#include "kfem/solve/amg_host.hpp"
#include "kfem/solve/solve_types.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem {
namespace amg_detail {
template <class Op, class = void>
struct has_host_matrix : std::false_type {};
template <class Op>
struct has_host_matrix<Op, std::void_t<decltype(std::declval<const Op&>().host_matrix())>> : std::true_type {
};
}  // namespace amg_detail

namespace solver {
struct Amg {
  static constexpr const char* name = "amg";
  static constexpr const char* help =
      "hypre's CG preconditioned by BoomerAMG (systems AMG, a node's DOFs as its functions) on the assembled "
      "matrix, on the host";
  template <class Exec, class Op, class ConstVec>
  static SolveResult solve(const Exec& exec, const Op& A, const ConstVec& b, const typename Op::Vec& x,
                           const SolverOptions& opts) {
    if constexpr (!amg_detail::has_host_matrix<Op>::value) {
      (void)exec, (void)A, (void)b, (void)x, (void)opts;
      throw InputError("solver amg needs an assembled matrix (storage csr, csr-lower, bsr or bsr-lower)");
    } else {
      if (opts.preconditioner != Preconditioner::jacobi)
        throw InputError("solver amg is its own preconditioner: solver.preconditioner " +
                         std::string(name_of(opts.preconditioner)) + " does not apply");
      const auto t0 = std::chrono::steady_clock::now();
      exec.fence();
      const HostCsr<double> M = A.host_matrix();
      const auto bh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
      std::vector<double> rhs(bh.extent(0)), u;
      for (std::size_t i = 0; i < rhs.size(); ++i) rhs[i] = double(bh(i));
      SolveResult r = amg_detail::solve_on_host(M, rhs, u, opts);
      const auto xh = Kokkos::create_mirror_view(x);
      using S = typename Op::Vec::non_const_value_type;
      for (std::size_t i = 0; i < u.size(); ++i) xh(i) = S(u[i]);
      Kokkos::deep_copy(exec, x, xh);
      exec.fence();
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return r;
    }
  }
};
}  // namespace solver
}  // namespace kfem
