// The conjugate-gradient solvers of the solver axis (solver.hpp), two recurrences of preconditioned
// CG written once for every operator: cg (classic, two waits a step) and cg-single-reduction
// (Chronopoulos and Gear, one). The preconditioner (SolverOptions::preconditioner) is Jacobi's
// diagonal or, where the operator has one, block Jacobi's (block_jacobi.hpp): the vector kernels
// take a node's C rows together, C = 1 for Jacobi. Also the operator of CSR storage, full or its
// lower triangle (symmetric_spmv).
#pragma once
#include <KokkosBlas1_axpby.hpp>
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#include <Kokkos_Core.hpp>
#include <array>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "kfem/core/error.hpp"
#include "kfem/core/exec_spaces.hpp"
#include "kfem/core/types.hpp"
#include "kfem/solve/block_jacobi.hpp"
#include "kfem/solve/solve_types.hpp"
#include "kfem/solve/symmetric_spmv.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem {
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

// z = M^-1 r for the C rows of node n, given those rows of r: M^-1 is Jacobi's 1 / A(i, i) for
// C = 1, else the node's inverted C x C diagonal block (block_jacobi.hpp's layout).
template <int C, class ConstVec, class S>
KOKKOS_INLINE_FUNCTION S preconditioned(const ConstVec& inv, std::size_t n, int c, const S (&r)[C]) {
  if constexpr (C == 1) {
    return inv(n) * r[0];
  } else {
    S z = S(0);
    for (int d = 0; d < C; ++d) z += inv(C * C * n + C * c + d) * r[d];
    return z;
  }
}

// The vector work of one CG step in one pass, node n's C rows: x += alpha p and r -= alpha Ap
// (when `advance`), z = M^-1 r, and the partial sums r.r and r.z in double.
template <int C, class Vec, class ConstVec>
struct AdvanceAndPrecondition {
  using S = typename Vec::non_const_value_type;
  Vec x, r, z;
  ConstVec p, Ap, inv;
  S alpha;
  bool advance;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t n, Partials<2>& s) const {
    S rn[C];
    for (int c = 0; c < C; ++c) {
      const std::size_t i = C * n + c;
      auto ri = r(i);
      if (advance) {
        x(i) += alpha * p(i);
        ri -= alpha * Ap(i);
        r(i) = ri;
      }
      rn[c] = ri;
      s.v[0] += double(ri) * double(ri);
    }
    for (int c = 0; c < C; ++c) {
      const S zi = preconditioned<C>(inv, n, c, rn);
      z(C * n + c) = zi;
      s.v[1] += double(rn[c]) * double(zi);
    }
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
SolveResult finished(const Exec& exec, SolveResult res, std::chrono::steady_clock::time_point loop,
                     double bnorm, double rnorm) {
  Exec().fence();
  exec.fence();
  res.iterations_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - loop).count();
  res.relative_residual = bnorm > 0 ? rnorm / bnorm : 0.0;
  res.rhs_norm = bnorm;
  return res;
}

// The classic Jacobi-CG recurrence (iterate's below). Two waits per iteration: p.Ap, and r.r with
// r.z (fused with the x, r and z updates). The operator reads p.
template <int C, class Exec, class Vec, class ConstVec, class Apply, class Reduce>
SolveResult iterate_classic(const Exec& exec, const Apply& apply, const Vec& inv, const ConstVec& b,
                            const Vec& x, const SolverOptions& opts, const Reduce& reduce, Vec p) {
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
    Kokkos::parallel_reduce("kfem::cg_advance", Kokkos::RangePolicy<Exec>(0, n / C),
                            AdvanceAndPrecondition<C, Vec, In>{x, r, z, p, Ap, inv, alpha, step},
                            Kokkos::Sum<Partials<2>, Mem>(rr_rz));
    return reduce.total(rr_rz);
  };
  SolveResult res;
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
// One single-reduction step's vector work in one pass, node n's C rows: p = u + beta p,
// s = w + beta s (s = A p, carried), x += alpha p, r -= alpha s, u = M^-1 r. The first step takes
// p = u and s = w (p and s may hold anything before it).
template <int C, class Vec, class ConstVec>
struct SingleReductionStep {
  using S = typename Vec::non_const_value_type;
  Vec x, r, u, p, s;
  ConstVec w, inv;
  S alpha, beta;
  bool first;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t n) const {
    S rn[C];
    for (int c = 0; c < C; ++c) {
      const std::size_t i = C * n + c;
      const auto pi = first ? u(i) : u(i) + beta * p(i);
      const auto si = first ? w(i) : w(i) + beta * s(i);
      p(i) = pi;
      s(i) = si;
      x(i) += alpha * pi;
      rn[c] = r(i) - alpha * si;
      r(i) = rn[c];
    }
    for (int c = 0; c < C; ++c) u(C * n + c) = preconditioned<C>(inv, n, c, rn);
  }
};

template <int C, class Vec, class ConstVec>
struct Precondition {  // u = M^-1 r, node n's C rows
  using S = typename Vec::non_const_value_type;
  Vec u;
  ConstVec r, inv;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t n) const {
    S rn[C];
    for (int c = 0; c < C; ++c) rn[c] = r(C * n + c);
    for (int c = 0; c < C; ++c) u(C * n + c) = preconditioned<C>(inv, n, c, rn);
  }
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

// Chronopoulos and Gear's recurrence (solver::CgSingleReduction). One wait per iteration: the
// step's vector work, w = A u, then r.r, r.u and u.Au together. p.Ap, which the classic recurrence
// sums, follows from them: p.Ap = u.Au - beta r.u / alpha_before. The operator reads u.
template <int C, class Exec, class Vec, class ConstVec, class Apply, class Reduce>
SolveResult iterate_single_reduction(const Exec& exec, const Apply& apply, const Vec& inv, const ConstVec& b,
                                     const Vec& x, const SolverOptions& opts, const Reduce& reduce, Vec u) {
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

  Kokkos::parallel_for("kfem::cg_precondition", Kokkos::RangePolicy<Exec>(0, n / C),
                       Precondition<C, Vec, In>{u, r, inv});
  const PartialsView<3, Mem> part("kfem::cg_rr_ru_wu");
  const auto sums = [&] {  // w = A u, then the step's one wait
    apply(u, w);
    Kokkos::parallel_reduce("kfem::cg_dots", Kokkos::RangePolicy<Exec>(0, n),
                            SingleReductionDots<In>{r, u, w}, Kokkos::Sum<Partials<3>, Mem>(part));
    return reduce.total(part);
  };
  SolveResult res;
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
        "kfem::cg_step", Kokkos::RangePolicy<Exec>(0, n / C),
        SingleReductionStep<C, Vec, In>{x, r, u, p, s, w, inv, S(alpha), S(beta), res.iterations == 0});
    d = sums();
    ++res.iterations;
    beta = d[1] / ru;
    ru = d[1];
    uAu = d[2];
    rnorm = std::sqrt(d[0]);
  }
  return finished(exec, res, loop, bnorm, rnorm);
}

// The operator contract's optional hooks (solver.hpp), with their defaults: the partial sums made
// global by reduce() (default: this rank's are the totals), and operand(), the storage of the vector
// the operator reads (p, or u in the single-reduction recurrence; default: allocated here) for an
// operator that wants it inside a vector of its own (the distributed halo vector).
template <class Op, class = void>
struct has_reduce : std::false_type {};
template <class Op>
struct has_reduce<Op, std::void_t<decltype(std::declval<const Op&>().reduce())>> : std::true_type {};
template <class Op, class = void>
struct has_operand : std::false_type {};
template <class Op>
struct has_operand<Op, std::void_t<decltype(std::declval<const Op&>().operand())>> : std::true_type {};
// inverse_block_diagonal(exec, C, d): block Jacobi's M^-1 (block_jacobi.hpp's layout); no default:
// an operator without it (element by element, distributed) refuses block-jacobi.
template <class Op, class Exec, class = void>
struct has_inverse_block_diagonal : std::false_type {};
template <class Op, class Exec>
struct has_inverse_block_diagonal<
    Op, Exec,
    std::void_t<decltype(std::declval<const Op&>().inverse_block_diagonal(
        std::declval<const Exec&>(), 3, std::declval<const typename Op::Vec&>()))>> : std::true_type {};

// A solve of A x = b with one of the recurrences, timed from the preconditioner's set-up on.
template <bool SingleReduction, class Exec, class Op>
SolveResult run(
    const Exec& exec, const Op& A,
    const Kokkos::View<const typename Op::Vec::non_const_value_type*, typename Op::Vec::device_type>& b,
    const typename Op::Vec& x, const SolverOptions& opts) {
  using Vec = typename Op::Vec;
  const std::size_t n = x.extent(0);
  const int C = opts.preconditioner == Preconditioner::block_jacobi ? opts.block : 1;
  if (C != 1 && C != block_jacobi::most_components)
    throw InputError("solver.preconditioner block-jacobi: blocks of 1 or " +
                     std::to_string(block_jacobi::most_components) + " DOFs per node, not " +
                     std::to_string(C));
  if (C != 1 && n % C != 0)
    throw InputError("solver.preconditioner block-jacobi: " + std::to_string(n) + " rows are not " +
                     std::to_string(C) + " per node");
  if constexpr (!has_inverse_block_diagonal<Op, Exec>::value)
    if (C != 1)
      throw InputError(
          "solver.preconditioner block-jacobi: this storage's solve has no assembled block diagonal "
          "(element by element or distributed); use jacobi");
  exec.fence();
  const auto start = std::chrono::steady_clock::now();
  const Vec inv = uninitialized<Vec>("kfem::cg_preconditioner", n * C);
  if constexpr (has_inverse_block_diagonal<Op, Exec>::value) {
    if (C != 1) A.inverse_block_diagonal(exec, C, inv);
  }
  if (C == 1) A.inverse_diagonal(exec, inv);
  const auto apply = [&A](const Vec& v, const Vec& Av) { A.apply(v, Av); };
  const auto reduce = [&A] {
    if constexpr (has_reduce<Op>::value)
      return A.reduce();
    else
      return LocalReductions{};
  }();
  Vec operand;
  if constexpr (has_operand<Op>::value) operand = A.operand();
  const auto iterate = [&](auto block) {
    constexpr int B = decltype(block)::value;
    return SingleReduction ? iterate_single_reduction<B>(exec, apply, inv, b, x, opts, reduce, operand)
                           : iterate_classic<B>(exec, apply, inv, b, x, opts, reduce, operand);
  };
  SolveResult res;
  if constexpr (has_inverse_block_diagonal<Op, Exec>::value)
    res = C == 1 ? iterate(std::integral_constant<int, 1>{})
                 : iterate(std::integral_constant<int, block_jacobi::most_components>{});
  else
    res = iterate(std::integral_constant<int, 1>{});
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return res;
}
}  // namespace cg_detail

// The operator of CSR storage (solver.hpp's contract): y = A x for the matrix stored in full
// (Kokkos Kernels' spmv) or as its lower triangle (symmetric_spmv, lower = true; A and values then
// hold columns <= row, sorted, diagonal present). Both run on Exec's default instance.
template <class Exec, class S>
class CsrOperator {
 public:
  using Mem = typename Exec::memory_space;
  using Device = Kokkos::Device<Exec, Mem>;
  using Vec = Kokkos::View<S*, Device>;
  CsrOperator(const CsrGraph<Mem>& A, const Kokkos::View<S*, Mem>& values, bool lower);
  void apply(const Vec& x, const Vec& y) const;
  // d(r) = 1 / A(r, r); 1 where the diagonal is 0, so the preconditioner stays finite.
  void inverse_diagonal(const Exec& exec, const Vec& d) const {
    cg_detail::inverse_diagonal(exec, A_, values_, d);
  }
  // d = the inverted C x C diagonal blocks (block_jacobi.hpp), C = 3.
  void inverse_block_diagonal(const Exec& exec, int C, const Vec& d) const {
    if (C != block_jacobi::most_components) throw std::invalid_argument("block Jacobi: C = 3 only");
    block_jacobi::from_csr<block_jacobi::most_components>(exec, A_, values_, lower_, d);
  }
  // Every entry on the host, in double (solver amg, amg.hpp).
  HostCsr<double> host_matrix() const { return full_symmetric(to_host(A_, values_), lower_); }

 private:
  using Matrix = KokkosSparse::CrsMatrix<S, ordinal_t, Device, void, offset_t>;
  CsrGraph<Mem> A_;
  Kokkos::View<S*, Mem> values_;
  bool lower_;
  Matrix mat_;
};

template <class Exec, class S>
CsrOperator<Exec, S>::CsrOperator(const CsrGraph<Mem>& A, const Kokkos::View<S*, Mem>& values, bool lower)
    : A_(A),
      values_(values),
      lower_(lower),
      mat_(lower ? Matrix()
                 : Matrix("kfem::matrix", A.num_rows, values,
                          typename Matrix::StaticCrsGraphType(A.cols, A.row_map))) {}

template <class Exec, class S>
void CsrOperator<Exec, S>::apply(const Vec& x, const Vec& y) const {
  if (lower_)
    symmetric_spmv(Exec(), A_, values_, x, y);
  else
    KokkosSparse::spmv("N", S(1), mat_, x, S(0), y);
}

namespace solver {
// One of the two recurrences as a solver's solve (the method name is set by kfem::solve).
template <bool SingleReduction>
struct CgRecurrence {
  template <class Exec, class Op, class ConstVec>
  static SolveResult solve(const Exec& exec, const Op& A, const ConstVec& b, const typename Op::Vec& x,
                           const SolverOptions& opts) {
    return cg_detail::run<SingleReduction>(exec, A, b, x, opts);
  }
};
// Jacobi-preconditioned CG, the classic recurrence: two waits a step (p.Ap; r.r with r.z). Stops when
// ||r||_2 <= tolerance ||b||_2, after max_iterations, or on a non-positive curvature p.Ap.
struct Cg : CgRecurrence<false> {
  static constexpr const char* name = "cg";
  static constexpr const char* help = "Jacobi-preconditioned conjugate gradients, two reductions a step";
};
// Chronopoulos and Gear's single-reduction CG: the three scalars of a step summed in one reduction,
// so a step waits for the device (and, across ranks, for one message) once instead of twice, for one
// more vector update. The same iterates as cg in exact arithmetic; rounding differs.
struct CgSingleReduction : CgRecurrence<true> {
  static constexpr const char* name = "cg-single-reduction";
  static constexpr const char* help = "Chronopoulos-Gear conjugate gradients, one reduction a step";
};
}  // namespace solver

}  // namespace kfem
