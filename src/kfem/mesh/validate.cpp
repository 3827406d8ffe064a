// Jacobian-based element checks and element volumes.
#include "kfem/mesh/validate.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "kfem/core/error.hpp"
#include "kfem/fe/hex8.hpp"

namespace kfem {
namespace {
using Coords = double[8][3];

void gather(const HexMesh& mesh, std::size_t e, Coords X) {
  for (int a = 0; a < 8; ++a)
    for (int j = 0; j < 3; ++j) X[a][j] = mesh.nodes[mesh.elements[e][a]][j];
}

// dN_a/dr_i at the 16 sample points (corners 0..7 in Gmsh order, then Gauss points 0..7),
// tabulated once: evaluating the shape derivatives per element would dominate reading big meshes.
struct SampleDerivatives {
  double d[16][8][3];
  SampleDerivatives() {
    for (int p = 0; p < 16; ++p) {
      double r[3];
      for (int i = 0; i < 3; ++i)
        r[i] = p < 8 ? double(hex8::node_sign(p, i)) : hex8::qp_coord<double>(p - 8, i);
      for (int a = 0; a < 8; ++a)
        for (int i = 0; i < 3; ++i) d[p][a][i] = hex8::dshape<double>(a, i, r);
    }
  }
};

// det J at sample point p; J is returned for the scaling below.
double det_at(const Coords X, int p, double J[3][3]) {
  static const SampleDerivatives table;
  double Jinv[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) J[i][j] = 0;
  for (int a = 0; a < 8; ++a)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) J[i][j] += table.d[p][a][i] * X[a][j];
  return hex8::invert3<double>(J, Jinv);
}

// Product of the lengths of J's rows: an upper bound of |det J| (Hadamard's inequality).
double row_length_product(const double J[3][3]) {
  double product = 1;
  for (int i = 0; i < 3; ++i) product *= std::sqrt(J[i][0] * J[i][0] + J[i][1] * J[i][1] + J[i][2] * J[i][2]);
  return product;
}

std::string node_list(const std::array<ordinal_t, 8>& el) {
  std::ostringstream s;
  for (int a = 0; a < 8; ++a) s << (a ? " " : "") << el[a];
  return s.str();
}
}  // namespace

std::optional<std::string> element_defect(const HexMesh& mesh, std::size_t e) {
  // The test is on det J / (product of row lengths), the scaled Jacobian in [-1, 1]: independent
  // of size and aspect ratio, and rounding leaves a truly flat but rotated element at ~1e-16.
  constexpr double kMinScaledJacobian = 1e-12;
  Coords X;
  gather(mesh, e, X);
  for (int p = 0; p < 16; ++p) {
    double J[3][3];
    const double det = det_at(X, p, J);
    if (!(det > kMinScaledJacobian * row_length_product(J))) {
      std::ostringstream s;
      s << "det J = " << det << " at " << (p < 8 ? "corner " : "Gauss point ") << p % 8 << " ("
        << (det < 0              ? "inverted"
            : std::isfinite(det) ? "degenerate"
                                 : "non-finite geometry")
        << " element)";
      return s.str();
    }
  }
  return std::nullopt;
}

void check_elements(const HexMesh& mesh, const std::string& source) {
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
  const auto fail = [&](std::size_t e, const std::string& what) {
    throw InputError(source + ": element " + std::to_string(e) + " (nodes " + node_list(mesh.elements[e]) +
                     "): " + what);
  };
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) {
    for (ordinal_t v : mesh.elements[e])
      if (v < 0 || v >= n)
        fail(e, "node " + std::to_string(v) + " out of range [0, " + std::to_string(n) + ")");
    if (auto defect = element_defect(mesh, e)) fail(e, *defect);
  }
}

double element_volume(const HexMesh& mesh, std::size_t e) {
  Coords X;
  gather(mesh, e, X);
  double volume = 0;
  for (int q = 0; q < hex8::num_qp; ++q) {
    double J[3][3], Jinv[3][3];
    hex8::jacobian<double>(X, q, J);
    volume += hex8::invert3<double>(J, Jinv);  // Gauss weights are all 1
  }
  return volume;
}
}  // namespace kfem
