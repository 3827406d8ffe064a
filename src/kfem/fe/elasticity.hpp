// Isotropic linear elasticity in 3D, the node-pair form (kiran eq. 13): Ke(3a+c, 3b+d) is the
// integral of
//   lambda g_a[c] g_b[d] + mu g_a[d] g_b[c] + mu delta_cd (g_a . g_b),
// which equals B^T D B entry by entry but needs no 6 x 3N B. Every elasticity mapping evaluates Ke
// through `from_products` (directly or via `entry` / `add_block`); only the work split differs.
// The material and these formulas serve any 3D family; hex8_body_force is hex8's.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/fe/hex8.hpp"

namespace kfem {
template <class S>
struct Isotropic {
  S lambda;
  S mu;
  KOKKOS_INLINE_FUNCTION static Isotropic from_young(double E, double nu) {
    return {S(E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu))), S(E / (2.0 * (1.0 + nu)))};
  }
  // The 6x6 D of eq. 13 (Voigt order xx, yy, zz, xy, yz, zx; engineering shear strains).
  KOKKOS_INLINE_FUNCTION void voigt(S D[6][6]) const {
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) D[i][j] = S(0);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) D[i][j] = lambda;
      D[i][i] = lambda + S(2) * mu;
      D[3 + i][3 + i] = mu;
    }
  }
};

namespace elasticity {
// Ke(3a+c, 3b+d) from the products P(i,j) = g_a[i] g_b[j] (or their sum over Gauss points, each
// weighted by w det J): the one place the elasticity tensor is applied (add_products below writes
// the same terms for owners that sum them into their rows).
template <class S, class P>
KOKKOS_INLINE_FUNCTION S from_products(const Isotropic<S>& m, const P& p, int c, int d) {
  S v = m.lambda * p(c, d) + m.mu * p(d, c);
  if (c == d) v += m.mu * (p(0, 0) + p(1, 1) + p(2, 2));
  return v;
}
// acc + from_products(m, p, c, d), its terms added onto acc one by one (multiply-adds): an owner
// that sums Ke into its rows saves an add per entry. The same terms, in another rounding order.
template <class S, class P>
KOKKOS_INLINE_FUNCTION S add_products(const Isotropic<S>& m, const P& p, int c, int d, S acc) {
  if (c == d) acc += m.mu * (p(0, 0) + p(1, 1) + p(2, 2));
  acc += m.mu * p(d, c);
  return acc + m.lambda * p(c, d);
}

// Contribution of one quadrature point (weight*detJ = wd) to Ke(3a+c, 3b+d).
template <class S>
KOKKOS_INLINE_FUNCTION S entry(const Isotropic<S>& m, S wd, const S ga[3], const S gb[3], int c, int d) {
  return wd * from_products(
                  m, [&](int i, int j) { return ga[i] * gb[j]; }, c, d);
}

// Adds the 3x3 node block (a,b) of one quadrature point to K (the same formula, unrolled; the
// compiler shares the dot product of the three diagonal entries).
template <class S>
KOKKOS_INLINE_FUNCTION void add_block(const Isotropic<S>& m, S wd, const S ga[3], const S gb[3], S K[3][3]) {
  for (int c = 0; c < 3; ++c)
    for (int d = 0; d < 3; ++d) K[c][d] += entry(m, wd, ga, gb, c, d);
}

// Consistent nodal body force of a uniform load f (force per volume): integral of N_a f.
template <class S, class Coords>
KOKKOS_INLINE_FUNCTION void hex8_body_force(const Coords& X, const S f[3], S Fe[24]) {
  for (int i = 0; i < 24; ++i) Fe[i] = S(0);
  for (int q = 0; q < hex8::num_qp; ++q) {
    S J[3][3], Jinv[3][3];
    hex8::jacobian<S>(X, q, J);
    const S det = hex8::invert3<S>(J, Jinv);
    const S xi = hex8::qp_coord<S>(q, 0), eta = hex8::qp_coord<S>(q, 1), zeta = hex8::qp_coord<S>(q, 2);
    for (int a = 0; a < hex8::num_nodes; ++a) {
      const S w = hex8::shape<S>(a, xi, eta, zeta) * det;
      for (int c = 0; c < 3; ++c) Fe[3 * a + c] += w * f[c];
    }
  }
}
}  // namespace elasticity
}  // namespace kfem
