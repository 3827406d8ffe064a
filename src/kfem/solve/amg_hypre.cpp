// Solver amg's host solve through hypre (amg_host.hpp). The only file that includes hypre's headers; a
// build without hypre (KFEM_HAVE_HYPRE unset: not found, or no MPI) compiles the refusal below.
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "kfem/core/error.hpp"
#include "kfem/solve/amg_host.hpp"

#if KFEM_HAVE_HYPRE
#include <HYPRE.h>
#include <HYPRE_IJ_mv.h>
#include <HYPRE_krylov.h>
#include <HYPRE_parcsr_ls.h>
#include <mpi.h>

#include <chrono>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif
#endif

namespace kfem::amg_detail {
#if KFEM_HAVE_HYPRE
namespace {
void check(HYPRE_Int rc, const char* what) {
  if (rc == 0) return;
  char text[256] = {};
  HYPRE_DescribeError(rc, text);
  HYPRE_ClearAllErrors();
  throw std::runtime_error(std::string("hypre ") + what + ": " + text);
}

// Open MPI's start and end keep allocations they never free (its components' state). Under
// LeakSanitizer (the debug test preset) they are not kfem's leaks: not tracked while in scope.
struct NotLeaks {
#if defined(__SANITIZE_ADDRESS__)
  NotLeaks() {
    __lsan_disable();
  }
  ~NotLeaks() {
    __lsan_enable();
  }
#else
  NotLeaks() {}
  ~NotLeaks() {}  // user-provided: a scope guard, not an unused variable
#endif
};

// hypre (Debian's is built with MPI) needs MPI started. A plain kfem run never starts it
// (parallel/comm.cpp): then this does, once, and finalises it at exit.
void start_mpi_and_hypre() {
  static const bool started = [] {
    const NotLeaks quiet;
    int init = 0;
    MPI_Initialized(&init);
    if (!init) {
      int provided = 0;
      if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        throw std::runtime_error("solver amg: MPI_Init_thread failed");
      std::atexit([] {
        int fin = 0;
        MPI_Finalized(&fin);
        if (fin) return;
        const NotLeaks quiet_end;
        MPI_Finalize();
      });
    }
    check(HYPRE_Init(), "HYPRE_Init");
    return true;
  }();
  (void)started;
}

// hypre's objects, destroyed however the solve ends.
struct Objects {
  HYPRE_IJMatrix A = nullptr;
  HYPRE_IJVector b = nullptr, x = nullptr;
  HYPRE_Solver pcg = nullptr, amg = nullptr;
  ~Objects() {
    if (amg) HYPRE_BoomerAMGDestroy(amg);
    if (pcg) HYPRE_ParCSRPCGDestroy(pcg);
    if (x) HYPRE_IJVectorDestroy(x);
    if (b) HYPRE_IJVectorDestroy(b);
    if (A) HYPRE_IJMatrixDestroy(A);
  }
};

HYPRE_IJVector make_vector(MPI_Comm comm, HYPRE_BigInt n, const std::vector<HYPRE_BigInt>& rows,
                           const double* values) {
  HYPRE_IJVector v = nullptr;
  check(HYPRE_IJVectorCreate(comm, 0, n - 1, &v), "IJVectorCreate");
  check(HYPRE_IJVectorSetObjectType(v, HYPRE_PARCSR), "IJVectorSetObjectType");
  check(HYPRE_IJVectorInitialize(v), "IJVectorInitialize");
  check(HYPRE_IJVectorSetValues(v, HYPRE_Int(n), rows.data(), values), "IJVectorSetValues");
  check(HYPRE_IJVectorAssemble(v), "IJVectorAssemble");
  return v;
}
}  // namespace

bool available() {
  return true;
}

SolveResult solve_on_host(const HostCsr<double>& A, const std::vector<double>& b, std::vector<double>& x,
                          const SolverOptions& opts) {
  using clock = std::chrono::steady_clock;
  start_mpi_and_hypre();
  const MPI_Comm comm = MPI_COMM_SELF;
  const HYPRE_BigInt n = A.num_rows;
  SolveResult r;
  double bb = 0;
  for (const double v : b) bb += v * v;
  r.rhs_norm = std::sqrt(bb);
  x.assign(std::size_t(n), 0.0);
  if (n == 0 || bb == 0) {
    r.converged = true;
    return r;
  }

  Objects o;
  std::vector<HYPRE_BigInt> rows(static_cast<std::size_t>(n));
  std::vector<HYPRE_Int> counts(static_cast<std::size_t>(n));
  for (HYPRE_BigInt i = 0; i < n; ++i) {
    rows[std::size_t(i)] = i;
    counts[std::size_t(i)] = HYPRE_Int(A.row_map[std::size_t(i) + 1] - A.row_map[std::size_t(i)]);
  }
  const std::vector<HYPRE_BigInt> cols(A.cols.begin(), A.cols.end());
  check(HYPRE_IJMatrixCreate(comm, 0, n - 1, 0, n - 1, &o.A), "IJMatrixCreate");
  check(HYPRE_IJMatrixSetObjectType(o.A, HYPRE_PARCSR), "IJMatrixSetObjectType");
  check(HYPRE_IJMatrixSetRowSizes(o.A, counts.data()), "IJMatrixSetRowSizes");
  check(HYPRE_IJMatrixInitialize(o.A), "IJMatrixInitialize");
  check(HYPRE_IJMatrixSetValues(o.A, HYPRE_Int(n), counts.data(), rows.data(), cols.data(), A.vals.data()),
        "IJMatrixSetValues");
  check(HYPRE_IJMatrixAssemble(o.A), "IJMatrixAssemble");
  HYPRE_ParCSRMatrix par_A = nullptr;
  check(HYPRE_IJMatrixGetObject(o.A, reinterpret_cast<void**>(&par_A)), "IJMatrixGetObject");
  o.b = make_vector(comm, n, rows, b.data());
  o.x = make_vector(comm, n, rows, x.data());
  HYPRE_ParVector par_b = nullptr, par_x = nullptr;
  check(HYPRE_IJVectorGetObject(o.b, reinterpret_cast<void**>(&par_b)), "IJVectorGetObject");
  check(HYPRE_IJVectorGetObject(o.x, reinterpret_cast<void**>(&par_x)), "IJVectorGetObject");

  // CG on ||r||_2 / ||b||_2, kfem's stopping rule.
  check(HYPRE_ParCSRPCGCreate(comm, &o.pcg), "ParCSRPCGCreate");
  check(HYPRE_PCGSetTol(o.pcg, opts.tolerance), "PCGSetTol");
  check(HYPRE_PCGSetMaxIter(o.pcg, opts.max_iterations), "PCGSetMaxIter");
  check(HYPRE_PCGSetTwoNorm(o.pcg, 1), "PCGSetTwoNorm");
  check(HYPRE_PCGSetLogging(o.pcg, 1), "PCGSetLogging");
  // One V-cycle per CG step. HMIS coarsening with extended+i interpolation (at most 4 entries a row)
  // and aggressive coarsening on the first level keep the 3D operators' complexity low; hybrid
  // symmetric Gauss-Seidel (l1) keeps the cycle symmetric, as CG needs; strength 0.5, hypre's advice
  // for 3D problems; C functions per node (systems AMG, the unknown approach).
  check(HYPRE_BoomerAMGCreate(&o.amg), "BoomerAMGCreate");
  check(HYPRE_BoomerAMGSetTol(o.amg, 0.0), "BoomerAMGSetTol");
  check(HYPRE_BoomerAMGSetMaxIter(o.amg, 1), "BoomerAMGSetMaxIter");
  check(HYPRE_BoomerAMGSetCoarsenType(o.amg, 10), "BoomerAMGSetCoarsenType");
  check(HYPRE_BoomerAMGSetInterpType(o.amg, 6), "BoomerAMGSetInterpType");
  check(HYPRE_BoomerAMGSetPMaxElmts(o.amg, 4), "BoomerAMGSetPMaxElmts");
  check(HYPRE_BoomerAMGSetAggNumLevels(o.amg, 1), "BoomerAMGSetAggNumLevels");
  check(HYPRE_BoomerAMGSetRelaxType(o.amg, 8), "BoomerAMGSetRelaxType");
  check(HYPRE_BoomerAMGSetStrongThreshold(o.amg, 0.5), "BoomerAMGSetStrongThreshold");
  check(HYPRE_BoomerAMGSetNumFunctions(o.amg, opts.block > 0 ? opts.block : 1), "BoomerAMGSetNumFunctions");
  check(HYPRE_PCGSetPrecond(o.pcg, reinterpret_cast<HYPRE_PtrToSolverFcn>(HYPRE_BoomerAMGSolve),
                            reinterpret_cast<HYPRE_PtrToSolverFcn>(HYPRE_BoomerAMGSetup), o.amg),
        "PCGSetPrecond");
  check(HYPRE_ParCSRPCGSetup(o.pcg, par_A, par_b, par_x), "ParCSRPCGSetup");
  const auto t0 = clock::now();
  const HYPRE_Int rc = HYPRE_ParCSRPCGSolve(o.pcg, par_A, par_b, par_x);
  r.iterations_seconds = std::chrono::duration<double>(clock::now() - t0).count();
  if (rc != 0 && !HYPRE_CheckError(rc, HYPRE_ERROR_CONV)) check(rc, "ParCSRPCGSolve");
  HYPRE_ClearAllErrors();  // not converged: told by the residual below, as for kfem's CG
  HYPRE_Int its = 0;
  double res = 0;
  check(HYPRE_PCGGetNumIterations(o.pcg, &its), "PCGGetNumIterations");
  check(HYPRE_PCGGetFinalRelativeResidualNorm(o.pcg, &res), "PCGGetFinalRelativeResidualNorm");
  r.iterations = int(its);
  r.relative_residual = res;
  r.converged = res <= opts.tolerance;
  check(HYPRE_IJVectorGetValues(o.x, HYPRE_Int(n), rows.data(), x.data()), "IJVectorGetValues");
  return r;
}
#else
bool available() {
  return false;
}
SolveResult solve_on_host(const HostCsr<double>&, const std::vector<double>&, std::vector<double>&,
                          const SolverOptions&) {
  throw InputError("solver amg: this kfem was built without hypre (Debian: libhypre-dev; then reconfigure)");
}
#endif
}  // namespace kfem::amg_detail
