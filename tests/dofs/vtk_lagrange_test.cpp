// The VTK Lagrange wedge point order: a permutation onto the basix nodes that keeps the vertices,
// checked against VTK's point-index formula (vtkHigherOrderWedge::PointIndexFromIJK, re-derived
// here from its documented rules) and against the explicit p = 2 layout.
#include "kfem/dofs/vtk_lagrange.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "kfem/core/error.hpp"
#include "kfem/fe/lagrange_basis.hpp"

namespace kfem {
namespace {
// VTK's point index of lattice point (i, j, k) = p * (r, s, t) in an order-n wedge: vertices;
// edges 0-1, 1-2, 2-0 (bottom), 3-4, 4-5, 5-3 (top), then the vertical ones; bottom then top
// triangle interiors; quads on s = 0, on r + s = 1, on r = 0; the interior by t-layers.
int vtk_index(int i, int j, int k, int n) {
  const bool ib = i == 0, jb = j == 0, ijb = i + j == n, kb = k == 0 || k == n;
  const int nb = ib + jb + ijb + kb;
  const int corner = ib && jb ? 0 : (jb && ijb ? 1 : 2);  // which triangle vertex column
  auto tri = [n](int a, int b) {                          // interior triangle node (a, b), rows of constant b
    const int r = b - 1, m = n - 3;
    return r * (m + 1) - r * (r - 1) / 2 + (a - 1);
  };
  if (nb == 3) return corner + (k ? 3 : 0);
  int off = 6;
  if (nb == 2) {
    if (!kb) return off + 6 * (n - 1) + corner * (n - 1) + (k - 1);
    off += k == n ? 3 * (n - 1) : 0;
    if (jb) return off + i - 1;  // edge 0-1: i grows from vertex 0
    off += n - 1;
    if (ijb) return off + j - 1;  // edge 1-2: j grows from vertex 1
    off += n - 1;
    return off + (n - j - 1);  // edge 2-0: runs from vertex 2 down to 0
  }
  off += 9 * (n - 1);
  const int ntf = (n - 1) * (n - 2) / 2, nqf = (n - 1) * (n - 1);
  if (nb == 1) {
    if (kb) return off + (k ? ntf : 0) + tri(i, j);
    off += 2 * ntf;
    if (jb) return off + (i - 1) + (n - 1) * (k - 1);
    off += nqf;
    if (ijb) return off + (j - 1) + (n - 1) * (k - 1);
    off += nqf;
    return off + (n - j - 1) + (n - 1) * (k - 1);
  }
  return off + 2 * ntf + 3 * nqf + ntf * (k - 1) + tri(i, j);
}

TEST(VtkLagrangeWedge, IsAPermutationKeepingTheVertices) {
  for (int p = 1; p <= 7; ++p) {
    const auto perm = vtk_lagrange_wedge_to_local(p);
    ASSERT_EQ(perm.size(), std::size_t(lagrange::num_shape_functions(CellType::prism6, p)));
    std::vector<int> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> iota(perm.size());
    std::iota(iota.begin(), iota.end(), 0);
    EXPECT_EQ(sorted, iota) << "p = " << p;
    for (int v = 0; v < 6; ++v) EXPECT_EQ(perm[v], v);
    // VTK point k and basix node perm[k] are the same reference point.
    const auto vtk = vtk_lagrange_wedge_points(p);
    const auto& b = lagrange::tabulate(CellType::prism6, p);
    for (std::size_t k = 0; k < perm.size(); ++k)
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(vtk[k][c], b.points[perm[k]][c], 1e-13);
  }
}

TEST(VtkLagrangeWedge, MatchesThePointIndexFormula) {
  for (int p = 1; p <= 7; ++p) {
    const auto perm = vtk_lagrange_wedge_to_local(p);
    const auto& b = lagrange::tabulate(CellType::prism6, p);
    for (std::size_t k = 0; k < perm.size(); ++k) {
      const auto& x = b.points[perm[k]];
      const int i = int(std::lround(p * x[0])), j = int(std::lround(p * x[1])),
                l = int(std::lround(p * x[2]));
      EXPECT_EQ(vtk_index(i, j, l, p), int(k)) << "p = " << p << " point " << k;
    }
  }
}

TEST(VtkLagrangeWedge, QuadraticLayout) {
  // 6 vertices, edge midpoints (01 12 20 34 45 53 03 14 25), centres of quads 0143, 1254, 2035.
  const std::vector<std::array<double, 3>> expect = {
      {0, 0, 0},  {1, 0, 0},   {0, 1, 0},  {0, 0, 1},   {1, 0, 1},    {0, 1, 1},
      {.5, 0, 0}, {.5, .5, 0}, {0, .5, 0}, {.5, 0, 1},  {.5, .5, 1},  {0, .5, 1},
      {0, 0, .5}, {1, 0, .5},  {0, 1, .5}, {.5, 0, .5}, {.5, .5, .5}, {0, .5, .5}};
  EXPECT_EQ(vtk_lagrange_wedge_points(2), expect);
}

TEST(VtkLagrangeWedge, BadOrderThrows) {
  EXPECT_THROW(vtk_lagrange_wedge_to_local(0), InputError);
  EXPECT_THROW(vtk_lagrange_wedge_to_local(8), InputError);
}
}  // namespace
}  // namespace kfem
