// Team steps of the `gemm` kernels (the vector one in gemm_blocks.hpp, the matrix-unit one in
// gemm_blocks_mma.hpp): the geometry at a range of quadrature points, the two gradient panels of a
// tile pair for a chunk of points (the vector kernel's; the matrix-unit one prefetches its own), and
// the adds of a node pair's blocks.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/core/types.hpp"
#include "kfem/fe/operator.hpp"

namespace kfem::mapping::gemm_panels {
// Wc[k * (1 + D^2)] = w det J and then J^-1 (row-major) at the points q0 + k, k < qn, a thread per
// point (banas_blocks.hpp's JAC kernels use it too).
template <class F, class Member, class Elements, class S>
KOKKOS_INLINE_FUNCTION void geometry(const Member& t, const Elements& els, const S* X, int q0, int qn,
                                     S* Wc) {
  constexpr int D = F::dim, G = 1 + D * D;
  Kokkos::parallel_for(Kokkos::TeamThreadRange(t, qn), [&](int k) {
    S Jinv[D][D];
    Wc[k * G] = fe::geometry<F>(els.ref, X, q0 + k, Jinv);
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j) Wc[k * G + 1 + D * i + j] = Jinv[i][j];
  });
}

// Rows k < rows of both panels, row k at k * ld and node m of the tile at m * D: GA holds
// w det J g of row tile I's nodes, GB g of column tile J's nodes; zero for nodes >= n and k >= qn.
template <class F, class Member, class Elements, class S>
KOKKOS_INLINE_FUNCTION void gradients(const Member& t, const Elements& els, const S* Wc, int q0, int qn,
                                      int rows, int tile, int ld, int I, int J, int n, S* GA, S* GB) {
  constexpr int D = F::dim, G = 1 + D * D;
  Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 2 * rows * tile), [&](int i) {
    const int side_b = i / (rows * tile), k = (i / tile) % rows, m = i % tile;
    const int node = (side_b ? J : I) * tile + m;
    S* g = (side_b ? GB : GA) + k * ld + m * D;
    if (k < qn && node < n) {
      fe::gradient<F>(els.ref, reinterpret_cast<const S(*)[D]>(Wc + k * G + 1), q0 + k, node, g);
      if (!side_b)
        for (int d = 0; d < D; ++d) g[d] *= Wc[k * G];
    } else {
      for (int d = 0; d < D; ++d) g[d] = S(0);
    }
  });
}

// Adds block (a, b) of Ke from the node-pair products A = A_ab and, where `mirror` (a tile off the
// diagonal, whose transpose is not computed), block (b, a) from A_ba = A_ab^T.
template <class Target, class Acc, class Op, class S, int D>
KOKKOS_INLINE_FUNCTION void add_pair(const Target& where, const Acc& acc, const Op& op, ordinal_t e, int a,
                                     int b, const fe::Products<S, D>& A, bool mirror) {
  constexpr int C = Op::components;
  const auto ab = where(e, a, b);
  for (int c = 0; c < C; ++c)
    for (int d = 0; d < C; ++d) acc(ab(c, d), op(A, c, d));
  if (!mirror) return;
  fe::Products<S, D> At;
  for (int i = 0; i < D; ++i)
    for (int j = 0; j < D; ++j) At.v[i][j] = A.v[j][i];
  const auto ba = where(e, b, a);
  for (int c = 0; c < C; ++c)
    for (int d = 0; d < C; ++d) acc(ba(c, d), op(At, c, d));
}
}  // namespace kfem::mapping::gemm_panels
