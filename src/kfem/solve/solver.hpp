// The solver axis: how A x = b is solved once a storage has given its operator. Every solve of kfem
// (CSR full or lower, the element-by-element operators, the distributed CSR) goes through solve()
// below, with one options type and one result type (solve_types.hpp).
//
// The operator contract, what a storage hands a solver (checked by OperatorTraits):
//   Op::Vec                                    Kokkos::View<S*, Kokkos::Device<Exec, Mem>>
//   void apply(const Vec& x, const Vec& y) const            y = A x, on Exec's default instance
//   void inverse_diagonal(const Exec&, const Vec& d) const  d = 1 / diag(A), 1 where diag(A) = 0
// and, optional (defaults in cg_detail::run):
//   Reduce reduce() const       partial sums made global (default: this rank's are the totals)
//   Vec operand() const         where the vector the operator reads lives (default: allocated)
//   HostCsr<double> host_matrix() const
//                               every entry of A on the host (solver amg, amg.hpp; default: none,
//                               and solver amg is refused)
//   void inverse_block_diagonal(const Exec&, int C, const Vec& d) const
//                               block Jacobi's M^-1 (block_jacobi.hpp; default: none, and
//                               solver.preconditioner block-jacobi is refused)
//
// The solver contract, what a solver tag has (checked by SolverTraits at registration):
//   static constexpr const char* name, help;   the name users type (--solver, solver.method)
//   template <class Exec, class Op, class ConstVec>
//   static SolveResult solve(const Exec&, const Op&, const ConstVec& b, const Op::Vec& x,
//                            const SolverOptions&);    from x = 0
//
// Adding a solver = its file (a tag as above) + one line in SolverRegistry.
#pragma once
#include <Kokkos_Core.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "kfem/core/contract.hpp"
#include "kfem/core/exec_spaces.hpp"
#include "kfem/solve/amg.hpp"
#include "kfem/solve/cg.hpp"
#include "kfem/solve/solve_types.hpp"

namespace kfem {
namespace solve_contract {
// The operator every solver must take: the contract's required members and nothing else.
struct OperatorArchetype {
  using Vec = Kokkos::View<double*, Kokkos::Device<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>>;
  void apply(const Vec&, const Vec&) const {}
  void inverse_diagonal(const Kokkos::DefaultHostExecutionSpace&, const Vec&) const {}
};
template <class T, class = void>
struct solves_archetype : std::false_type {};
template <class T>
struct solves_archetype<
    T, std::void_t<decltype(T::solve(
           std::declval<const Kokkos::DefaultHostExecutionSpace&>(), std::declval<const OperatorArchetype&>(),
           std::declval<const Kokkos::View<const double*, OperatorArchetype::Vec::device_type>&>(),
           std::declval<const OperatorArchetype::Vec&>(), std::declval<const SolverOptions&>()))>>
    : std::is_same<
          decltype(T::solve(
              std::declval<const Kokkos::DefaultHostExecutionSpace&>(),
              std::declval<const OperatorArchetype&>(),
              std::declval<const Kokkos::View<const double*, OperatorArchetype::Vec::device_type>&>(),
              std::declval<const OperatorArchetype::Vec&>(), std::declval<const SolverOptions&>())),
          SolveResult> {};

template <class Op, class Exec, class = void>
struct operator_complete : std::false_type {};
template <class Op, class Exec>
struct operator_complete<
    Op, Exec,
    std::void_t<typename Op::Vec,
                decltype(std::declval<const Op&>().apply(std::declval<const typename Op::Vec&>(),
                                                         std::declval<const typename Op::Vec&>())),
                decltype(std::declval<const Op&>().inverse_diagonal(
                    std::declval<const Exec&>(), std::declval<const typename Op::Vec&>()))>>
    : std::true_type {};
}  // namespace solve_contract

// A solver tag, checked: a tag that misses a member fails here with the member's name.
template <class Tag>
struct SolverTraits {
  static_assert(contract::has_name_and_help<Tag>::value,
                "a solver tag needs `static constexpr const char* name` and `help` (solver.hpp)");
  static_assert(solve_contract::solves_archetype<Tag>::value,
                "a solver tag needs `template <class Exec, class Op, class ConstVec> static SolveResult "
                "solve(const Exec&, const Op&, const ConstVec& b, const typename Op::Vec& x, const "
                "SolverOptions&)` (solver.hpp)");
  using type = Tag;
};
// An operator, checked where a solve takes it.
template <class Op, class Exec>
struct OperatorTraits {
  static_assert(solve_contract::operator_complete<Op, Exec>::value,
                "a solve operator needs `Vec`, `apply(const Vec& x, const Vec& y) const` and "
                "`inverse_diagonal(const Exec&, const Vec& d) const` (solver.hpp)");
};

// The solvers kfem knows, in the order --help lists them; the first is the default.
using SolverRegistry =
    std::tuple<SolverTraits<solver::Cg>, SolverTraits<solver::CgSingleReduction>, SolverTraits<solver::Amg>>;

// Calls f(Tag{}) for the solver `id`.
template <class F>
void dispatch_solver(SolverId id, F&& f) {
  int i = 0;
  std::apply([&](auto... e) { ((i++ == id.index ? (f(typename decltype(e)::type{}), 0) : 0), ...); },
             SolverRegistry{});
}
// The solver named `name`, if the registry has one.
inline std::optional<SolverId> solver_named(const std::string& name) {
  std::optional<SolverId> out;
  int i = 0;
  std::apply([&](auto... e) { ((name == decltype(e)::type::name ? (out = SolverId{i}) : out, ++i), ...); },
             SolverRegistry{});
  return out;
}
inline std::string name_of(SolverId id) {
  std::string out = "?";
  dispatch_solver(id, [&](auto tag) { out = decltype(tag)::name; });
  return out;
}
// Every solver's name and help line, in registry order (the driver's --help and messages).
inline std::vector<std::pair<std::string, std::string>> solver_entries() {
  std::vector<std::pair<std::string, std::string>> out;
  std::apply([&](auto... e) { (out.emplace_back(decltype(e)::type::name, decltype(e)::type::help), ...); },
             SolverRegistry{});
  return out;
}

// Solves A x = b from x = 0 with the solver opts.method names (its name in the result's method).
// A: any operator of the contract.
template <class Exec, class Op>
SolveResult solve(
    const Exec& exec, const Op& A,
    const Kokkos::View<const typename Op::Vec::non_const_value_type*, typename Op::Vec::device_type>& b,
    const typename Op::Vec& x, const SolverOptions& opts) {
  (void)OperatorTraits<Op, Exec>{};
  SolveResult out;
  dispatch_solver(opts.method, [&](auto tag) {
    out = decltype(tag)::solve(exec, A, b, x, opts);
    out.method = decltype(tag)::name;
  });
  return out;
}

// A solve on CSR storage (full, or the lower triangle with lower = true), compiled once per enabled
// space and scalar in cg.cpp: Kokkos Kernels' spmv and BLAS-1 are the heaviest templates a caller
// would otherwise instantiate again. Other spaces (the host reference solve runs on Serial even where
// KFEM_BACKENDS leaves it out) instantiate as usual.
template <class Exec, class S>
SolveResult solve_csr(
    const Exec& exec, const CsrGraph<typename Exec::memory_space>& A,
    const Kokkos::View<S*, typename Exec::memory_space>& values, bool lower,
    const solve_detail::nondeduced_t<Kokkos::View<const S*, typename Exec::memory_space>>& b,
    const Kokkos::View<S*, typename Exec::memory_space>& x, const SolverOptions& opts) {
  using Device = Kokkos::Device<Exec, typename Exec::memory_space>;
  return solve(exec, CsrOperator<Exec, S>(A, values, lower), Kokkos::View<const S*, Device>(b),
               Kokkos::View<S*, Device>(x), opts);
}
// KFEM_CSR_SOLVE(EXTERN, Exec): the declarations (EXTERN = extern) or definitions of both scalars.
#define KFEM_CSR_SOLVE_SCALAR(EXTERN, Exec, S)                                                             \
  EXTERN template class CsrOperator<Exec, S>;                                                              \
  EXTERN template SolveResult solve_csr<Exec, S>(                                                          \
      const Exec&, const CsrGraph<Exec::memory_space>&, const Kokkos::View<S*, Exec::memory_space>&, bool, \
      const Kokkos::View<const S*, Exec::memory_space>&, const Kokkos::View<S*, Exec::memory_space>&,      \
      const SolverOptions&);
#define KFEM_CSR_SOLVE(EXTERN, Exec) \
  KFEM_CSR_SOLVE_SCALAR(EXTERN, Exec, double) KFEM_CSR_SOLVE_SCALAR(EXTERN, Exec, float)
#define KFEM_EXTERN_CSR_SOLVE(Exec) KFEM_CSR_SOLVE(extern, Exec)
KFEM_FOR_EACH_EXEC_SPACE(KFEM_EXTERN_CSR_SOLVE)
#undef KFEM_EXTERN_CSR_SOLVE
}  // namespace kfem
