// Host tabulations of the element families' reference data.
#include "kfem/fe/family.hpp"

#include "kfem/fe/hex8.hpp"
#include "kfem/fe/lagrange_basis.hpp"

namespace kfem::fe {
HostReference host_reference(Tri3) {
  // P1 on the reference triangle (0,0) (1,0) (0,1): N = 1 - x - y, x, y. The stiffness integrand is
  // constant, so one point of weight 1/2 (the reference area) integrates it exactly.
  HostReference r{1, 3, 1, 2, 3, {0.5}, {}, {}};
  r.dshape = {-1, -1, 1, 0, 0, 1};
  r.dgeo = r.dshape;
  return r;
}

HostReference host_reference(Hex8) {
  HostReference r{1, 8, hex8::num_qp, 3, 8, std::vector<double>(hex8::num_qp, 1.0), {}, {}};
  for (int q = 0; q < hex8::num_qp; ++q)
    for (int a = 0; a < 8; ++a)
      for (int k = 0; k < 3; ++k) r.dshape.push_back(hex8::dshape_qp<double>(q, a, k));
  r.dgeo = r.dshape;  // isoparametric
  return r;
}

HostReference host_reference(Lagrange, CellType cell, int order) {
  const lagrange::Basis& b = lagrange::tabulate(cell, order);
  constexpr int V = Lagrange::vertices;
  std::vector<double> dgeo(std::size_t(b.nq) * V * 3, 0.0);
  for (int q = 0; q < b.nq; ++q)
    for (int v = 0; v < b.vertices; ++v)
      for (int k = 0; k < 3; ++k) dgeo[(q * V + v) * 3 + k] = b.dgeo[(q * b.vertices + v) * 3 + k];
  return {order, b.nsh, b.nq, 3, V, b.weights, dgeo, b.dshape};
}
}  // namespace kfem::fe
