// Work mapping `batch` (kfem's own, a host fast path): one thread assembles W consecutive elements
// of the launch at once, one element per SIMD lane. Every array is [..][W] with the lane index
// innermost and every loop over lanes has no dependence between lanes, so the compiler turns the
// element math into W-wide vector instructions (W = 64 bytes of scalars: one AVX-512 register). The
// math is pairs' (hex8_pairs.hpp): the 36 node-pair blocks a >= b of Ke from the 9 products
// sum_q w detJ g_a[i] g_b[j] each, not 64 blocks of B^T D B. The thread then scatters its W
// elements' Ke one lane at a time, row by row. A thread takes a run of `batches` batches in turn,
// and a coloured race colours such runs, not elements (run(), assembler.hpp), along the elements'
// Morton order: a run is a compact block whose elements share most of their rows, so the rows one
// element adds to are still in cache for the next, where an element colouring sends every add of
// a launch to rows no other element of that launch touches. On a GPU W and the run are 1: a thread
// per element, correct but not the strategy to pick there (the tuner times it like any other).
#pragma once
#include <Kokkos_Core.hpp>
#include <cmath>

#include "kfem/assembly/lanes.hpp"
#include "kfem/core/types.hpp"
#include "kfem/fe/elasticity.hpp"

namespace kfem::mapping {
// Lane l of a batch's [k][W] array, indexed as the element math indexes one element's array.
template <class S, int W>
struct Lane {
  const S (*v)[W];
  int l;
  KOKKOS_FORCEINLINE_FUNCTION S operator[](int k) const { return v[k][l]; }
};

// The rows every element adds to: all of them (the owner-computes variant adds only its partition's,
// hex8_batch_owner.hpp).
struct AllRows {
  KOKKOS_FORCEINLINE_FUNCTION constexpr bool operator()(ordinal_t, int) const { return true; }
};

struct Hex8Batch {
  using layout = Kokkos::LayoutLeft;  // coords(e, k) of consecutive elements are adjacent: vector loads
  static constexpr const char* name = "batch";
  static constexpr const char* help = "a thread per SIMD-width batch of elements, one per lane (for CPUs)";

  // Elements per thread: a 64-byte vector of scalars on host backends, 1 on a GPU.
  template <class Exec, class S>
  static constexpr int width() {
    return lanes::in_turn<Exec> ? int(64 / sizeof(S)) : 1;
  }

  // Elements one thread assembles in turn, `batches` batches of W; on a GPU, one.
  static constexpr int batches = 8;
  template <class Exec, class S>
  static constexpr ordinal_t run() {
    return lanes::in_turn<Exec> ? batches * width<Exec, S>() : 1;
  }

  // a b + c, fused where the hardware has it: host code is built with -ffp-contract=off (its results
  // bit for bit those of a portable build), so the hot loops ask for their multiply-adds here.
  template <class S>
  KOKKOS_FORCEINLINE_FUNCTION static S madd(S a, S b, S c) {
#if defined(__CUDA_ARCH__)
    return fma(a, b, c);
#elif defined(__FP_FAST_FMA)
    return std::fma(a, b, c);
#else
    return a * b + c;
#endif
  }

  // tour: lane-products
  // Block (a, b) of the lower triangle of node pairs, a >= b.
  KOKKOS_INLINE_FUNCTION static constexpr int pair(int a, int b) {
    return a * (a + 1) / 2 + b;
  }

  // The 9 products sum_q H[q][a][i] G[q][b][j] of node pair (a, b) in all W lanes, in registers.
  template <int W, class S, int Q = hex8::num_qp, int N = hex8::num_nodes>
  KFEM_LANE_FUNCTION static void products(const S (*__restrict__ H)[N][3][W],
                                          const S (*__restrict__ G)[N][3][W], int a, int b,
                                          S (*__restrict__ A)[W]) {
    KFEM_LANE_LOOP
    for (int l = 0; l < W; ++l) {
      S sum[9] = {};
      for (int q = 0; q < Q; ++q)
        for (int k = 0; k < 9; ++k) sum[k] = madd(H[q][a][k / 3][l], G[q][b][k % 3][l], sum[k]);
      for (int k = 0; k < 9; ++k) A[k][l] = sum[k];
    }
  }
  // tour: end lane-products

  // Ke of the W elements e0 + l (lanes l >= valid repeat element e0 + valid - 1 and are not added),
  // node a's rows of element e added where rows(e, a).
  template <int W, class S, class Data, class Access, class Rows = AllRows>
  KOKKOS_INLINE_FUNCTION static void elements(const Data& d, const Isotropic<S>& m, ordinal_t e0, int valid,
                                              const Access& acc, const Rows& rows = {}) {
    constexpr int Q = hex8::num_qp, N = hex8::num_nodes, P = N * (N + 1) / 2;
    S C[24][W];  // monomial coefficients of the trilinear map, C[3 mask + j] (mask 0 unused)
    {
      S X[3 * N][W];
      for (int k = 0; k < 3 * N; ++k)
        for (int l = 0; l < W; ++l) X[k][l] = d.coords(e0 + (l < valid ? l : valid - 1), k);
      for (int k = 3; k < 24; ++k)
        for (int l = 0; l < W; ++l) C[k][l] = hex8::monomial_coefficient<S>(Lane<S, W>{X, l}, k / 3, k % 3);
    }
    // Physical gradients g and w detJ g of every node at every Gauss point (weights are 1).
    S G[Q][N][3][W], H[Q][N][3][W];
    for (int q = 0; q < Q; ++q) {
      const S r[3] = {hex8::qp_coord<S>(q, 0), hex8::qp_coord<S>(q, 1), hex8::qp_coord<S>(q, 2)};
      S Jinv[3][3][W], det[W];
      for (int l = 0; l < W; ++l) {
        S J[3][3], Ji[3][3];
        hex8::jacobian_from_monomials(Lane<S, W>{C, l}, q, J);
        det[l] = hex8::invert3<S>(J, Ji);
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) Jinv[i][j][l] = Ji[i][j];
      }
      for (int a = 0; a < N; ++a) {
        const S d0 = hex8::dshape<S>(a, 0, r), d1 = hex8::dshape<S>(a, 1, r), d2 = hex8::dshape<S>(a, 2, r);
        for (int j = 0; j < 3; ++j)
          for (int l = 0; l < W; ++l) {
            const S g = madd(Jinv[j][2][l], d2, madd(Jinv[j][1][l], d1, Jinv[j][0][l] * d0));
            G[q][a][j][l] = g;
            H[q][a][j][l] = det[l] * g;
          }
      }
    }
    // The 9 products of every pair, then Ke's block (a, b) = from_products, in place.
    S K[P][9][W];
    for (int a = 0; a < N; ++a)
      for (int b = 0; b <= a; ++b) {
        S A[9][W];
        products<W>(H, G, a, b, A);
        for (int k = 0; k < 9; ++k)
          for (int l = 0; l < W; ++l)
            K[pair(a, b)][k][l] = elasticity::from_products(
                m, [&](int i, int j) { return A[3 * i + j][l]; }, k / 3, k % 3);
      }
    // Block (a, b) of element e0 + l: Ke(3a + c, 3b + dd) is pair (a, b)'s entry (c, dd), or by
    // symmetry pair (b, a)'s (dd, c) above the diagonal of node pairs. One index load per block.
    // (Gathering the rows into a plain array first was measured no faster: the adds wait on memory.)
    for (int l = 0; l < valid; ++l) {
      const ordinal_t e = e0 + l;
      for (int a = 0; a < N; ++a) {
        if (!rows(e, a)) continue;
        const slot_t row = d.row(e, a);
        for (int b = 0; b < N; ++b) {
          const slot_t s = row + d.block(e, 8 * a + b);
          const int p = a >= b ? pair(a, b) : pair(b, a);
          const bool above = a < b;
          for (int c = 0; c < 3; ++c) {
            const slot_t sc = s + d.row_offset(e, a, c);
            for (int dd = 0; dd < 3; ++dd) acc(sc + dd, K[p][above ? 3 * dd + c : 3 * c + dd][l]);
          }
        }
      }
    }
  }

  // tour: batch-launch
  template <class Exec, class Data, class Op, class Adder>
  void launch(const Exec& exec, const Data& d, const Op& op, ordinal_t begin, ordinal_t end,
              const Adder& add) const {
    using S = typename Data::scalar_type;
    const Isotropic<S> m = op.material;
    static_assert(!Data::lower, "batch writes the full pattern");
    constexpr int W = width<Exec, S>();
    constexpr ordinal_t R = run<Exec, S>();  // a coloured launch starts every run at begin + i R
    Kokkos::parallel_for(
        "kfem::assemble[batch]", Kokkos::RangePolicy<Exec>(exec, 0, (end - begin + R - 1) / R),
        KOKKOS_LAMBDA(ordinal_t i) {
          const ordinal_t last = end - begin > (i + 1) * R ? begin + (i + 1) * R : end;
          const auto acc = add.access();
          for (ordinal_t e0 = begin + i * R; e0 < last; e0 += W)
            elements<W>(d, m, e0, last - e0 < W ? int(last - e0) : W, acc);
        });
  }
  // tour: end batch-launch
};
}  // namespace kfem::mapping
