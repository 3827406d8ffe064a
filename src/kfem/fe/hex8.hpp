// Trilinear 8-node hexahedron with 2x2x2 Gauss-Legendre quadrature: the element math every
// strategy shares. All functions are scalar-templated and callable on host and device.
#pragma once
#include <Kokkos_Core.hpp>

namespace kfem::hex8 {
inline constexpr int num_nodes = 8;
inline constexpr int num_qp = 8;

// Node a's corner bits in its cell, bit dir = its corner along dir (Gmsh/VTK order:
// x = 0,1,1,0,0,1,1,0, y = 0,0,1,1,0,0,1,1, z = 0,0,0,0,1,1,1,1). Bit operations: with a known only at
// run time (a lane's node) the compare chains they replace were most of a kernel's integer work.
KOKKOS_INLINE_FUNCTION constexpr int corner_bits(int a) {
  return ((a ^ (a >> 1)) & 1) | (a & 6);
}
// Node a's corner of its cell along dir, 0 or 1 (bit dir of corner_bits, spelled per direction: its
// constant-direction callers fold it to one or two operations).
KOKKOS_INLINE_FUNCTION constexpr int corner(int a, int dir) {
  return dir == 0 ? (a ^ (a >> 1)) & 1 : (dir == 1 ? (a >> 1) & 1 : (a >> 2) & 1);
}
// The node at corner bits m: corner_bits is its own inverse (it swaps 2 and 3, 6 and 7).
KOKKOS_INLINE_FUNCTION constexpr int node_at_corner(int m) {
  return corner_bits(m);
}

// Reference coordinates of node a (each -1 or +1).
KOKKOS_INLINE_FUNCTION constexpr int node_sign(int a, int dir) {
  return 2 * corner(a, dir) - 1;
}

// Gauss point q = i + 2j + 4k sits at (+-1/sqrt3, ...), weight 1.
template <class S>
KOKKOS_INLINE_FUNCTION S qp_coord(int q, int dir) {
  const S g = S(0.57735026918962576451);  // 1/sqrt(3)
  return ((q >> dir) & 1) ? g : -g;
}

// N_a at reference point (xi, eta, zeta).
template <class S>
KOKKOS_INLINE_FUNCTION S shape(int a, S xi, S eta, S zeta) {
  return S(0.125) * (S(1) + node_sign(a, 0) * xi) * (S(1) + node_sign(a, 1) * eta) *
         (S(1) + node_sign(a, 2) * zeta);
}

// dN_a / d(reference direction `dir`) at reference point r.
template <class S>
KOKKOS_INLINE_FUNCTION S dshape(int a, int dir, const S r[3]) {
  S v = S(0.125) * node_sign(a, dir);
  for (int k = 0; k < 3; ++k)
    if (k != dir) v *= S(1) + node_sign(a, k) * r[k];
  return v;
}

// Same derivative at Gauss point q.
template <class S>
KOKKOS_INLINE_FUNCTION S dshape_qp(int q, int a, int dir) {
  const S r[3] = {qp_coord<S>(q, 0), qp_coord<S>(q, 1), qp_coord<S>(q, 2)};
  return dshape<S>(a, dir, r);
}

// All three of them, dN_a/dxi_i at Gauss point q for i = 0..2, from bits: factor k of dshape is
// 1 + g where node a's corner bit k is q's bit k, else 1 - g (g = 1/sqrt3). The same products in the
// same order as dshape's, so the same values to the last bit.
template <class S>
KOKKOS_INLINE_FUNCTION void dshape_qp(int q, int a, S d[3]) {
  const S g = qp_coord<S>(1, 0), up = S(1) + g, down = S(1) - g;
  const int c = corner_bits(a), differ = c ^ q;
  S f[3];
  for (int k = 0; k < 3; ++k) f[k] = (differ >> k) & 1 ? down : up;
  for (int i = 0; i < 3; ++i) {
    S v = (c >> i) & 1 ? S(0.125) : S(-0.125);
    for (int k = 0; k < 3; ++k)
      if (k != i) v *= f[k];
    d[i] = v;
  }
}

// One term of J(i,j) = sum_a dN_a/dxi_i * x_a,j; warp mappings reduce these across lanes.
template <class S>
KOKKOS_INLINE_FUNCTION S jacobian_term(int q, int a, int i, S x_aj) {
  return dshape_qp<S>(q, a, i) * x_aj;
}

// J(i,j) = d x_j / d xi_i at reference point r for element coordinates X[8][3].
template <class S, class Coords>
KOKKOS_INLINE_FUNCTION void jacobian_at(const Coords& X, const S r[3], S J[3][3]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) J[i][j] = S(0);
  for (int a = 0; a < num_nodes; ++a)
    for (int i = 0; i < 3; ++i) {
      const S d = dshape<S>(a, i, r);
      for (int j = 0; j < 3; ++j) J[i][j] += d * S(X[a][j]);
    }
}

template <class S, class Coords>
KOKKOS_INLINE_FUNCTION void jacobian(const Coords& X, int q, S J[3][3]) {
  const S r[3] = {qp_coord<S>(q, 0), qp_coord<S>(q, 1), qp_coord<S>(q, 2)};
  jacobian_at<S>(X, r, J);
}

// Adjugate of a 3x3 matrix, adj J = det J * J^{-1}; returns the determinant.
template <class S>
KOKKOS_INLINE_FUNCTION S adjugate3(const S J[3][3], S A[3][3]) {
  A[0][0] = J[1][1] * J[2][2] - J[1][2] * J[2][1];
  A[1][0] = J[1][2] * J[2][0] - J[1][0] * J[2][2];
  A[2][0] = J[1][0] * J[2][1] - J[1][1] * J[2][0];
  A[0][1] = J[0][2] * J[2][1] - J[0][1] * J[2][2];
  A[1][1] = J[0][0] * J[2][2] - J[0][2] * J[2][0];
  A[2][1] = J[0][1] * J[2][0] - J[0][0] * J[2][1];
  A[0][2] = J[0][1] * J[1][2] - J[0][2] * J[1][1];
  A[1][2] = J[0][2] * J[1][0] - J[0][0] * J[1][2];
  A[2][2] = J[0][0] * J[1][1] - J[0][1] * J[1][0];
  return J[0][0] * A[0][0] + J[0][1] * A[1][0] + J[0][2] * A[2][0];
}

// Inverse of a 3x3 matrix; returns the determinant (the caller checks its sign).
template <class S>
KOKKOS_INLINE_FUNCTION S invert3(const S J[3][3], S Jinv[3][3]) {
  const S det = adjugate3(J, Jinv);
  const S s = S(1) / det;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) Jinv[i][j] *= s;
  return det;
}

// Entry (row, col) of J^{-1} from the cofactors of J: the cyclic index form needs no sign table,
// so 9 lanes (or 72 for all Gauss points) can each compute one entry independently.
template <class S, class M>
KOKKOS_INLINE_FUNCTION S inverse_entry(const M& J, int row, int col, S det) {
  const int i1 = (col + 1) % 3, i2 = (col + 2) % 3, j1 = (row + 1) % 3, j2 = (row + 2) % 3;
  return (S(J[i1][j1]) * S(J[i2][j2]) - S(J[i1][j2]) * S(J[i2][j1])) / det;
}

template <class S, class M>
KOKKOS_INLINE_FUNCTION S determinant(const M& J) {
  return S(J[0][0]) * (S(J[1][1]) * S(J[2][2]) - S(J[1][2]) * S(J[2][1])) +
         S(J[0][1]) * (S(J[1][2]) * S(J[2][0]) - S(J[1][0]) * S(J[2][2])) +
         S(J[0][2]) * (S(J[1][0]) * S(J[2][1]) - S(J[1][1]) * S(J[2][0]));
}

// Geometry of all 8 Gauss points as independent items, so any group of threads can share it out:
// J of point q at k = 9q + 3i + j, its determinant, and J^{-1} at the same k.
template <class S>
KOKKOS_INLINE_FUNCTION S qp_jacobian_entry(const S* X, int k) {
  S v = 0;
  for (int a = 0; a < num_nodes; ++a) v += jacobian_term<S>(k / 9, a, (k % 9) / 3, X[3 * a + k % 3]);
  return v;
}
template <class S>
KOKKOS_INLINE_FUNCTION S qp_determinant(const S* J, int q) {
  return determinant<S>(reinterpret_cast<const S(*)[3]>(J + 9 * q));
}
template <class S>
KOKKOS_INLINE_FUNCTION S qp_inverse_entry(const S* J, const S* D, int k) {
  const int q = k / 9, r = k % 9;
  return inverse_entry<S>(reinterpret_cast<const S(*)[3]>(J + 9 * q), r / 3, r % 3, D[q]);
}

// The trilinear map written in monomials: x(xi) = sum_m c_m prod_{i in m} xi_i, m a bit mask of
// reference directions, c_m = 1/8 sum_a (prod_{i in m} s_a,i) x_a. J needs the 7 non-constant
// c_m (21 values, one per lane) and then 3 multiply-adds per entry instead of 8.
KOKKOS_INLINE_FUNCTION constexpr int monomial_sign(int a, int mask) {
  int s = 1;
  for (int i = 0; i < 3; ++i)
    if ((mask >> i) & 1) s *= node_sign(a, i);
  return s;
}
// X[3a + j] is coordinate j of node a: a pointer, or one lane of a batch (mapping/hex8_batch.hpp).
template <class S, class Coords>
KOKKOS_INLINE_FUNCTION S monomial_coefficient(const Coords& X, int mask, int j) {
  S v = 0;
  for (int a = 0; a < num_nodes; ++a) v += S(monomial_sign(a, mask)) * X[3 * a + j];
  return S(0.125) * v;
}
// J(i,j) at Gauss point q from C[3m + j] = c_m,j: d/dxi_i keeps the monomials that contain xi_i.
template <class S, class Coeffs>
KOKKOS_INLINE_FUNCTION void jacobian_from_monomials(const Coeffs& C, int q, S J[3][3]) {
  const S r[3] = {qp_coord<S>(q, 0), qp_coord<S>(q, 1), qp_coord<S>(q, 2)};
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    const int m = 1 << i, m1 = m | (1 << i1), m2 = m | (1 << i2);
    for (int j = 0; j < 3; ++j)
      J[i][j] = C[3 * m + j] + r[i1] * C[3 * m1 + j] + r[i2] * C[3 * m2 + j] + r[i1] * r[i2] * C[21 + j];
  }
}

// Physical gradient of N_a at Gauss point q: g = J^{-1} dN/dxi.
template <class S, class Inv>
KOKKOS_INLINE_FUNCTION void gradient(const Inv& Jinv, int q, int a, S g[3]) {
  S d[3];
  dshape_qp<S>(q, a, d);
  for (int j = 0; j < 3; ++j) g[j] = S(Jinv[j][0]) * d[0] + S(Jinv[j][1]) * d[1] + S(Jinv[j][2]) * d[2];
}
}  // namespace kfem::hex8
