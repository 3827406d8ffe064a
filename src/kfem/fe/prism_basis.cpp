// basix side of prism_basis.hpp: element creation, quadrature and tabulation, cached per order.
// Compiled as C++20 host code in its own library (kfem_basix); nothing of basix leaks into the
// C++17 header.
#include "kfem/fe/prism_basis.hpp"

// basix 0.5.1 uses std::int32_t without including <cstdint>; GCC 13 no longer brings it in
// transitively (the CUDA machines build with GCC 13), so it comes first.
#include <cstdint>
// clang-format off
#include <basix/cell.h>
#include <basix/e-lagrange.h>
#include <basix/finite-element.h>
#include <basix/quadrature.h>
// clang-format on

#include <cmath>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>

#include "kfem/core/error.hpp"

namespace kfem::prism {
namespace {
void check_order(int p) {
  if (p < min_order || p > max_order)
    throw InputError("element order p = " + std::to_string(p) + ": prisms support 1..7");
}

basix::FiniteElement make_element(int p) {
  return basix::element::create_lagrange(basix::cell::type::prism, p,
                                         basix::element::lagrange_variant::equispaced, false);
}

// basix tabulate with first derivatives; data layout (derivative, point, function, value):
// derivative 0 is the value, 1..3 are d/dx, d/dy, d/dz (basix::indexing::idx order in 3D).
void tabulate_at(const basix::FiniteElement& e, const std::vector<std::array<double, 3>>& x,
                 std::vector<double>& values, std::vector<double>* derivs) {
  const std::size_t n = x.size(), nsh = std::size_t(e.dim());
  std::vector<double> flat(3 * n);
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) flat[3 * i + k] = x[i][k];
  const int nd = derivs ? 1 : 0;
  const auto [data, shape] = e.tabulate(nd, std::span<const double>(flat), {n, 3});
  if (shape[1] != n || shape[2] != nsh || shape[3] != 1)
    throw std::logic_error("prism_basis: unexpected basix tabulate shape");
  values.assign(data.begin(), data.begin() + std::ptrdiff_t(n * nsh));
  if (derivs) {
    derivs->assign(n * nsh * 3, 0.0);
    for (std::size_t q = 0; q < n; ++q)
      for (std::size_t a = 0; a < nsh; ++a)
        for (std::size_t k = 0; k < 3; ++k)
          (*derivs)[(q * nsh + a) * 3 + k] = data[((k + 1) * n + q) * nsh + a];
  }
}

struct Entry {
  std::once_flag once;
  std::unique_ptr<basix::FiniteElement> element;
  Basis basis;
};

// The basix elements of order p are built once; the entries live until exit.
Entry& entry(int p) {
  static Entry entries[max_order + 1];
  return entries[p];
}

void build(int p, Entry& out) {
  out.element = std::make_unique<basix::FiniteElement>(make_element(p));
  const basix::FiniteElement& e = *out.element;
  Basis& b = out.basis;
  b.order = p;
  b.nsh = e.dim();
  if (b.nsh != num_shape_functions(p))
    throw std::logic_error("prism_basis: basix element has wrong dimension");

  const auto& [pts, pshape] = e.points();
  b.points.resize(b.nsh);
  for (int a = 0; a < b.nsh; ++a)
    for (int k = 0; k < 3; ++k) b.points[a][k] = pts[a * pshape[1] + k];

  b.entity_dim.assign(b.nsh, -1);
  b.entity.assign(b.nsh, -1);
  const auto& edofs = e.entity_dofs();
  for (std::size_t d = 0; d < edofs.size(); ++d)
    for (std::size_t ent = 0; ent < edofs[d].size(); ++ent)
      for (int a : edofs[d][ent]) b.entity_dim[a] = int(d), b.entity[a] = int(ent);

  // Triangle rule exact to degree 2p (basix's default, Xiao-Gimbutas here) times the Gauss-Jacobi
  // (= Gauss-Legendre) rule on [0,1] with p + 1 points, which is exact to degree 2p + 1.
  const auto tri = basix::quadrature::make_quadrature(basix::cell::type::triangle, 2 * p);
  const auto line = basix::quadrature::make_quadrature(basix::cell::type::interval, 2 * p + 1);
  const std::size_t nt = tri[1].size(), nz = line[1].size();
  if (nz != std::size_t(p + 1)) throw std::logic_error("prism_basis: unexpected Gauss-Legendre size");
  b.nq = int(nt * nz);
  for (std::size_t k = 0; k < nz; ++k)
    for (std::size_t t = 0; t < nt; ++t) {
      b.qpoints.push_back({tri[0][2 * t], tri[0][2 * t + 1], line[0][k]});
      b.weights.push_back(tri[1][t] * line[1][k]);
    }

  tabulate_at(e, b.qpoints, b.values, &b.dshape);
  if (p == 1) {
    b.dgeo = b.dshape;  // isoparametric
  } else {
    std::vector<double> v1;
    tabulate_at(make_element(1), b.qpoints, v1, &b.dgeo);
  }
}
}  // namespace

const std::vector<std::array<int, 2>>& edges() {
  static const std::vector<std::array<int, 2>> e = [] {
    const auto topology = basix::cell::topology(basix::cell::type::prism);  // keep it alive
    std::vector<std::array<int, 2>> r;
    for (const auto& v : topology[1]) r.push_back({v[0], v[1]});
    return r;
  }();
  return e;
}

const std::vector<std::vector<int>>& faces() {
  static const std::vector<std::vector<int>> f = basix::cell::topology(basix::cell::type::prism)[2];
  return f;
}

const Basis& tabulate(int p) {
  check_order(p);
  Entry& e = entry(p);
  std::call_once(e.once, build, p, std::ref(e));
  return e.basis;
}

void evaluate(int p, const std::vector<std::array<double, 3>>& x, std::vector<double>& values,
              std::vector<double>* derivs) {
  tabulate(p);  // builds the element once (and validates p)
  tabulate_at(*entry(p).element, x, values, derivs);
}
}  // namespace kfem::prism
