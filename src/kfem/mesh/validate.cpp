// Jacobian-based element checks and element volumes for tri3, tet4, prism6 and hex8.
#include "kfem/mesh/validate.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <sstream>
#include <vector>

#include "kfem/core/error.hpp"
#include "kfem/fe/hex8.hpp"

namespace kfem {
namespace {
// det J / (product of J's row lengths), the scaled Jacobian in [-1, 1], must exceed this: free of
// size and aspect ratio, and rounding leaves a truly flat but rotated element at ~1e-16.
constexpr double kMinScaledJacobian = 1e-12;

using Coords = double[8][3];

void gather(const Mesh& mesh, std::size_t e, Coords X) {
  const int n = mesh.nodes_per_element();
  for (int a = 0; a < n; ++a)
    for (int j = 0; j < 3; ++j) X[a][j] = mesh.nodes[mesh.elements[e][a]][j];
}

// Prism sample points: the 6 vertices, then the 6 Gauss points (3-point triangle rule with points
// (1/6,1/6), (2/3,1/6), (1/6,2/3) x 2-point Gauss in z), each of weight 1/12.
void prism_point(int p, double r[3]) {
  constexpr double kVertex[6][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
  constexpr double kTri[3][2] = {{1.0 / 6, 1.0 / 6}, {2.0 / 3, 1.0 / 6}, {1.0 / 6, 2.0 / 3}};
  if (p < 6) {
    for (int i = 0; i < 3; ++i) r[i] = kVertex[p][i];
    return;
  }
  const double g = 0.5 / std::sqrt(3.0);
  r[0] = kTri[(p - 6) % 3][0];
  r[1] = kTri[(p - 6) % 3][1];
  r[2] = p < 9 ? 0.5 - g : 0.5 + g;
}

// dN_a/dr_i of the linear prism, N = (1-x-y)(1-z), x(1-z), y(1-z), (1-x-y)z, xz, yz.
void prism_dshape(const double r[3], double d[6][3]) {
  const double x = r[0], y = r[1], z = r[2], l = 1 - x - y;
  const double table[6][3] = {
      {-(1 - z), -(1 - z), -l}, {1 - z, 0, -x}, {0, 1 - z, -y}, {-z, -z, l}, {z, 0, x}, {0, z, y}};
  for (int a = 0; a < 6; ++a)
    for (int i = 0; i < 3; ++i) d[a][i] = table[a][i];
}

// dN_a/dr_i at the sample points of one family, tabulated once: evaluating the shape derivatives
// per element would dominate reading big meshes. hex8: corners 0..7 in Gmsh order, then Gauss
// points 0..7; prism6: corners 0..5, then Gauss points 0..5.
struct SampleDerivatives {
  int nodes, points;
  double d[16][8][3];
  explicit SampleDerivatives(CellType cell) : nodes(cell_vertices(cell)), points(2 * nodes) {
    for (int p = 0; p < points; ++p) {
      double r[3];
      if (cell == CellType::hex8) {
        for (int i = 0; i < 3; ++i)
          r[i] = p < 8 ? double(hex8::node_sign(p, i)) : hex8::qp_coord<double>(p - 8, i);
        for (int a = 0; a < 8; ++a)
          for (int i = 0; i < 3; ++i) d[p][a][i] = hex8::dshape<double>(a, i, r);
      } else {
        prism_point(p, r);
        double dp[6][3];
        prism_dshape(r, dp);
        for (int a = 0; a < 6; ++a)
          for (int i = 0; i < 3; ++i) d[p][a][i] = dp[a][i];
      }
    }
  }
};

const SampleDerivatives& samples(CellType cell) {
  static const SampleDerivatives hex(CellType::hex8), prism(CellType::prism6);
  return cell == CellType::hex8 ? hex : prism;
}

// det J at sample point p (same cofactor expansion as hex8::invert3); J is returned for the scaling.
double det_at(const SampleDerivatives& s, const Coords X, int p, double J[3][3]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) J[i][j] = 0;
  for (int a = 0; a < s.nodes; ++a)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) J[i][j] += s.d[p][a][i] * X[a][j];
  return J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) +
         J[0][1] * (J[1][2] * J[2][0] - J[1][0] * J[2][2]) +
         J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
}

// Product of the lengths of J's rows: an upper bound of |det J| (Hadamard's inequality).
double row_length_product(const double J[3][3]) {
  double product = 1;
  for (int i = 0; i < 3; ++i) product *= std::sqrt(J[i][0] * J[i][0] + J[i][1] * J[i][1] + J[i][2] * J[i][2]);
  return product;
}

const char* verdict(double measure) {
  return measure < 0 ? "inverted" : std::isfinite(measure) ? "degenerate" : "non-finite geometry";
}

std::optional<std::string> solid_defect(const Mesh& mesh, std::size_t e) {
  const SampleDerivatives& s = samples(mesh.cell);
  Coords X;
  gather(mesh, e, X);
  for (int p = 0; p < s.points; ++p) {
    double J[3][3];
    const double det = det_at(s, X, p, J);
    if (!(det > kMinScaledJacobian * row_length_product(J))) {
      std::ostringstream out;
      out << "det J = " << det << " at " << (p < s.nodes ? "corner " : "Gauss point ") << p % s.nodes << " ("
          << verdict(det) << " element)";
      return out.str();
    }
  }
  return std::nullopt;
}

// Twice the signed xy area of triangle e, and the largest product of two of its edge lengths.
double twice_area(const Mesh& mesh, std::size_t e, double* scale) {
  const auto& el = mesh.elements[e];
  const auto& a = mesh.nodes[el[0]];
  const auto& b = mesh.nodes[el[1]];
  const auto& c = mesh.nodes[el[2]];
  if (scale) {
    const auto length = [](double x, double y) { return std::sqrt(x * x + y * y); };  // hypot is slow
    const double l0 = length(b[0] - a[0], b[1] - a[1]), l1 = length(c[0] - b[0], c[1] - b[1]),
                 l2 = length(a[0] - c[0], a[1] - c[1]);
    *scale = std::max({l0 * l1, l1 * l2, l2 * l0});
  }
  return (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
}

std::optional<std::string> triangle_defect(const Mesh& mesh, std::size_t e) {
  double scale = 0;
  const double area2 = twice_area(mesh, e, &scale);
  // 2A / (|e_i| |e_j|) is the sine of the angle between e_i and e_j: every angle must be non-flat.
  if (area2 > kMinScaledJacobian * scale) return std::nullopt;
  std::ostringstream out;
  out << "signed area = " << 0.5 * area2 << " (" << verdict(area2) << " element"
      << (area2 < 0 ? ": clockwise in the xy plane)" : ")");
  return out.str();
}

// The affine tetrahedron's det J = (v1-v0).((v2-v0)x(v3-v0)), six times its signed volume, is the
// same from every corner c when the edges leave c in an order of the same orientation: an even
// permutation of the vertices. Each row lists a corner, then its three neighbours in that order.
constexpr int kTetCorners[4][4] = {{0, 1, 2, 3}, {1, 0, 3, 2}, {2, 3, 0, 1}, {3, 2, 1, 0}};

double tet_det(const Coords X, const int (&order)[4], double* scale) {
  double r[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r[i][j] = X[order[i + 1]][j] - X[order[0]][j];
  if (scale) *scale = row_length_product(r);
  return r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) +
         r[0][1] * (r[1][2] * r[2][0] - r[1][0] * r[2][2]) +
         r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
}

// A tetrahedron is degenerate when det J <= 1e-12 * (product of its three edge lengths) at every
// corner, i.e. when even the largest of its corners' polar sines is below 1e-12. That corner is the
// one whose edges have the smallest product, and det J is computed from it: a needle of any aspect
// ratio passes (only its sharp corners have tiny polar sines), a flat one (its four vertices in one
// plane) fails at every corner, and rounding, which is relative to the edges det J is computed
// from, cannot lift a flat one past the bound.
std::optional<std::string> tet_defect(const Mesh& mesh, std::size_t e) {
  Coords X;
  gather(mesh, e, X);
  double det = 0, scale = 0;
  for (int c = 0; c < 4; ++c) {
    double s = 0;
    const double d = tet_det(X, kTetCorners[c], &s);
    if (c == 0 || s < scale) det = d, scale = s;
  }
  if (det > kMinScaledJacobian * scale) return std::nullopt;
  std::ostringstream out;
  out << "det J = " << det + 0.0 << " (" << verdict(det) << " element"  // + 0.0: no "-0" for a flat one
      << (det < 0 ? ": vertices 0 1 2 turn clockwise seen from vertex 3)" : ")");
  return out.str();
}

std::string node_list(const Mesh& mesh, std::size_t e) {
  std::ostringstream s;
  for (int a = 0; a < mesh.nodes_per_element(); ++a) s << (a ? " " : "") << mesh.elements[e][a];
  return s.str();
}
}  // namespace

std::optional<std::string> element_defect(const Mesh& mesh, std::size_t e) {
  switch (mesh.cell) {
    case CellType::tri3:
      return triangle_defect(mesh, e);
    case CellType::tet4:
      return tet_defect(mesh, e);
    case CellType::prism6:
    case CellType::hex8:
      break;
  }
  return solid_defect(mesh, e);
}

void check_elements(const Mesh& mesh, const std::string& source) {
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
    const auto& p = mesh.nodes[n];
    if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) {
      std::ostringstream s;
      s << source << ": node " << n << " has a non-finite coordinate (" << p[0] << ", " << p[1] << ", "
        << p[2] << ")";
      throw InputError(s.str());
    }
  }
  const auto n = std::int64_t(mesh.num_nodes());
  const int per_element = mesh.nodes_per_element();
  const auto fail = [&](std::size_t e, const std::string& what) {
    throw InputError(source + ": element " + std::to_string(e) + " (nodes " + node_list(mesh, e) +
                     "): " + what);
  };
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) {
    const auto& el = mesh.elements[e];
    for (int a = 0; a < per_element; ++a)
      if (el[a] < 0 || el[a] >= n)
        fail(e, "node " + std::to_string(el[a]) + " out of range [0, " + std::to_string(n) + ")");
    for (int a = per_element; a < max_cell_vertices; ++a)
      if (el[a] != -1)
        fail(e, "slot " + std::to_string(a) + " of a " + cell_name(mesh.cell) +
                    " element must be -1 (unused), found " + std::to_string(el[a]));
    if (auto defect = element_defect(mesh, e)) fail(e, *defect);
  }
  if (const auto twin = find_duplicate_elements(mesh))
    throw InputError(source + ": elements " + std::to_string(twin->first) + " and " +
                     std::to_string(twin->second) + " have the same nodes (" + node_list(mesh, twin->first) +
                     " and " + node_list(mesh, twin->second) + ")");
}

std::optional<std::pair<std::size_t, std::size_t>> find_duplicate_elements(const Mesh& mesh) {
  const int per_element = mesh.nodes_per_element();
  const std::size_t m = mesh.num_elements();
  // Twins share their smallest vertex: a counting sort by it (stable, so mesh order inside each
  // bucket) leaves only the few elements around one vertex to compare.
  std::vector<std::size_t> start(mesh.num_nodes() + 1, 0), order(m);
  std::vector<ordinal_t> smallest(m);
  for (std::size_t e = 0; e < m; ++e) {
    const auto& el = mesh.elements[e];
    smallest[e] = *std::min_element(el.begin(), el.begin() + per_element);
    ++start[std::size_t(smallest[e]) + 1];
  }
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::size_t> next(start.begin(), start.end() - 1);
  for (std::size_t e = 0; e < m; ++e) order[next[smallest[e]]++] = e;

  using Key = std::array<ordinal_t, max_cell_vertices>;  // sorted vertices, tail -1
  std::optional<std::pair<std::size_t, std::size_t>> first;
  std::vector<std::pair<Key, std::size_t>> bucket;
  for (std::size_t v = 0; v + 1 < start.size(); ++v) {
    if (start[v + 1] - start[v] < 2) continue;
    bucket.clear();
    for (std::size_t i = start[v]; i < start[v + 1]; ++i) {
      Key key = mesh.elements[order[i]];
      std::sort(key.begin(), key.begin() + per_element);
      bucket.push_back({key, order[i]});
    }
    std::sort(bucket.begin(), bucket.end());
    // In a run of equal keys the first two elements form the pair with the smallest later element.
    for (std::size_t i = 1; i < bucket.size(); ++i)
      if (bucket[i].first == bucket[i - 1].first && (!first || bucket[i].second < first->second))
        first = std::pair{bucket[i - 1].second, bucket[i].second};
  }
  return first;
}

double element_volume(const Mesh& mesh, std::size_t e) {
  if (mesh.cell == CellType::tri3) return 0.5 * twice_area(mesh, e, nullptr);
  Coords X;
  gather(mesh, e, X);
  if (mesh.cell == CellType::tet4) return tet_det(X, kTetCorners[0], nullptr) / 6;
  double volume = 0;
  if (mesh.cell == CellType::prism6) {
    const SampleDerivatives& s = samples(CellType::prism6);
    for (int p = 6; p < 12; ++p) {
      double J[3][3];
      volume += det_at(s, X, p, J) / 12;
    }
    return volume;
  }
  for (int q = 0; q < hex8::num_qp; ++q) {
    double J[3][3], Jinv[3][3];
    hex8::jacobian<double>(X, q, J);
    volume += hex8::invert3<double>(J, Jinv);  // Gauss weights are all 1
  }
  return volume;
}
}  // namespace kfem
