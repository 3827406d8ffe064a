// basix side of lagrange_basis.hpp: element creation, quadrature and tabulation, cached per cell
// and order.
// Compiled as C++20 host code in its own library (kfem_basix); nothing of basix leaks into the
// C++17 header.
#include "kfem/fe/lagrange_basis.hpp"

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

namespace kfem::lagrange {
namespace {
void check(CellType c, int p) {
  if (!has_basis(c))
    throw InputError(std::string("no P_p basis for ") + cell_name(c) +
                     " cells (prisms and tetrahedra have one)");
  if (p < min_order || p > max_order)
    throw InputError("element order p = " + std::to_string(p) + ": " +
                     (c == CellType::tet4 ? "tetrahedra" : "prisms") + " support 1..7");
}

basix::cell::type basix_cell(CellType c) {
  return c == CellType::tet4 ? basix::cell::type::tetrahedron : basix::cell::type::prism;
}

basix::FiniteElement make_element(CellType c, int p) {
  return basix::element::create_lagrange(basix_cell(c), p, basix::element::lagrange_variant::equispaced,
                                         false);
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
    throw std::logic_error("lagrange_basis: unexpected basix tabulate shape");
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

// The basix elements of each cell and order are built once; the entries live until exit.
Entry& entry(CellType c, int p) {
  static Entry entries[2][max_order + 1];
  return entries[c == CellType::tet4 ? 1 : 0][p];
}

void build(CellType c, int p, Entry& out) {
  out.element = std::make_unique<basix::FiniteElement>(make_element(c, p));
  const basix::FiniteElement& e = *out.element;
  Basis& b = out.basis;
  b.cell = c;
  b.order = p;
  b.nsh = e.dim();
  b.vertices = cell_vertices(c);
  if (b.nsh != num_shape_functions(c, p))
    throw std::logic_error("lagrange_basis: basix element has wrong dimension");

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

  if (c == CellType::tet4) {
    // basix's default rule of degree 2(p - 1) (Xiao-Gimbutas; degree 0 is the centroid).
    const auto rule = basix::quadrature::make_quadrature(basix::cell::type::tetrahedron, 2 * (p - 1));
    b.nq = int(rule[1].size());
    for (int q = 0; q < b.nq; ++q) {
      b.qpoints.push_back({rule[0][3 * q], rule[0][3 * q + 1], rule[0][3 * q + 2]});
      b.weights.push_back(rule[1][q]);
    }
  } else {
    // Triangle rule exact to degree 2p (basix's default, Xiao-Gimbutas here) times the Gauss-Jacobi
    // (= Gauss-Legendre) rule on [0,1] with p + 1 points, which is exact to degree 2p + 1.
    const auto tri = basix::quadrature::make_quadrature(basix::cell::type::triangle, 2 * p);
    const auto line = basix::quadrature::make_quadrature(basix::cell::type::interval, 2 * p + 1);
    const std::size_t nt = tri[1].size(), nz = line[1].size();
    if (nz != std::size_t(p + 1)) throw std::logic_error("lagrange_basis: unexpected Gauss-Legendre size");
    b.nq = int(nt * nz);
    for (std::size_t k = 0; k < nz; ++k)
      for (std::size_t t = 0; t < nt; ++t) {
        b.qpoints.push_back({tri[0][2 * t], tri[0][2 * t + 1], line[0][k]});
        b.weights.push_back(tri[1][t] * line[1][k]);
      }
  }

  tabulate_at(e, b.qpoints, b.values, &b.dshape);
  if (p == 1) {
    b.dgeo = b.dshape;  // isoparametric
  } else {
    std::vector<double> v1;
    tabulate_at(make_element(c, 1), b.qpoints, v1, &b.dgeo);
  }
}

// basix's topology of the cell: the vertices of its sub-entities, by dimension.
std::vector<std::vector<std::vector<int>>> topology(CellType c) {
  return basix::cell::topology(basix_cell(c));
}
}  // namespace

std::array<double, 3> reference_vertex(CellType c, int v) {
  const std::array<double, 3> lattice[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  if (c == CellType::prism6) {
    std::array<double, 3> x = lattice[v % 3];
    x[2] = v / 3;
    return x;
  }
  return lattice[v];
}

std::array<double, max_vertices> vertex_functions(CellType c, const std::array<double, 3>& xi) {
  std::array<double, max_vertices> n{};
  if (c == CellType::tet4) {
    n[0] = 1 - xi[0] - xi[1] - xi[2], n[1] = xi[0], n[2] = xi[1], n[3] = xi[2];
    return n;
  }
  const double l[3] = {1 - xi[0] - xi[1], xi[0], xi[1]};
  for (int v = 0; v < 3; ++v) n[v] = l[v] * (1 - xi[2]), n[v + 3] = l[v] * xi[2];
  return n;
}

const std::vector<std::array<int, 2>>& edges(CellType c) {
  static const auto make = [](CellType cell) {
    const auto t = topology(cell);  // kept alive: the loop reads one of its members
    std::vector<std::array<int, 2>> r;
    for (const auto& v : t[1]) r.push_back({v[0], v[1]});
    return r;
  };
  static const std::vector<std::array<int, 2>> prism = make(CellType::prism6), tet = make(CellType::tet4);
  return c == CellType::tet4 ? tet : prism;
}

const std::vector<std::vector<int>>& faces(CellType c) {
  static const std::vector<std::vector<int>> prism = topology(CellType::prism6)[2],
                                             tet = topology(CellType::tet4)[2];
  return c == CellType::tet4 ? tet : prism;
}

const Basis& tabulate(CellType c, int p) {
  check(c, p);
  Entry& e = entry(c, p);
  std::call_once(e.once, build, c, p, std::ref(e));
  return e.basis;
}

void evaluate(CellType c, int p, const std::vector<std::array<double, 3>>& x, std::vector<double>& values,
              std::vector<double>* derivs) {
  tabulate(c, p);  // builds the element once (and validates the cell and p)
  tabulate_at(*entry(c, p).element, x, values, derivs);
}
}  // namespace kfem::lagrange
