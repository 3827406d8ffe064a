// Jacobi-preconditioned conjugate gradients on Kokkos Kernels (spmv + BLAS-1) for the constrained
// stiffness, stored in full or as its lower triangle (symmetric_spmv), and the tip-deflection
// read-out of the cantilever solution.
#pragma once
#include <KokkosBlas1_axpby.hpp>
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#include <Kokkos_Core.hpp>
#include <array>
#include <chrono>
#include <cmath>
#include <string>

#include "kfem/core/exec_spaces.hpp"
#include "kfem/core/types.hpp"
#include "kfem/solve/symmetric_spmv.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem {
struct CgOptions {
  double tolerance = 1e-8;  // on ||b - A x||_2 / ||b||_2
  int max_iterations = 10000;
  // The graph and values hold only the lower triangle (columns <= row, sorted, diagonal present)
  // of the symmetric matrix, applied with symmetric_spmv instead of a full Kokkos Kernels spmv.
  bool symmetric_storage = false;
  // Chronopoulos and Gear's single-reduction CG: the three scalars of a step (r.r, r.u and u.Au)
  // summed in one reduction, so a step waits for the device (and, across ranks, for one message)
  // once instead of twice, for one more vector update (A p carried as s = w + beta s). The same
  // iterates in exact arithmetic; rounding differs.
  bool single_reduction = false;
};

struct CgResult {
  int iterations = 0;
  double relative_residual = 0;  // ||r||_2 / ||b||_2 of the recurrence residual (0 when b = 0)
  double seconds = 0;            // fenced wall time of the whole solve, set-up included
  // of seconds: the iterations alone, from the first residual's sums (the host has waited for them)
  // to the last, fenced. The rest is the solve's set-up (the diagonal, the operator's tables, the
  // first residual and, single-reduction, its product), paid once however many iterations follow.
  double iterations_seconds = 0;
  bool converged = false;
  // What a caller needs to say why CG failed: ||b||_2 as computed (0 for b = 0, or when the squares
  // of its entries underflow) and the last step's p.Ap (<= 0 or NaN: the step that stopped it).
  double rhs_norm = 0;
  double curvature = 0;
};

namespace cg_detail {
// A named functor, not a KOKKOS_LAMBDA (see core/fill.hpp).
template <class Mem, class S, class Inv>
struct InverseDiagonal {
  Kokkos::View<const offset_t*, Mem> row_map;
  Kokkos::View<const ordinal_t*, Mem> cols;
  Kokkos::View<S*, Mem> values;
  Inv inv;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const {
    S d = S(0);
    for (offset_t k = row_map(r); k < row_map(r + 1); ++k)
      if (cols(k) == r) d = values(k);
    inv(r) = d != S(0) ? S(1) / d : S(1);
  }
};

// inv(r) = 1 / A(r, r); a row without a nonzero diagonal gets 1 so the preconditioner stays finite.
// The search finds the diagonal in full and in lower storage alike (where it is the row's last entry).
template <class Exec, class S, class Inv>
void inverse_diagonal(const Exec& exec, const CsrGraph<typename Exec::memory_space>& A,
                      const Kokkos::View<S*, typename Exec::memory_space>& values, const Inv& inv) {
  Kokkos::parallel_for("kfem::cg_inverse_diagonal", Kokkos::RangePolicy<Exec>(exec, 0, A.num_rows),
                       InverseDiagonal<typename Exec::memory_space, S, Inv>{A.row_map, A.cols, values, inv});
}

// K partial sums of one rank, added by one reduction kernel and made global together, so that a
// group of CG's scalars costs one wait on the device (and one message between ranks), not one each.
template <int K>
struct Partials {
  double v[K];
  KOKKOS_INLINE_FUNCTION Partials& operator+=(const Partials& o) {
    for (int k = 0; k < K; ++k) v[k] += o.v[k];
    return *this;
  }
  // Kokkos 3.4's Sum joins through volatile references (4.x through plain ones)
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile Partials& o) volatile {
    for (int k = 0; k < K; ++k) v[k] += o.v[k];
  }
};
}  // namespace cg_detail
}  // namespace kfem

template <int K>
struct Kokkos::reduction_identity<kfem::cg_detail::Partials<K>> {
  KOKKOS_FORCEINLINE_FUNCTION static kfem::cg_detail::Partials<K> sum() { return {}; }
};

namespace kfem {
namespace cg_detail {
template <int K, class Mem>
using PartialsView = Kokkos::View<Partials<K>, Mem>;

// The sums on one rank: the partials are the totals.
struct LocalReductions {
  template <int K, class Mem>
  std::array<double, K> total(const PartialsView<K, Mem>& mine) const {
    Partials<K> h;
    Kokkos::deep_copy(h, mine);
    std::array<double, K> out;
    for (int k = 0; k < K; ++k) out[k] = h.v[k];
    return out;
  }
};

// The vector work of one CG step in one pass: x += alpha p and r -= alpha Ap (when `advance`),
// z = D^-1 r, and the partial sums r.r and r.z in double.
template <class Vec, class ConstVec>
struct AdvanceAndPrecondition {
  Vec x, r, z;
  ConstVec p, Ap, inv_diag;
  typename Vec::non_const_value_type alpha;
  bool advance;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i, Partials<2>& s) const {
    auto ri = r(i);
    if (advance) {
      x(i) += alpha * p(i);
      ri -= alpha * Ap(i);
      r(i) = ri;
    }
    const auto zi = inv_diag(i) * ri;
    z(i) = zi;
    s.v[0] += double(ri) * double(ri);
    s.v[1] += double(ri) * double(zi);
  }
};

template <class ConstVec>
struct PartialDot {
  ConstVec a, b;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i, Partials<1>& s) const {
    s.v[0] += double(a(i)) * double(b(i));
  }
};

// mine = this rank's a . b, left on the device (no wait), on Exec's default instance.
template <class Exec, class V, class W, class Mem>
void partial_dot(const V& a, const W& b, const PartialsView<1, Mem>& mine) {
  using ConstVec = Kokkos::View<const typename V::non_const_value_type*, typename V::device_type>;
  Kokkos::parallel_reduce("kfem::cg_dot", Kokkos::RangePolicy<Exec>(0, a.extent(0)),
                          PartialDot<ConstVec>{a, b}, Kokkos::Sum<Partials<1>, Mem>(mine));
}

template <class Vec>
Vec uninitialized(const std::string& label, std::size_t n) {
  return Vec(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n);
}

// A recurrence's result once its last kernels are done: the iterations' fenced time (from `loop`,
// after the first residual's sums) and the residual's norm relative to ||b||.
template <class Exec>
CgResult finished(const Exec& exec, CgResult res, std::chrono::steady_clock::time_point loop, double bnorm,
                  double rnorm) {
  Exec().fence();
  exec.fence();
  res.iterations_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - loop).count();
  res.relative_residual = bnorm > 0 ? rnorm / bnorm : 0.0;
  res.rhs_norm = bnorm;
  return res;
}

// The classic Jacobi-CG recurrence (iterate's below). Two waits per iteration: p.Ap, and r.r with
// r.z (fused with the x, r and z updates). The operator reads p.
template <class Exec, class Vec, class ConstVec, class Apply, class Reduce>
CgResult iterate_classic(const Exec& exec, const Apply& apply, const Vec& inv_diag, const ConstVec& b,
                         const Vec& x, const CgOptions& opts, const Reduce& reduce, Vec p) {
  using S = typename Vec::non_const_value_type;
  using Mem = typename Vec::memory_space;
  using In = Kokkos::View<const S*, typename Vec::device_type>;
  const auto n = x.extent(0);
  const auto vec = [n](const std::string& label) { return uninitialized<Vec>(label, n); };
  const Vec r = vec("kfem::cg_r"), z = vec("kfem::cg_z"), Ap = vec("kfem::cg_Ap");
  if (p.extent(0) != n) p = vec("kfem::cg_p");
  Kokkos::deep_copy(exec, p, S(0));  // the first update p = z + 0 p reads it
  Kokkos::deep_copy(exec, x, S(0));
  Kokkos::deep_copy(exec, r, b);
  exec.fence();  // the calls below run on Exec's default instance, not necessarily on exec

  const PartialsView<2, Mem> rr_rz("kfem::cg_rr_rz");
  const PartialsView<1, Mem> pAp_part("kfem::cg_pAp");
  const auto advance = [&](S alpha, bool step) {
    Kokkos::parallel_reduce("kfem::cg_advance", Kokkos::RangePolicy<Exec>(0, n),
                            AdvanceAndPrecondition<Vec, In>{x, r, z, p, Ap, inv_diag, alpha, step},
                            Kokkos::Sum<Partials<2>, Mem>(rr_rz));
    return reduce.total(rr_rz);
  };
  CgResult res;
  auto sums = advance(S(0), false);  // r = b: z = D^-1 b, ||b||^2 and b.z
  const auto loop = std::chrono::steady_clock::now();
  const double bnorm = std::sqrt(sums[0]);
  double rnorm = bnorm, rz = sums[1], rz_before = 1;
  for (;;) {
    res.converged = rnorm <= opts.tolerance * bnorm;
    if (res.converged || res.iterations >= opts.max_iterations) break;
    KokkosBlas::axpby(S(1), z, S(res.iterations == 0 ? 0.0 : rz / rz_before), p);  // p = z + beta p
    apply(p, Ap);
    partial_dot<Exec>(p, Ap, pAp_part);
    const double pAp = reduce.total(pAp_part)[0];
    res.curvature = pAp;
    if (!(pAp > 0)) break;  // not SPD along p (or NaN): report failure rather than divide by it
    sums = advance(S(rz / pAp), true);
    rz_before = rz;
    rz = sums[1];
    rnorm = std::sqrt(sums[0]);
    ++res.iterations;
  }
  return finished(exec, res, loop, bnorm, rnorm);
}
// One single-reduction step's vector work in one pass: p = u + beta p, s = w + beta s (s = A p,
// carried), x += alpha p, r -= alpha s, u = D^-1 r. The first step takes p = u and s = w (p and s
// may hold anything before it).
template <class Vec, class ConstVec>
struct SingleReductionStep {
  Vec x, r, u, p, s;
  ConstVec w, inv_diag;
  typename Vec::non_const_value_type alpha, beta;
  bool first;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i) const {
    const auto pi = first ? u(i) : u(i) + beta * p(i);
    const auto si = first ? w(i) : w(i) + beta * s(i);
    p(i) = pi;
    s(i) = si;
    x(i) += alpha * pi;
    const auto ri = r(i) - alpha * si;
    r(i) = ri;
    u(i) = inv_diag(i) * ri;
  }
};

template <class Vec, class ConstVec>
struct Precondition {  // u = D^-1 r
  Vec u;
  ConstVec r, inv_diag;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i) const { u(i) = inv_diag(i) * r(i); }
};

// r.r, r.u and w.u (w = A u) in double: all of a single-reduction step's scalars.
template <class ConstVec>
struct SingleReductionDots {
  ConstVec r, u, w;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i, Partials<3>& s) const {
    const double ri = r(i), ui = u(i);
    s.v[0] += ri * ri;
    s.v[1] += ri * ui;
    s.v[2] += double(w(i)) * ui;
  }
};

// Chronopoulos and Gear's recurrence (CgOptions::single_reduction). One wait per iteration: the
// step's vector work, w = A u, then r.r, r.u and u.Au together. p.Ap, which the classic recurrence
// sums, follows from them: p.Ap = u.Au - beta r.u / alpha_before. The operator reads u.
template <class Exec, class Vec, class ConstVec, class Apply, class Reduce>
CgResult iterate_single_reduction(const Exec& exec, const Apply& apply, const Vec& inv_diag,
                                  const ConstVec& b, const Vec& x, const CgOptions& opts,
                                  const Reduce& reduce, Vec u) {
  using S = typename Vec::non_const_value_type;
  using Mem = typename Vec::memory_space;
  using In = Kokkos::View<const S*, typename Vec::device_type>;
  const auto n = x.extent(0);
  const auto vec = [n](const std::string& label) { return uninitialized<Vec>(label, n); };
  const Vec r = vec("kfem::cg_r"), w = vec("kfem::cg_w"), p = vec("kfem::cg_p"), s = vec("kfem::cg_s");
  if (u.extent(0) != n) u = vec("kfem::cg_u");
  Kokkos::deep_copy(exec, x, S(0));
  Kokkos::deep_copy(exec, r, b);
  exec.fence();  // the calls below run on Exec's default instance, not necessarily on exec

  Kokkos::parallel_for("kfem::cg_precondition", Kokkos::RangePolicy<Exec>(0, n),
                       Precondition<Vec, In>{u, r, inv_diag});
  const PartialsView<3, Mem> part("kfem::cg_rr_ru_wu");
  const auto sums = [&] {  // w = A u, then the step's one wait
    apply(u, w);
    Kokkos::parallel_reduce("kfem::cg_dots", Kokkos::RangePolicy<Exec>(0, n),
                            SingleReductionDots<In>{r, u, w}, Kokkos::Sum<Partials<3>, Mem>(part));
    return reduce.total(part);
  };
  CgResult res;
  auto d = sums();  // r = b: ||b||^2, b.u and u.Au
  const auto loop = std::chrono::steady_clock::now();
  const double bnorm = std::sqrt(d[0]);
  double rnorm = bnorm, ru = d[1], uAu = d[2], alpha = 1, beta = 0;
  for (;;) {
    res.converged = rnorm <= opts.tolerance * bnorm;
    if (res.converged || res.iterations >= opts.max_iterations) break;
    const double pAp = res.iterations == 0 ? uAu : uAu - beta * ru / alpha;
    res.curvature = pAp;
    if (!(pAp > 0)) break;  // not SPD along p (or NaN): report failure rather than divide by it
    alpha = ru / pAp;
    Kokkos::parallel_for(
        "kfem::cg_step", Kokkos::RangePolicy<Exec>(0, n),
        SingleReductionStep<Vec, In>{x, r, u, p, s, w, inv_diag, S(alpha), S(beta), res.iterations == 0});
    d = sums();
    ++res.iterations;
    beta = d[1] / ru;
    ru = d[1];
    uAu = d[2];
    rnorm = std::sqrt(d[0]);
  }
  return finished(exec, res, loop, bnorm, rnorm);
}

// The Jacobi-CG recurrence, written once for every operator: apply(v, Av) sets Av = A v on Exec's
// default instance, where the kernels here and Kokkos Kernels' calls run too; reduce.total makes
// the partial sums global. `operand` is the storage of the vector the operator reads (p, or u with
// opts.single_reduction; n entries), for an operator that wants it inside a vector of its own (the
// distributed halo vector); given none, it is allocated.
template <class Exec, class Vec, class ConstVec, class Apply, class Reduce = LocalReductions>
CgResult iterate(const Exec& exec, const Apply& apply, const Vec& inv_diag, const ConstVec& b, const Vec& x,
                 const CgOptions& opts, const Reduce& reduce = {}, Vec operand = {}) {
  return opts.single_reduction ? iterate_single_reduction(exec, apply, inv_diag, b, x, opts, reduce, operand)
                               : iterate_classic(exec, apply, inv_diag, b, x, opts, reduce, operand);
}
}  // namespace cg_detail

// y = A x for the stiffness stored in full (Kokkos Kernels spmv) or as its lower triangle
// (symmetric_spmv). Both run on Exec's default instance: Kokkos Kernels 3.4 takes no instance.
template <class Exec, class S>
class StiffnessOperator {
 public:
  using Mem = typename Exec::memory_space;
  using Device = Kokkos::Device<Exec, Mem>;
  using Vec = Kokkos::View<S*, Device>;
  StiffnessOperator(const CsrGraph<Mem>& A, const Kokkos::View<S*, Mem>& values, bool symmetric_storage);
  void operator()(const Vec& x, const Vec& y) const;

 private:
  using Matrix = KokkosSparse::CrsMatrix<S, ordinal_t, Device, void, offset_t>;
  CsrGraph<Mem> A_;
  Kokkos::View<S*, Mem> values_;
  bool symmetric_storage_;
  Matrix mat_;
};

template <class Exec, class S>
StiffnessOperator<Exec, S> stiffness_operator(const CsrGraph<typename Exec::memory_space>& A,
                                              const Kokkos::View<S*, typename Exec::memory_space>& values,
                                              bool symmetric_storage) {
  return {A, values, symmetric_storage};
}

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

// Solves A x = b (A symmetric positive definite on the given pattern) from x = 0, stopping when
// ||r||_2 <= tolerance ||b||_2, after max_iterations, or on a non-positive curvature p.Ap (then
// converged = false). x must have num_rows entries; A, values, b are only read. With
// opts.symmetric_storage, A and values are the lower triangle (see CgOptions).
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

// Compiled once, in cg.cpp, for every enabled space in float and double: Kokkos Kernels' spmv and
// BLAS-1 are the heaviest templates a caller would otherwise instantiate again. Other spaces (the
// host reference solve runs on Serial even where KFEM_BACKENDS leaves it out) instantiate as usual.
// KFEM_CG(EXTERN, Exec): the declarations (EXTERN = extern) or definitions of both scalars.
#define KFEM_CG_SCALAR(EXTERN, Exec, S)                                                               \
  EXTERN template class StiffnessOperator<Exec, S>;                                                   \
  EXTERN template CgResult conjugate_gradient<Exec, S>(                                               \
      const Exec&, const CsrGraph<Exec::memory_space>&, const Kokkos::View<S*, Exec::memory_space>&,  \
      const Kokkos::View<const S*, Exec::memory_space>&, const Kokkos::View<S*, Exec::memory_space>&, \
      const CgOptions&);
#define KFEM_CG(EXTERN, Exec) KFEM_CG_SCALAR(EXTERN, Exec, double) KFEM_CG_SCALAR(EXTERN, Exec, float)
#define KFEM_EXTERN_CG(Exec) KFEM_CG(extern, Exec)
KFEM_FOR_EACH_EXEC_SPACE(KFEM_EXTERN_CG)
#undef KFEM_EXTERN_CG

namespace cg_detail {
// A named functor, not a KOKKOS_LAMBDA: several tests instantiate it (scripts/check-kernel-lambdas).
template <class U, class Nodes>
struct TipSum {
  U u;
  Nodes tip_nodes;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i, double& s) const {
    s += double(u(dofs_per_node * tip_nodes(i) + 2));
  }
};
}  // namespace cg_detail

// Mean u_z over the tip nodes, signed: negative for the cantilever, whose load points in -z.
// S may be const-qualified, so both View<double*> and View<const double*> are accepted.
template <class Exec, class S>
double tip_deflection(const Exec& exec, const Kokkos::View<S*, typename Exec::memory_space>& u,
                      const Kokkos::View<const ordinal_t*, typename Exec::memory_space>& tip_nodes) {
  const std::size_t count = tip_nodes.extent(0);
  if (count == 0) return 0.0;
  double sum = 0;
  using Mem = typename Exec::memory_space;
  Kokkos::parallel_reduce(
      "kfem::tip_deflection", Kokkos::RangePolicy<Exec>(exec, 0, count),
      cg_detail::TipSum<Kokkos::View<S*, Mem>, Kokkos::View<const ordinal_t*, Mem>>{u, tip_nodes}, sum);
  return sum / double(count);
}
}  // namespace kfem
