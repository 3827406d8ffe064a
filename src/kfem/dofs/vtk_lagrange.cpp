// VTK Lagrange wedge point order, built geometrically: VTK's points are generated as integer
// lattice coordinates (p * r, p * s, p * t) in VTK's order and matched to basix's equispaced points.
#include "kfem/dofs/vtk_lagrange.hpp"

#include <cmath>
#include <map>
#include <stdexcept>

#include "kfem/fe/lagrange_basis.hpp"

namespace kfem {
namespace {
using Lattice = std::array<int, 3>;

std::vector<Lattice> vtk_lattice(int p) {
  const Lattice corner[6] = {{0, 0, 0}, {p, 0, 0}, {0, p, 0}, {0, 0, p}, {p, 0, p}, {0, p, p}};
  constexpr int edge[9][2] = {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {0, 3}, {1, 4}, {2, 5}};
  constexpr int quad[3][4] = {{0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}};  // c0 c1 c2 c3, c3 above c0
  std::vector<Lattice> pts(corner, corner + 6);
  // A + (i/p)(B - A) + (k/p)(C - A) on the lattice, for corners A, B, C.
  auto along = [&](int a, int b, int c, int i, int k) {
    Lattice x;
    for (int d = 0; d < 3; ++d)
      x[d] = corner[a][d] + (i * (corner[b][d] - corner[a][d]) + k * (corner[c][d] - corner[a][d])) / p;
    return x;
  };
  for (const auto& e : edge)
    for (int i = 1; i < p; ++i) pts.push_back(along(e[0], e[1], e[0], i, 0));
  for (int t : {0, p})
    for (int j = 1; j < p; ++j)
      for (int i = 1; i < p - j; ++i) pts.push_back({i, j, t});
  for (const auto& q : quad)
    for (int k = 1; k < p; ++k)
      for (int i = 1; i < p; ++i) pts.push_back(along(q[0], q[1], q[3], i, k));
  for (int k = 1; k < p; ++k)
    for (int j = 1; j < p; ++j)
      for (int i = 1; i < p - j; ++i) pts.push_back({i, j, k});
  return pts;
}
}  // namespace

std::vector<std::array<double, 3>> vtk_lagrange_wedge_points(int p) {
  lagrange::tabulate(CellType::prism6, p);  // validates p
  std::vector<std::array<double, 3>> out;
  for (const Lattice& x : vtk_lattice(p))
    out.push_back({double(x[0]) / p, double(x[1]) / p, double(x[2]) / p});
  return out;
}

namespace {
// vtk_to_local for VTK's lattice points of a cell of order p: each matched to basix's node there.
std::vector<int> match_basix(CellType cell, int p, const std::vector<Lattice>& vtk) {
  const lagrange::Basis& b = lagrange::tabulate(cell, p);
  std::map<Lattice, int> local;
  for (int a = 0; a < b.nsh; ++a) {
    const auto& x = b.points[a];
    local[{int(std::lround(p * x[0])), int(std::lround(p * x[1])), int(std::lround(p * x[2]))}] = a;
  }
  if (vtk.size() != std::size_t(b.nsh) || local.size() != std::size_t(b.nsh))
    throw std::logic_error("vtk_lagrange: point counts differ from N_sh");
  std::vector<int> out;
  out.reserve(vtk.size());
  for (const Lattice& x : vtk) {
    const auto it = local.find(x);
    if (it == local.end()) throw std::logic_error("vtk_lagrange: a VTK point is no basix node");
    out.push_back(it->second);
  }
  return out;
}
}  // namespace

std::vector<int> vtk_lagrange_wedge_to_local(int p) {
  lagrange::tabulate(CellType::prism6, p);  // validates p
  return match_basix(CellType::prism6, p, vtk_lattice(p));
}

std::vector<int> vtk_quadratic_tetra_to_local() {
  // Vertices, then the midpoints of edges 0-1, 1-2, 2-0, 0-3, 1-3, 2-3 (lattice of order 2).
  return match_basix(CellType::tet4, 2,
                     {{0, 0, 0},
                      {2, 0, 0},
                      {0, 2, 0},
                      {0, 0, 2},
                      {1, 0, 0},
                      {1, 1, 0},
                      {0, 1, 0},
                      {0, 0, 1},
                      {1, 0, 1},
                      {0, 1, 1}});
}
}  // namespace kfem
