// Host side of the cantilever boundary conditions: clamped nodes, tip nodes, tip load spreading.
#include "kfem/solve/boundary.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "kfem/core/error.hpp"

namespace kfem {
namespace {
// The 6 faces of a Gmsh-ordered hex, each as a cycle of local node ids.
constexpr int kFaces[6][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4},
                              {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};

using Point = std::array<double, 3>;

// Half the cross product of the diagonals: the exact area of a planar quad of any shape.
double quad_area(const Point& a, const Point& b, const Point& c, const Point& d) {
  const Point p{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const Point q{d[0] - b[0], d[1] - b[1], d[2] - b[2]};
  const Point n{p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]};
  return 0.5 * std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}
}  // namespace

CantileverLoad cantilever_load(const HexMesh& mesh, double total_force) {
  if (mesh.nodes.empty() || mesh.elements.empty()) throw InputError("cantilever_load: empty mesh");
  Point lo = mesh.nodes[0], hi = lo;
  for (const auto& p : mesh.nodes)
    for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], p[c]), hi[c] = std::max(hi[c], p[c]);
  const double tol = 1e-9 * std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                                      (hi[2] - lo[2]) * (hi[2] - lo[2]));

  CantileverLoad load;
  std::vector<char> on_tip(mesh.num_nodes(), 0);
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
    const double x = mesh.nodes[n][0];
    if (x - lo[0] <= tol)
      for (int c = 0; c < dofs_per_node; ++c) load.fixed_dofs.push_back(ordinal_t(dofs_per_node * n + c));
    if (hi[0] - x <= tol) {
      on_tip[n] = 1;
      load.tip_nodes.push_back(ordinal_t(n));
    }
  }

  // Tip faces: on a valid mesh a face on the bounding plane x = xmax belongs to one element only.
  std::vector<std::array<ordinal_t, 4>> faces;
  std::vector<double> areas;
  double total_area = 0;
  for (const auto& el : mesh.elements)
    for (const auto& f : kFaces) {
      const std::array<ordinal_t, 4> face{el[f[0]], el[f[1]], el[f[2]], el[f[3]]};
      if (!std::all_of(face.begin(), face.end(), [&](ordinal_t n) { return on_tip[n] != 0; })) continue;
      faces.push_back(face);
      areas.push_back(
          quad_area(mesh.nodes[face[0]], mesh.nodes[face[1]], mesh.nodes[face[2]], mesh.nodes[face[3]]));
      total_area += areas.back();
    }
  if (faces.empty() || !(total_area > 0))
    throw InputError("cantilever_load: no element face lies on the tip plane x = xmax");

  load.force.assign(mesh.num_dofs(), 0.0);
  for (std::size_t f = 0; f < faces.size(); ++f) {
    const double quarter = 0.25 * total_force * (areas[f] / total_area);
    for (ordinal_t n : faces[f]) load.force[dofs_per_node * std::size_t(n) + 2] -= quarter;
  }
  return load;
}
}  // namespace kfem
