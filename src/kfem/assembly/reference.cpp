#include "kfem/assembly/reference.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "kfem/core/error.hpp"
#include "kfem/mesh/incidence.hpp"

namespace kfem {
ElementCoords element_coords(const HexMesh& mesh, std::size_t e) {
  ElementCoords X;
  for (int a = 0; a < 8; ++a) X[a] = mesh.nodes[mesh.elements[e][a]];
  return X;
}

void reference_element_matrix(const ElementCoords& coords, const Isotropic<double>& m, double Ke[24][24]) {
  double X[8][3];  // plain array: the shared hex8 functions are host+device code
  for (int a = 0; a < 8; ++a)
    for (int j = 0; j < 3; ++j) X[a][j] = coords[a][j];
  double D[6][6];
  m.voigt(D);
  for (int i = 0; i < 24; ++i)
    for (int j = 0; j < 24; ++j) Ke[i][j] = 0.0;
  for (int q = 0; q < hex8::num_qp; ++q) {
    double J[3][3], Jinv[3][3];
    hex8::jacobian<double>(X, q, J);
    const double det = hex8::invert3<double>(J, Jinv);
    if (!(det > 0.0)) throw InputError("element has non-positive Jacobian determinant at Gauss point " + std::to_string(q));
    double B[6][24] = {};
    for (int a = 0; a < 8; ++a) {
      double g[3];
      hex8::gradient<double>(Jinv, q, a, g);
      B[0][3 * a + 0] = g[0];
      B[1][3 * a + 1] = g[1];
      B[2][3 * a + 2] = g[2];
      B[3][3 * a + 0] = g[1], B[3][3 * a + 1] = g[0];  // gamma_xy
      B[4][3 * a + 1] = g[2], B[4][3 * a + 2] = g[1];  // gamma_yz
      B[5][3 * a + 0] = g[2], B[5][3 * a + 2] = g[0];  // gamma_zx
    }
    double DB[6][24];
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 24; ++j) {
        double s = 0.0;
        for (int k = 0; k < 6; ++k) s += D[i][k] * B[k][j];
        DB[i][j] = s;
      }
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < 24; ++j) {
        double s = 0.0;
        for (int k = 0; k < 6; ++k) s += B[k][i] * DB[k][j];
        Ke[i][j] += s * det;  // Gauss weights are 1
      }
  }
}

HostCsr<double> reference_pattern(const HexMesh& mesh) {
  const std::size_t nn = mesh.num_nodes();
  const NodeIncidence inc = node_incidence(mesh);  // then the union of their nodes per node
  std::vector<std::vector<ordinal_t>> adj(nn);
  for (std::size_t n = 0; n < nn; ++n) {
    auto& row = adj[n];
    for (offset_t k = inc.start[n]; k < inc.start[n + 1]; ++k)
      for (ordinal_t m : mesh.elements[inc.elements[k]]) row.push_back(m);
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
  }
  HostCsr<double> A;
  A.num_rows = static_cast<ordinal_t>(dofs_per_node * nn);
  A.row_map.assign(A.num_rows + 1, 0);
  for (std::size_t n = 0; n < nn; ++n)
    for (int c = 0; c < 3; ++c) A.row_map[3 * n + c + 1] = A.row_map[3 * n + c] + 3 * offset_t(adj[n].size());
  A.cols.resize(A.row_map.back());
  for (std::size_t n = 0; n < nn; ++n)
    for (int c = 0; c < 3; ++c) {
      offset_t k = A.row_map[3 * n + c];
      for (ordinal_t m : adj[n])
        for (int d = 0; d < 3; ++d) A.cols[k++] = 3 * m + d;
    }
  A.vals.assign(A.cols.size(), 0.0);
  return A;
}

HostCsr<double> assemble_reference(const HexMesh& mesh, const Isotropic<double>& m) {
  HostCsr<double> A = reference_pattern(mesh);
  double Ke[24][24];
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) {
    try {
      reference_element_matrix(element_coords(mesh, e), m, Ke);
    } catch (const InputError& err) {
      throw InputError("element " + std::to_string(e) + ": " + err.what());
    }
    const auto& el = mesh.elements[e];
    for (int i = 0; i < 24; ++i) {
      const ordinal_t row = 3 * el[i / 3] + i % 3;
      const auto first = A.cols.begin() + A.row_map[row], last = A.cols.begin() + A.row_map[row + 1];
      for (int j = 0; j < 24; ++j) {  // Addto: locate the column by binary search
        const ordinal_t col = 3 * el[j / 3] + j % 3;
        A.vals[std::lower_bound(first, last, col) - A.cols.begin()] += Ke[i][j];
      }
    }
  }
  return A;
}

HostCsr<double> lower_part(const HostCsr<double>& A) {
  HostCsr<double> L;
  L.num_rows = A.num_rows;
  L.row_map.assign(1, 0);
  for (ordinal_t i = 0; i < A.num_rows; ++i) {
    for (offset_t k = A.row_map[i]; k < A.row_map[i + 1] && A.cols[k] <= i; ++k) {
      L.cols.push_back(A.cols[k]);
      L.vals.push_back(A.vals[k]);
    }
    L.row_map.push_back(static_cast<offset_t>(L.cols.size()));
  }
  return L;
}

template <class S>
MatrixDiff compare(const HostCsr<S>& A, const HostCsr<double>& R) {
  MatrixDiff d;
  if (A.num_rows != R.num_rows || A.row_map != R.row_map || A.cols != R.cols) {
    d.same_pattern = false;
    d.max_abs = d.max_rel = d.max_entry_rel = INFINITY;
    return d;
  }
  double ref_max = 0;
  for (double r : R.vals) ref_max = std::max(ref_max, std::abs(r));
  for (std::size_t k = 0; k < R.vals.size(); ++k) {
    const double diff = std::abs(double(A.vals[k]) - R.vals[k]);
    if (std::isnan(diff)) d.max_abs = INFINITY;
    d.max_abs = std::max(d.max_abs, diff);
    if (std::abs(R.vals[k]) > 1e-8 * ref_max) d.max_entry_rel = std::max(d.max_entry_rel, diff / std::abs(R.vals[k]));
  }
  d.max_rel = ref_max > 0 ? d.max_abs / ref_max : d.max_abs;
  return d;
}
template MatrixDiff compare(const HostCsr<float>&, const HostCsr<double>&);
template MatrixDiff compare(const HostCsr<double>&, const HostCsr<double>&);
}  // namespace kfem
