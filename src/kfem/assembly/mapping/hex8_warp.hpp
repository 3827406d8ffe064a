// Work mappings `warp4` / `warp8` (kiran §4.1-4.2): one warp per element, a loop over Gauss points;
// per point the warp forms J cooperatively, then each lane updates its 18 entries in registers.
// The Jacobian reduction is the paper's Table 1 choice (shuffle, shared memory, atomics) plus the
// portable Kokkos vector reduction.
#pragma once
#include "kfem/assembly/mapping/hex8_warp_common.hpp"

namespace kfem::mapping {
enum class JacobianReduction { shuffle, scratch, atomic, vector_reduce };

// J(idx = 3i+j) of Gauss point q into scratch J[9], all 32 lanes participating.
// X: 24 coordinates in scratch; P: 72 values of scratch for the partial products.
template <JacobianReduction R, class S, class Member>
KOKKOS_INLINE_FUNCTION void warp_jacobian(const Member& t, int q, const S* X, S* J, S* P) {
  using Kokkos::ThreadVectorRange;
  const auto term = [&](int idx, int a) { return hex8::jacobian_term<S>(q, a, idx / 3, X[3 * a + idx % 3]); };
  if constexpr (R == JacobianReduction::shuffle) {
    Kokkos::parallel_for(ThreadVectorRange(t, lanes::width), [&](int l) {
      if (lanes::native()) {  // 4 entries per pass in groups of 8 lanes, lane % 8 = node
        for (int pass = 0; pass < 3; ++pass) {
          const int idx = 4 * pass + l / 8;
          const S v = lanes::group8_sum(idx < 9 ? term(idx, l % 8) : S(0));
          if (idx < 9 && l % 8 == 0) J[idx] = v;
        }
      } else if (l < 9) {  // lanes run in turn: each of the first 9 sums its entry
        S v = 0;
        for (int a = 0; a < 8; ++a) v += term(l, a);
        J[l] = v;
      }
    });
  } else if constexpr (R == JacobianReduction::scratch) {
    Kokkos::parallel_for(ThreadVectorRange(t, 72), [&](int k) { P[k] = term(k / 8, k % 8); });
    Kokkos::parallel_for(ThreadVectorRange(t, 9), [&](int idx) {
      S v = 0;
      for (int a = 0; a < 8; ++a) v += P[8 * idx + a];
      J[idx] = v;
    });
  } else if constexpr (R == JacobianReduction::atomic) {
    Kokkos::parallel_for(ThreadVectorRange(t, 9), [&](int idx) { J[idx] = S(0); });
    Kokkos::parallel_for(ThreadVectorRange(t, 72),
                         [&](int k) { Kokkos::atomic_add(&J[k / 8], term(k / 8, k % 8)); });
  } else {
    S v[9];
    for (int idx = 0; idx < 9; ++idx)
      Kokkos::parallel_reduce(
          ThreadVectorRange(t, 8), [&](int a, S& s) { s += term(idx, a); }, v[idx]);
    Kokkos::single(Kokkos::PerThread(t), [&]() {
      for (int idx = 0; idx < 9; ++idx) J[idx] = v[idx];
    });
  }
  (void)P;
}

template <int ThreadsPerRow, JacobianReduction R = JacobianReduction::shuffle>
struct Hex8Warp {
  using layout = Kokkos::LayoutRight;  // a warp reads one element's 24 coordinates at once
  // warpN, and the reduction where it is not the paper's shuffle (the registry has those at N = 4).
  static constexpr const char* name =
      R == JacobianReduction::shuffle   ? (ThreadsPerRow == 4 ? "warp4" : "warp8")
      : R == JacobianReduction::scratch ? (ThreadsPerRow == 4 ? "warp4-scratch" : "warp8-scratch")
      : R == JacobianReduction::atomic  ? (ThreadsPerRow == 4 ? "warp4-atomic" : "warp8-atomic")
                                        : (ThreadsPerRow == 4 ? "warp4-vreduce" : "warp8-vreduce");
  static constexpr const char* help =
      R == JacobianReduction::shuffle
          ? (ThreadsPerRow == 4 ? "a warp per element, 4 threads per row of Ke, J reduced by shuffles (kiran)"
                                : "warp4 with 8 threads per row")
      : R == JacobianReduction::scratch ? "warp4 with J reduced through scratch"
      : R == JacobianReduction::atomic  ? "warp4 with J reduced by atomics"
                                        : "warp4 with J reduced by Kokkos' vector reduction";
  using E = LaneEntries<ThreadsPerRow>;
  int elements_per_team = 4;  // warps per block on a GPU: a tunable

  template <class Exec, class Data, class Op, class Adder>
  void launch(const Exec& exec, const Data& d, const Op& op, ordinal_t begin, ordinal_t end,
              const Adder& add) const {
    using S = typename Data::scalar_type;
    const Isotropic<S> m = op.material;
    // tour: warp-kernel
    using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
    constexpr int scratch = padded(24 + 9 + 72);
    Kokkos::parallel_for(
        "kfem::assemble[warp]", warp_policy(exec, end - begin, elements_per_team, scratch * sizeof(S)),
        KOKKOS_LAMBDA(const Member& t) {
          const ordinal_t e = warp_element(t, begin, end);
          if (e < 0) return;
          S* X = thread_scratch<S>(t, scratch);
          S* J = X + 24;
          S* P = J + 9;
          load_coords(t, d, e, X);
          lanes::Private<S, entries_per_lane> K;
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, lanes::width), [&](int l) {
            for (int k = 0; k < entries_per_lane; ++k) K(l, k) = S(0);
          });
          for (int q = 0; q < hex8::num_qp; ++q) {
            warp_jacobian<R>(t, q, X, J, P);
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, lanes::width), [&](int l) {
              const S(*Jq)[3] = reinterpret_cast<const S(*)[3]>(J);
              S Jinv[3][3];  // each lane inverts the shared J itself: cheaper than a broadcast round
              for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c) Jinv[r][c] = hex8::inverse_entry<S>(Jq, r, c, S(1));
              const S det = hex8::determinant<S>(Jq);
              for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c) Jinv[r][c] /= det;
              accumulate_lane<E>(l, q, Jinv, det, m, [&](int k) -> S& { return K(l, k); });
            });
          }
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, lanes::width), [&](int l) {
            scatter_lane<E>(l, e, d, add.access(), [&](int k) { return K(l, k); });
          });
        });
    // tour: end warp-kernel
  }
};
}  // namespace kfem::mapping
