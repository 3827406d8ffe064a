// The solver axis' one options type and one result type (the axis itself: solver.hpp).
#pragma once

namespace kfem {
// A solver of SolverRegistry, by its position there; made from a name by solver_named (solver.hpp).
struct SolverId {
  int index = 0;  // 0: the registry's first solver, cg
  friend constexpr bool operator==(SolverId a, SolverId b) { return a.index == b.index; }
  friend constexpr bool operator!=(SolverId a, SolverId b) { return a.index != b.index; }
};

// The preconditioner of the CG solvers (solver.preconditioner / --preconditioner): the diagonal
// (jacobi), or each node's C x C diagonal block inverted (block-jacobi, solve/block_jacobi.hpp).
enum class Preconditioner { jacobi, block_jacobi };
inline constexpr const char* name_of(Preconditioner p) {
  return p == Preconditioner::jacobi ? "jacobi" : "block-jacobi";
}

// What every solver reads: which one, how it preconditions, and when it stops.
struct SolverOptions {
  SolverId method{};        // solver.method / --solver
  double tolerance = 1e-8;  // on ||b - A x||_2 / ||b||_2
  int max_iterations = 10000;
  Preconditioner preconditioner = Preconditioner::jacobi;
  int block = 1;  // DOFs per node (rows C n .. C n + C - 1): block Jacobi's block size
};

// What every solver returns.
struct SolveResult {
  const char* method = "";  // the solver's name
  int iterations = 0;
  double relative_residual = 0;  // ||r||_2 / ||b||_2 of the recurrence residual (0 when b = 0)
  bool converged = false;
  // Fenced wall times: `seconds` the whole solve (the time to solution), `iterations_seconds` its
  // iterations alone, from the first residual's sums (the host has waited for them) to the last. The
  // rest is the set-up (the preconditioner and the first residual), paid once
  // however many iterations follow.
  double seconds = 0;
  double iterations_seconds = 0;
  double setup_seconds() const { return seconds - iterations_seconds; }
  // What a caller needs to say why a solve failed: ||b||_2 as computed (0 for b = 0, or when the
  // squares of its entries underflow) and the last step's p.Ap (<= 0 or NaN: the step that stopped it).
  double rhs_norm = 0;
  double curvature = 0;
};
}  // namespace kfem
