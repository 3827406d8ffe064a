// Operators, the other half of "what an element is": components per node and the element-matrix
// formula. Every generic kernel reduces an element to node-pair products
//   A_ab(i, j) = sum_q w_q det J_q g_a[i] g_b[j]    (g = physical gradient, i, j < dim)
// and the operator turns A_ab into the components x components block (a, b) of Ke:
//   elasticity       Ke(3a+c, 3b+d) = lambda A(c,d) + mu A(d,c) + mu delta_cd tr A
//   electrostatics   Ke(a, b)       = eps tr A
// The shared geometry step (J, det J, J^-1 at a quadrature point from the vertex coordinates) is here too.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/fe/elasticity.hpp"
#include "kfem/fe/family.hpp"

namespace kfem::fe {
template <class S, int Dim>
struct Products {
  S v[Dim][Dim];
  KOKKOS_INLINE_FUNCTION S operator()(int i, int j) const { return v[i][j]; }
};

template <class S>
struct Elasticity {
  static constexpr int components = 3;
  static constexpr const char* name = "elasticity";
  // Flops of the block formula per node pair, for the driver's flop model (host only).
  static constexpr double block_flops(int /*dim*/) { return 57; }
  Isotropic<S> material;
  template <int Dim>
  KOKKOS_INLINE_FUNCTION S operator()(const Products<S, Dim>& A, int c, int d) const {
    static_assert(Dim == 3, "elasticity is implemented in 3D");
    return elasticity::from_products(material, A, c, d);
  }
};

template <class S>
struct Electrostatics {
  static constexpr int components = 1;
  static constexpr const char* name = "electrostatics";
  static constexpr double block_flops(int dim) { return dim + 1; }  // trace and scale, per node pair
  S permittivity;
  template <int Dim>
  KOKKOS_INLINE_FUNCTION S operator()(const Products<S, Dim>& A, int, int) const {
    S trace = 0;
    for (int i = 0; i < Dim; ++i) trace += A.v[i][i];
    return permittivity * trace;
  }
};

// Geometry at quadrature point q of an element with vertex coordinates X[v * dim + k]:
// J(i, k) = d x_k / d xi_i; returns w_q det J and writes Jinv (J^-1, so g = Jinv dN/dxi).
template <class Family, class S, class Ref, class Coords>
KOKKOS_INLINE_FUNCTION S geometry(const Ref& ref, const Coords& X, int q, S Jinv[Family::dim][Family::dim]) {
  constexpr int D = Family::dim;
  S J[D][D] = {};
  for (int v = 0; v < Family::vertices; ++v)
    for (int i = 0; i < D; ++i) {
      const S dv = ref.dgeo(q, v, i);
      for (int k = 0; k < D; ++k) J[i][k] += dv * X[v * D + k];
    }
  S det;
  if constexpr (D == 2) {
    det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
    const S s = S(1) / det;
    Jinv[0][0] = J[1][1] * s, Jinv[0][1] = -J[0][1] * s;
    Jinv[1][0] = -J[1][0] * s, Jinv[1][1] = J[0][0] * s;
  } else {
    det = hex8::invert3<S>(J, Jinv);
  }
  return ref.weight(q) * det;
}

// g = J^-T dN/dxi from the reference gradient dn: g[k] = sum_i Jinv[k][i] dn[i] (Jinv row-major).
template <int D, class S, class Inv>
KOKKOS_INLINE_FUNCTION void physical_gradient(const Inv& Jinv, const S dn[D], S g[D]) {
  for (int k = 0; k < D; ++k) {
    S v = 0;
    for (int i = 0; i < D; ++i) v += Jinv[k][i] * dn[i];
    g[k] = v;
  }
}

// The same for shape function a at point q, its reference gradient read from the tables.
template <class Family, class S, class Ref>
KOKKOS_INLINE_FUNCTION void gradient(const Ref& ref, const S Jinv[Family::dim][Family::dim], int q, int a,
                                     S g[Family::dim]) {
  constexpr int D = Family::dim;
  S dn[D];
  for (int i = 0; i < D; ++i) dn[i] = ref.dshape(q, a, i);
  physical_gradient<D>(Jinv, dn, g);
}
}  // namespace kfem::fe
