// Cantilever boundary conditions: clamped DOF nodes, tip DOF nodes, consistent tip load
// (hex8 faces in closed form, prism and tetrahedron faces by quadrature), and the Timoshenko reference.
#include "kfem/problems/cantilever.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "kfem/core/error.hpp"
#include "kfem/fe/lagrange_basis.hpp"

namespace kfem {
namespace {
using Point = std::array<double, 3>;

// The 6 faces of a Gmsh-ordered hex, each as a cycle of local node ids.
constexpr int kHexFaces[6][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                 {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};

// Half the cross product of the diagonals: the exact area of a planar quad of any shape.
double quad_area(const Point& a, const Point& b, const Point& c, const Point& d) {
  const Point p{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const Point q{d[0] - b[0], d[1] - b[1], d[2] - b[2]};
  const Point n{p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]};
  return 0.5 * std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

Point cross(const Point& a, const Point& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// x == xmin / x == xmax within 1e-9 of the bounding-box diagonal of `points`.
struct XPlanes {
  double lo = 0, hi = 0, tol = 0;
  explicit XPlanes(const std::vector<Point>& points) {
    Point a = points.front(), b = a;
    for (const auto& p : points)
      for (int c = 0; c < 3; ++c) a[c] = std::min(a[c], p[c]), b[c] = std::max(b[c], p[c]);
    lo = a[0], hi = b[0];
    tol = 1e-9 * std::sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
                           (b[2] - a[2]) * (b[2] - a[2]));
  }
  bool at_min(double x) const { return x - lo <= tol; }
  bool at_max(double x) const { return hi - x <= tol; }
};

// Clamped DOFs (x == xmin) and tip nodes (x == xmax) from the DOF node positions.
CantileverLoad clamp_and_tip(const std::vector<Point>& positions, const XPlanes& planes) {
  CantileverLoad load;
  for (std::size_t n = 0; n < positions.size(); ++n) {
    if (planes.at_min(positions[n][0]))
      for (int c = 0; c < dofs_per_node; ++c) load.fixed_dofs.push_back(ordinal_t(dofs_per_node * n + c));
    if (planes.at_max(positions[n][0])) load.tip_nodes.push_back(ordinal_t(n));
  }
  return load;
}

CantileverLoad hex8_load(const Mesh& mesh, double total_force) {
  const XPlanes planes(mesh.nodes);
  CantileverLoad load = clamp_and_tip(mesh.nodes, planes);
  std::vector<char> on_tip(mesh.num_nodes(), 0);
  for (ordinal_t n : load.tip_nodes) on_tip[n] = 1;

  // Tip faces: on a valid mesh a face on the bounding plane x = xmax belongs to one element only.
  std::vector<std::array<ordinal_t, 4>> faces;
  std::vector<double> areas;
  double total_area = 0;
  for (const auto& el : mesh.elements)
    for (const auto& f : kHexFaces) {
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

// Gauss-Legendre rule with n points on [0, 1] (Newton on P_n from the Chebyshev guesses).
void gauss_legendre(int n, std::vector<double>& x, std::vector<double>& w) {
  const double pi = std::acos(-1.0);
  x.assign(n, 0.0);
  w.assign(n, 0.0);
  for (int i = 0; i < n; ++i) {
    double t = std::cos(pi * (i + 0.75) / (n + 0.5)), dp = 1;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1, p1 = t;  // P_0, P_1, then the three-term recurrence up to P_n
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2 * k - 1) * t * p1 - (k - 1) * p0) / k;
        p0 = p1, p1 = p2;
      }
      dp = n * (t * p1 - p0) / (t * t - 1);
      const double dt = p1 / dp;
      t -= dt;
      if (std::abs(dt) < 1e-16) break;
    }
    x[i] = 0.5 * (1 - t);
    w[i] = 1.0 / ((1 - t * t) * dp * dp);  // 2 / ((1 - t^2) P_n'(t)^2), halved for [0, 1]
  }
}

// One face of a reference cell: its local vertices, and the affine map from the face parameters
// (s, t) (the unit triangle or square) into the reference cell. lagrange::faces lists a
// quadrilateral's corners in tensor order (0-1 and 0-2 are its edges from corner 0).
struct RefFace {
  std::vector<int> vertices;
  Point origin, ds, dt;
  bool triangle;
};

std::vector<RefFace> reference_faces(CellType cell) {
  std::vector<RefFace> out;
  for (const auto& f : lagrange::faces(cell)) {
    const Point o = lagrange::reference_vertex(cell, f[0]), b = lagrange::reference_vertex(cell, f[1]),
                c = lagrange::reference_vertex(cell, f[2]);
    out.push_back({f,
                   o,
                   {b[0] - o[0], b[1] - o[1], b[2] - o[2]},
                   {c[0] - o[0], c[1] - o[1], c[2] - o[2]},
                   f.size() == 3});
  }
  return out;
}

CantileverLoad lagrange_load(const Mesh& mesh, const DofMap& dofs, double total_force) {
  const int p = dofs.order, V = mesh.nodes_per_element();
  const int nsh = lagrange::num_shape_functions(mesh.cell, p);
  if (dofs.nodes_per_element != nsh || dofs.num_elements() != mesh.num_elements() ||
      dofs.positions.size() != std::size_t(dofs.num_nodes))
    throw InputError(fmt::format(
        "cantilever_load: DOF map ({} nodes per element, {} elements) does not fit the "
        "order-{} {} mesh ({} elements)",
        dofs.nodes_per_element, dofs.num_elements(), p, cell_name(mesh.cell), mesh.num_elements()));
  const XPlanes planes(dofs.positions);
  CantileverLoad load = clamp_and_tip(dofs.positions, planes);
  std::vector<char> dof_on_tip(std::size_t(dofs.num_nodes), 0);
  for (ordinal_t n : load.tip_nodes) dof_on_tip[n] = 1;

  // Face rule, exact for N_a (degree p per direction) times the surface Jacobian (degree <= 1
  // per direction on a planar face): n = p + 2 points per direction; collapsed onto triangles.
  const int n = p + 2;
  std::vector<double> gx, gw;
  gauss_legendre(n, gx, gw);
  const auto faces = reference_faces(mesh.cell);
  struct FaceRule {
    std::vector<Point> points;  // reference cell coordinates
    std::vector<double> weights;
    std::vector<double> values;  // N_a at the points: [q * nsh + a]
    std::vector<double> dgeo;    // gradients of the vertex functions (P1): [(q * V + v) * 3 + k]
  };
  std::vector<FaceRule> rules(faces.size());
  for (std::size_t f = 0; f < faces.size(); ++f) {
    const RefFace& rf = faces[f];
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const double s = gx[i], t = rf.triangle ? gx[j] * (1 - gx[i]) : gx[j];
        const double w = gw[i] * gw[j] * (rf.triangle ? 1 - gx[i] : 1.0);
        rules[f].points.push_back({rf.origin[0] + s * rf.ds[0] + t * rf.dt[0],
                                   rf.origin[1] + s * rf.ds[1] + t * rf.dt[1],
                                   rf.origin[2] + s * rf.ds[2] + t * rf.dt[2]});
        rules[f].weights.push_back(w);
      }
    lagrange::evaluate(mesh.cell, p, rules[f].points, rules[f].values);
    std::vector<double> vertex_values;
    lagrange::evaluate(mesh.cell, 1, rules[f].points, vertex_values, &rules[f].dgeo);
  }

  std::vector<double> integral(std::size_t(dofs.num_nodes), 0.0);  // int N_a dA over the tip
  double total_area = 0;
  bool any_face = false;
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) {
    const auto& el = mesh.elements[e];
    for (std::size_t f = 0; f < faces.size(); ++f) {
      const auto& vs = faces[f].vertices;
      if (!std::all_of(vs.begin(), vs.end(), [&](int k) { return planes.at_max(mesh.nodes[el[k]][0]); }))
        continue;
      any_face = true;
      const FaceRule& rule = rules[f];
      const ordinal_t* nodes = dofs.element(e);
      for (std::size_t q = 0; q < rule.weights.size(); ++q) {
        Point ts{0, 0, 0}, tt{0, 0, 0};  // physical tangents J ds, J dt
        for (int k = 0; k < V; ++k) {
          const double* g = &rule.dgeo[(q * V + k) * 3];
          const double gs = g[0] * faces[f].ds[0] + g[1] * faces[f].ds[1] + g[2] * faces[f].ds[2];
          const double gt = g[0] * faces[f].dt[0] + g[1] * faces[f].dt[1] + g[2] * faces[f].dt[2];
          for (int c = 0; c < 3; ++c) ts[c] += gs * mesh.nodes[el[k]][c], tt[c] += gt * mesh.nodes[el[k]][c];
        }
        const Point nrm = cross(ts, tt);
        const double da = rule.weights[q] * std::sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
        total_area += da;
        // N_a of a node off the face vanishes there; skipping those keeps rounding off them.
        for (int a = 0; a < nsh; ++a)
          if (dof_on_tip[nodes[a]]) integral[nodes[a]] += da * rule.values[q * nsh + a];
      }
    }
  }
  double loaded = 0;
  for (double v : integral) loaded += v;
  if (!any_face || !(total_area > 0) || !(loaded > 0))
    throw InputError("cantilever_load: no element face lies on the tip plane x = xmax");

  // Normalised by the loaded sum rather than the area, so the loads sum to total_force exactly.
  load.force.assign(std::size_t(dofs_per_node) * std::size_t(dofs.num_nodes), 0.0);
  for (std::size_t a = 0; a < integral.size(); ++a)
    if (integral[a] != 0.0) load.force[dofs_per_node * a + 2] = -total_force * (integral[a] / loaded);
  return load;
}
}  // namespace

CantileverLoad cantilever_load(const Mesh& mesh, double total_force) {
  if (mesh.nodes.empty() || mesh.elements.empty()) throw InputError("cantilever_load: empty mesh");
  if (mesh.cell == CellType::hex8) return hex8_load(mesh, total_force);
  DofMap vertices;  // order 1: the DOF nodes are the vertices
  vertices.order = 1;
  vertices.nodes_per_element = mesh.nodes_per_element();
  vertices.num_nodes = ordinal_t(mesh.num_nodes());
  vertices.positions = mesh.nodes;
  vertices.element_nodes.reserve(mesh.num_elements() * std::size_t(vertices.nodes_per_element));
  for (const auto& el : mesh.elements)
    vertices.element_nodes.insert(vertices.element_nodes.end(), el.begin(),
                                  el.begin() + vertices.nodes_per_element);
  vertices.per_entity_dim = {vertices.num_nodes, 0, 0, 0};
  return cantilever_load(mesh, vertices, total_force);
}

CantileverLoad cantilever_load(const Mesh& mesh, const DofMap& dofs, double total_force) {
  if (mesh.nodes.empty() || mesh.elements.empty() || dofs.num_nodes == 0)
    throw InputError("cantilever_load: empty mesh");
  switch (mesh.cell) {
    case CellType::hex8:
      if (dofs.order != 1 || std::size_t(dofs.num_nodes) != mesh.num_nodes())
        throw InputError(
            fmt::format("cantilever_load: hex8 meshes have vertex DOFs only (got order {})", dofs.order));
      return hex8_load(mesh, total_force);
    case CellType::prism6:
    case CellType::tet4:
      return lagrange_load(mesh, dofs, total_force);
    default:
      throw InputError(
          fmt::format("cantilever_load: the cantilever needs a 3D mesh, not {}", cell_name(mesh.cell)));
  }
}

double tip_deflection(const std::vector<double>& u, const std::vector<ordinal_t>& tip_nodes) {
  if (tip_nodes.empty()) return 0.0;
  double sum = 0;
  for (ordinal_t n : tip_nodes) sum += u.at(dofs_per_node * std::size_t(n) + 2);
  return sum / double(tip_nodes.size());
}

double timoshenko_tip_deflection(double P, double L, double b, double h, double E, double nu) {
  const double I = b * h * h * h / 12.0;
  const double A = b * h;
  const double G = E / (2.0 * (1.0 + nu));
  const double kappa = 10.0 * (1.0 + nu) / (12.0 + 11.0 * nu);
  return P * L * L * L / (3.0 * E * I) + P * L / (kappa * G * A);
}
}  // namespace kfem
