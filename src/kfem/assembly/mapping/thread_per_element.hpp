// Work mapping `thread` (generic, every family): one thread per element, nothing shared. The
// thread walks the node pairs (a, b) in strips of `strip` columns b and sums their A_ab over the
// quadrature points, recomputing the geometry (J, det J, J^-1) and g_a once per strip and point.
// So it needs no per-element workspace whatever N_sh and N_Q are (a p = 7 prism has 82,944 pairs
// x 336 points), at the price of recomputing J N_sh^2 / strip times per point. Each block goes to
// the target as soon as its strip is done.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/assembly/target/block.hpp"
#include "kfem/core/types.hpp"
#include "kfem/fe/operator.hpp"

namespace kfem::mapping {
namespace detail {
// The kernel is a named functor, not a KOKKOS_LAMBDA: several translation units instantiate the
// same launch, and nvcc's host wrappers of extended lambdas do not survive that (the linker keeps
// one unit's wrapper, whose function pointers only that unit sets: a call through NULL).
template <class Elements, class Op, class Target, class Adder, int strip>
struct ThreadKernel {
  using S = typename Elements::scalar_type;
  using F = typename Elements::family;
  static constexpr int D = F::dim, V = F::vertices, C = Op::components;
  Elements els;
  Op op;
  Target where;
  Adder add;

  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t e) const {
    S X[V * D];
    for (int i = 0; i < V * D; ++i) X[i] = els.coords(e, i);
    const int n = els.ref.num_nodes(), nq = els.ref.num_qp();
    const auto acc = add.access();
    for (int a = 0; a < n; ++a)
      for (int b0 = 0; b0 < n; b0 += strip) {
        const int m = n - b0 < strip ? n - b0 : strip;
        fe::Products<S, D> A[strip] = {};
        for (int q = 0; q < nq; ++q) {
          S Jinv[D][D], ga[D];
          const S wd = fe::geometry<F>(els.ref, X, q, Jinv);
          fe::gradient<F>(els.ref, Jinv, q, a, ga);
          for (int i = 0; i < D; ++i) ga[i] *= wd;
          for (int k = 0; k < m; ++k) {
            S gb[D];
            fe::gradient<F>(els.ref, Jinv, q, b0 + k, gb);
            for (int i = 0; i < D; ++i)
              for (int j = 0; j < D; ++j) A[k].v[i][j] += ga[i] * gb[j];
          }
        }
        for (int k = 0; k < m; ++k) {
          const auto blk = where(e, a, b0 + k);
          for (int c = 0; c < C; ++c)
            for (int d = 0; d < C; ++d) acc(blk(c, d), op(A[k], c, d));
        }
      }
  }
};
}  // namespace detail

struct ThreadPerElement {
  using layout = Kokkos::LayoutLeft;  // consecutive threads read consecutive elements
  static constexpr const char* name = "thread";
  static constexpr const char* help =
      "a thread per element, nothing shared: the geometry recomputed per strip of node pairs";
  static constexpr int strip = 4;  // 4 x dim^2 accumulators: registers, not local memory

  template <class Exec, class In, class Op, class Adder>
  void launch(const Exec& exec, const In& in, const Op& op, ordinal_t begin, ordinal_t end,
              const Adder& add) const {
    using Kernel =
        detail::ThreadKernel<typename In::elements_type, Op, typename In::target_type, Adder, strip>;
    Kokkos::parallel_for("kfem::assemble[thread]", Kokkos::RangePolicy<Exec>(exec, begin, end),
                         Kernel{in.els, op, in.where, add});
  }
};
}  // namespace kfem::mapping
