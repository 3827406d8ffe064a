#include "kfem/assembly/reference.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <exception>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "kfem/core/error.hpp"
#include "kfem/core/host_threads.hpp"

namespace kfem {
Hex8Coords hex8_coords(const Mesh& mesh, std::size_t e) {
  Hex8Coords X;
  for (int a = 0; a < 8; ++a) X[a] = mesh.nodes[mesh.elements[e][a]];
  return X;
}

namespace {
// B (6 x 24, Voigt strains of the 8 nodes' 3 displacements) and det J at Gauss point q; throws
// InputError if det J <= 0.
void hex8_strain_matrix(const double X[8][3], int q, double B[6][24], double& det) {
  double J[3][3], Jinv[3][3];
  hex8::jacobian<double>(X, q, J);
  det = hex8::invert3<double>(J, Jinv);
  if (!(det > 0.0))
    throw InputError("element has non-positive Jacobian determinant at Gauss point " + std::to_string(q));
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 24; ++j) B[i][j] = 0.0;
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
}

void plain_coords(const Hex8Coords& coords, double X[8][3]) {  // the shared hex8 functions take arrays
  for (int a = 0; a < 8; ++a)
    for (int j = 0; j < 3; ++j) X[a][j] = coords[a][j];
}
}  // namespace

void reference_hex8_matrix(const Hex8Coords& coords, const Isotropic<double>& m, double Ke[24][24]) {
  double X[8][3];
  plain_coords(coords, X);
  double D[6][6];
  m.voigt(D);
  for (int i = 0; i < 24; ++i)
    for (int j = 0; j < 24; ++j) Ke[i][j] = 0.0;
  // tour: oracle-ke
  for (int q = 0; q < hex8::num_qp; ++q) {
    double B[6][24], det;
    hex8_strain_matrix(X, q, B, det);
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
  // tour: end oracle-ke
}

HostCsr<double> reference_pattern(const Mesh& mesh) {
  const int npe = mesh.nodes_per_element();
  std::vector<ordinal_t> element_nodes;
  element_nodes.reserve(mesh.num_elements() * npe);
  for (const auto& el : mesh.elements)
    element_nodes.insert(element_nodes.end(), el.begin(), el.begin() + npe);
  return reference_pattern(element_nodes, npe, static_cast<ordinal_t>(mesh.num_nodes()), dofs_per_node);
}

HostCsr<double> assemble_reference_hex8(const Mesh& mesh, const Isotropic<double>& m) {
  if (mesh.cell != CellType::hex8)
    throw InputError(std::string("assemble_reference_hex8: hex8 mesh expected, got ") + cell_name(mesh.cell));
  HostCsr<double> A = reference_pattern(mesh);
  double Ke[24][24];
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) {
    try {
      reference_hex8_matrix(hex8_coords(mesh, e), m, Ke);
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

// ---- any family -------------------------------------------------------------------------------
HostCsr<double> reference_pattern(const std::vector<ordinal_t>& element_nodes, int nodes_per_element,
                                  ordinal_t num_nodes, int components) {
  if (nodes_per_element <= 0 || element_nodes.size() % std::size_t(nodes_per_element) != 0)
    throw InputError("reference_pattern: " + std::to_string(element_nodes.size()) +
                     " ids are not a multiple of " + std::to_string(nodes_per_element) +
                     " nodes per element");
  if (components <= 0 || num_nodes < 0 || std::int64_t(num_nodes) * components > INT32_MAX)
    throw InputError("reference_pattern: " + std::to_string(num_nodes) + " nodes x " +
                     std::to_string(components) + " components do not fit the DOF ids");
  const std::size_t ne = element_nodes.size() / nodes_per_element, nn = std::size_t(num_nodes);
  // Node -> element incidence by counting sort, then per node the sorted union of its elements' nodes.
  std::vector<offset_t> start(nn + 1, 0);
  for (std::size_t k = 0; k < element_nodes.size(); ++k) {
    const ordinal_t v = element_nodes[k];
    if (v < 0 || v >= num_nodes)
      throw InputError("reference_pattern: element " + std::to_string(k / nodes_per_element) +
                       " has node id " + std::to_string(v) + " outside [0, " + std::to_string(num_nodes) +
                       ")");
    ++start[v + 1];
  }
  for (std::size_t v = 0; v < nn; ++v) start[v + 1] += start[v];
  std::vector<ordinal_t> incident(start[nn]);
  std::vector<offset_t> fill(start.begin(), start.end() - 1);
  for (std::size_t e = 0; e < ne; ++e)
    for (int a = 0; a < nodes_per_element; ++a)
      incident[fill[element_nodes[e * nodes_per_element + a]]++] = ordinal_t(e);

  std::vector<offset_t> adj_start(nn + 1, 0);
  std::vector<ordinal_t> adj, row;
  for (std::size_t n = 0; n < nn; ++n) {
    row.clear();
    for (offset_t k = start[n]; k < start[n + 1]; ++k) {
      const ordinal_t* el = element_nodes.data() + std::size_t(incident[k]) * nodes_per_element;
      row.insert(row.end(), el, el + nodes_per_element);
    }
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    adj.insert(adj.end(), row.begin(), row.end());
    adj_start[n + 1] = offset_t(adj.size());
  }

  HostCsr<double> A;
  A.num_rows = num_nodes * components;
  A.row_map.assign(std::size_t(A.num_rows) + 1, 0);
  for (std::size_t n = 0; n < nn; ++n)
    for (int c = 0; c < components; ++c) {
      const std::size_t r = n * components + c;
      A.row_map[r + 1] = A.row_map[r] + components * (adj_start[n + 1] - adj_start[n]);
    }
  A.cols.resize(A.row_map.back());
  for (std::size_t n = 0; n < nn; ++n)
    for (int c = 0; c < components; ++c) {
      offset_t k = A.row_map[n * components + c];
      for (offset_t j = adj_start[n]; j < adj_start[n + 1]; ++j)
        for (int d = 0; d < components; ++d) A.cols[k++] = adj[j] * components + d;
    }
  A.vals.assign(A.cols.size(), 0.0);
  return A;
}

namespace {
// Addto of a dense row-major n x n Ke whose local DOF i is global DOF dofs[i]: binary search per entry.
void add_to(HostCsr<double>& A, const std::vector<ordinal_t>& dofs, const double* Ke) {
  const std::size_t n = dofs.size();
  for (std::size_t i = 0; i < n; ++i) {
    const auto first = A.cols.begin() + A.row_map[dofs[i]], last = A.cols.begin() + A.row_map[dofs[i] + 1];
    for (std::size_t j = 0; j < n; ++j)
      A.vals[std::lower_bound(first, last, dofs[j]) - A.cols.begin()] += Ke[i * n + j];
  }
}

// J^-1 by cofactors; returns det J.
double inverse3(const double J[3][3], double Jinv[3][3]) {
  const double c00 = J[1][1] * J[2][2] - J[1][2] * J[2][1], c01 = J[1][2] * J[2][0] - J[1][0] * J[2][2],
               c02 = J[1][0] * J[2][1] - J[1][1] * J[2][0];
  const double det = J[0][0] * c00 + J[0][1] * c01 + J[0][2] * c02;
  Jinv[0][0] = c00 / det;
  Jinv[1][0] = c01 / det;
  Jinv[2][0] = c02 / det;
  Jinv[0][1] = (J[0][2] * J[2][1] - J[0][1] * J[2][2]) / det;
  Jinv[1][1] = (J[0][0] * J[2][2] - J[0][2] * J[2][0]) / det;
  Jinv[2][1] = (J[0][1] * J[2][0] - J[0][0] * J[2][1]) / det;
  Jinv[0][2] = (J[0][1] * J[1][2] - J[0][2] * J[1][1]) / det;
  Jinv[1][2] = (J[0][2] * J[1][0] - J[0][0] * J[1][2]) / det;
  Jinv[2][2] = (J[0][0] * J[1][1] - J[0][1] * J[1][0]) / det;
  return det;
}
}  // namespace

// ---- tri3 electrostatics ----------------------------------------------------------------------
TriCoords tri3_coords(const Mesh& mesh, std::size_t e) {
  TriCoords X;
  for (int a = 0; a < 3; ++a) X[a] = mesh.nodes[mesh.elements[e][a]];
  return X;
}

namespace {
// The constant gradients of the linear shape functions (column a of B = grad N_a); returns the
// area, and throws InputError if the vertices are not counter-clockwise.
double tri3_gradients(const TriCoords& X, double B[2][3]) {
  const double x0 = X[0][0], y0 = X[0][1], x1 = X[1][0], y1 = X[1][1], x2 = X[2][0], y2 = X[2][1];
  const double area = 0.5 * ((x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0));
  if (!(area > 0.0))
    throw InputError("triangle has non-positive area " + std::to_string(area) + " (clockwise?)");
  const double b[2][3] = {{(y1 - y2) / (2 * area), (y2 - y0) / (2 * area), (y0 - y1) / (2 * area)},
                          {(x2 - x1) / (2 * area), (x0 - x2) / (2 * area), (x1 - x0) / (2 * area)}};
  for (int k = 0; k < 2; ++k)
    for (int a = 0; a < 3; ++a) B[k][a] = b[k][a];
  return area;
}
}  // namespace

void reference_tri3_matrix(const TriCoords& X, double permittivity, double Ke[3][3]) {
  double B[2][3];
  const double area = tri3_gradients(X, B);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) Ke[i][j] = permittivity * area * (B[0][i] * B[0][j] + B[1][i] * B[1][j]);
}

HostCsr<double> assemble_reference_electrostatics(const Mesh& mesh, double permittivity) {
  if (mesh.cell != CellType::tri3)
    throw InputError(std::string("assemble_reference_electrostatics: tri3 mesh expected, got ") +
                     cell_name(mesh.cell));
  if (!(permittivity > 0.0) || !std::isfinite(permittivity))
    throw InputError("assemble_reference_electrostatics: permittivity " + std::to_string(permittivity) +
                     " is not positive");
  std::vector<ordinal_t> element_nodes;
  element_nodes.reserve(3 * mesh.num_elements());
  for (const auto& el : mesh.elements) element_nodes.insert(element_nodes.end(), el.begin(), el.begin() + 3);
  HostCsr<double> A = reference_pattern(element_nodes, 3, static_cast<ordinal_t>(mesh.num_nodes()), 1);
  double Ke[3][3];
  std::vector<ordinal_t> dofs(3);
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) {
    try {
      reference_tri3_matrix(tri3_coords(mesh, e), permittivity, Ke);
    } catch (const InputError& err) {
      throw InputError("element " + std::to_string(e) + ": " + err.what());
    }
    for (int a = 0; a < 3; ++a) dofs[a] = mesh.elements[e][a];
    add_to(A, dofs, &Ke[0][0]);
  }
  return A;
}

// ---- P_p elasticity on prisms and tetrahedra ---------------------------------------------------
CellCoords cell_coords(const Mesh& mesh, std::size_t e) {
  CellCoords X{};
  for (int a = 0; a < std::min(mesh.nodes_per_element(), lagrange::max_vertices); ++a)
    X[a] = mesh.nodes[mesh.elements[e][a]];
  return X;
}

namespace {
// B (6 x 3 nsh, row k at B[k * 3 nsh]) and w det J at quadrature point q of a prism or tetrahedron;
// throws InputError if det J <= 0.
double lagrange_strain_matrix(const lagrange::Basis& basis, const CellCoords& X, int q,
                              std::vector<double>& B) {
  const int nsh = basis.nsh, n = 3 * nsh;
  double J[3][3] = {}, Jinv[3][3];  // J(i,j) = d x_j / d xi_i
  for (int v = 0; v < basis.vertices; ++v)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) J[i][j] += basis.dgeo[(q * basis.vertices + v) * 3 + i] * X[v][j];
  const double det = inverse3(J, Jinv);
  if (!(det > 0.0))
    throw InputError(std::string(cell_name(basis.cell)) +
                     " cell has non-positive Jacobian determinant at quadrature point " + std::to_string(q));
  B.assign(6 * std::size_t(n), 0.0);
  for (int a = 0; a < nsh; ++a) {
    const double* dN = &basis.dshape[(std::size_t(q) * nsh + a) * 3];
    double g[3];  // physical gradient: J g = dN/dxi
    for (int i = 0; i < 3; ++i) g[i] = Jinv[i][0] * dN[0] + Jinv[i][1] * dN[1] + Jinv[i][2] * dN[2];
    double* b = B.data() + 3 * a;  // row k of B starts at B[k * n]
    b[0 * n + 0] = g[0];
    b[1 * n + 1] = g[1];
    b[2 * n + 2] = g[2];
    b[3 * n + 0] = g[1], b[3 * n + 1] = g[0];  // gamma_xy
    b[4 * n + 1] = g[2], b[4 * n + 2] = g[1];  // gamma_yz
    b[5 * n + 0] = g[2], b[5 * n + 2] = g[0];  // gamma_zx
  }
  return basis.weights[q] * det;
}
}  // namespace

void reference_lagrange_matrix(const lagrange::Basis& basis, const CellCoords& X, const Isotropic<double>& m,
                               std::vector<double>& Ke) {
  const int nsh = basis.nsh, n = 3 * nsh;
  double D[6][6];
  m.voigt(D);
  Ke.assign(std::size_t(n) * n, 0.0);
  std::vector<double> B, DB(6 * std::size_t(n));
  for (int q = 0; q < basis.nq; ++q) {
    const double wd = lagrange_strain_matrix(basis, X, q, B);
    // DB = D B over D's nonzeros; then Ke += w det J B^T (DB) over B's nonzeros. A dense triple
    // loop would cost ~10 GFLOP per element at p = 7; this is ~0.75.
    std::fill(DB.begin(), DB.end(), 0.0);
    for (int k = 0; k < 6; ++k)
      for (int l = 0; l < 6; ++l) {
        if (D[k][l] == 0.0) continue;
        const double dkl = D[k][l], *bl = &B[std::size_t(l) * n];
        double* dbk = &DB[std::size_t(k) * n];
        for (int j = 0; j < n; ++j) dbk[j] += dkl * bl[j];
      }
    for (int i = 0; i < n; ++i) {
      double* row = &Ke[std::size_t(i) * n];
      for (int k = 0; k < 6; ++k) {  // Ke is symmetric: the upper triangle only, mirrored below
        const double bki = B[std::size_t(k) * n + i];
        if (bki == 0.0) continue;
        const double s = wd * bki, *dbk = &DB[std::size_t(k) * n];
        for (int j = i; j < n; ++j) row[j] += s * dbk[j];
      }
    }
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) Ke[std::size_t(i) * n + j] = Ke[std::size_t(j) * n + i];
}

HostCsr<double> assemble_reference_elasticity(const Mesh& mesh, const DofMap& dofs,
                                              const Isotropic<double>& m) {
  if (!lagrange::has_basis(mesh.cell))
    throw InputError(std::string("assemble_reference_elasticity: prism6 or tet4 mesh expected, got ") +
                     cell_name(mesh.cell));
  if (dofs.order < lagrange::min_order || dofs.order > lagrange::max_order ||
      dofs.nodes_per_element != lagrange::num_shape_functions(mesh.cell, dofs.order) ||
      dofs.num_elements() != mesh.num_elements())
    throw InputError("assemble_reference_elasticity: DOF map (order " + std::to_string(dofs.order) + ", " +
                     std::to_string(dofs.num_elements()) + " elements) does not fit the " +
                     std::to_string(mesh.num_elements()) + "-element mesh");
  const lagrange::Basis& basis = lagrange::tabulate(mesh.cell, dofs.order);
  HostCsr<double> A = reference_pattern(dofs.element_nodes, dofs.nodes_per_element, dofs.num_nodes, 3);
  std::vector<double> Ke;
  std::vector<ordinal_t> element_dofs(3 * std::size_t(basis.nsh));
  for (std::size_t e = 0; e < mesh.num_elements(); ++e) {
    try {
      reference_lagrange_matrix(basis, cell_coords(mesh, e), m, Ke);
    } catch (const InputError& err) {
      throw InputError("element " + std::to_string(e) + ": " + err.what());
    }
    const ordinal_t* nodes = dofs.element(e);
    for (int a = 0; a < basis.nsh; ++a)
      for (int c = 0; c < 3; ++c) element_dofs[3 * a + c] = 3 * nodes[a] + c;
    add_to(A, element_dofs, Ke.data());
  }
  return A;
}

// ---- products with the oracle's element matrices ----------------------------------------------
namespace {
std::uint64_t splitmix64(std::uint64_t z) {  // a counter-based generator: entry i from (seed, i) alone
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
}  // namespace

std::vector<std::vector<double>> check_vectors(ordinal_t n, int count, std::uint64_t seed) {
  std::vector<std::vector<double>> x(static_cast<std::size_t>(count),
                                     std::vector<double>(static_cast<std::size_t>(n)));
  const int threads = host_threads(16);
  for (int v = 0; v < count; ++v)
    on_threads(threads, [&](int t) {
      const std::uint64_t base = splitmix64(seed + std::uint64_t(v) * 0x632be59bd9b4e019ull);
      for (std::size_t i = std::size_t(n) * t / threads; i < std::size_t(n) * (t + 1) / threads; ++i) {
        const std::uint64_t r = splitmix64(base ^ i);
        const double m = 0.5 + 0.5 * double(r >> 11) * 0x1.0p-53;  // [0.5, 1)
        x[v][i] = r & 1 ? m : -m;
      }
    });
  return x;
}

namespace {
// y[k] = K x[k] and diag(K), element by element. make_worker() gives each thread its own
// worker(e, dofs, xe, ye, de, gather): the element's global DOFs, then ye = Ke xe (one block of ndof
// per vector) and de = diag(Ke), Ke never formed. Elements go in chunks: computed on `threads`
// threads, then summed into y by the same threads, each over its own range of rows and in element
// order: the same bits for any thread count.
template <class MakeWorker>
ReferenceProducts element_products(std::size_t ne, int ndof, const std::vector<std::vector<double>>& x,
                                   ordinal_t n, int threads, MakeWorker make_worker) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t k = x.size(), nd = std::size_t(ndof);
  for (const auto& v : x)
    if (v.size() != std::size_t(n))
      throw InputError("reference_products: a vector of " + std::to_string(v.size()) + " entries for " +
                       std::to_string(n) + " DOFs");
  ReferenceProducts out;
  out.y.assign(k, std::vector<double>(std::size_t(n), 0.0));
  out.diagonal.assign(std::size_t(n), 0.0);
  threads = std::max(1, threads);
  // Chunks of about 32 MB of element results: room for every thread, few page faults.
  const std::size_t chunk = std::min(ne, std::max<std::size_t>(256, (std::size_t(1) << 22) / (nd * (k + 2))));
  std::vector<ordinal_t> dofs(chunk * nd);
  std::vector<double> ye(chunk * nd * k), de(chunk * nd);
  for (std::size_t first = 0; first < ne; first += chunk) {
    const std::size_t count = std::min(chunk, ne - first);
    on_threads(threads, [&](int t) {
      auto worker = make_worker();
      std::vector<double> xe(nd * k);
      for (std::size_t i = count * t / threads; i < count * (t + 1) / threads; ++i) {
        ordinal_t* d = &dofs[i * nd];
        worker(first + i, d, xe.data(), &ye[i * nd * k], &de[i * nd], [&](double* xv) {
          for (std::size_t v = 0; v < k; ++v)
            for (std::size_t a = 0; a < nd; ++a) xv[v * nd + a] = x[v][std::size_t(d[a])];
        });
      }
    });
    on_threads(threads, [&](int t) {
      const ordinal_t lo = ordinal_t(std::int64_t(n) * t / threads),
                      hi = ordinal_t(std::int64_t(n) * (t + 1) / threads);
      for (std::size_t i = 0; i < count; ++i)
        for (std::size_t a = 0; a < nd; ++a) {
          const ordinal_t r = dofs[i * nd + a];
          if (r < lo || r >= hi) continue;
          out.diagonal[std::size_t(r)] += de[i * nd + a];
          for (std::size_t v = 0; v < k; ++v) out.y[v][std::size_t(r)] += ye[(i * k + v) * nd + a];
        }
    });
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

// ye += wd B^T D (B xe) for every vector and de += wd diag(B^T D B), B: 6 x n Voigt strains
// (row-major, row k at B[k * n]) as hex8_strain_matrix and lagrange_strain_matrix write them: node a's
// columns 3a..3a+2 hold its gradient g in rows 0..2 (g0, g1, g2 on the diagonal) and the shears
// (xy: g1 g0 0, yz: 0 g2 g1, zx: g2 0 g0). Products go through g, 9 terms per node where the dense
// B has 18 of which 9 are zero: the zeros are never multiplied.
void elasticity_point(const double D[6][6], const double* B, int n, double wd, std::size_t k,
                      const double* xe, double* ye, double* de) {
  const auto gradient = [&](int a, double g[3]) {
    g[0] = B[3 * a], g[1] = B[n + 3 * a + 1], g[2] = B[2 * n + 3 * a + 2];
  };
  for (std::size_t v = 0; v < k; ++v) {
    const double* u = xe + v * n;
    double eps[6] = {}, sig[6] = {};
    for (int a = 0; a < n / 3; ++a) {
      double g[3];
      gradient(a, g);
      const double* ua = u + 3 * a;
      eps[0] += g[0] * ua[0];
      eps[1] += g[1] * ua[1];
      eps[2] += g[2] * ua[2];
      eps[3] += g[1] * ua[0] + g[0] * ua[1];
      eps[4] += g[2] * ua[1] + g[1] * ua[2];
      eps[5] += g[2] * ua[0] + g[0] * ua[2];
    }
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c) sig[r] += D[r][c] * eps[c];
    double* y = ye + v * n;
    for (int a = 0; a < n / 3; ++a) {
      double g[3];
      gradient(a, g);
      y[3 * a + 0] += wd * (g[0] * sig[0] + g[1] * sig[3] + g[2] * sig[5]);
      y[3 * a + 1] += wd * (g[1] * sig[1] + g[0] * sig[3] + g[2] * sig[4]);
      y[3 * a + 2] += wd * (g[2] * sig[2] + g[1] * sig[4] + g[0] * sig[5]);
    }
  }
  // Column 3a + c of B: rows (c, and the two shears that hold c) with the gradient's entries.
  constexpr int rows[3][3] = {{0, 3, 5}, {1, 3, 4}, {2, 4, 5}};
  constexpr int parts[3][3] = {{0, 1, 2}, {1, 0, 2}, {2, 1, 0}};
  for (int a = 0; a < n / 3; ++a) {
    double g[3];
    gradient(a, g);
    for (int c = 0; c < 3; ++c) {
      double s = 0.0;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) s += g[parts[c][i]] * D[rows[c][i]][rows[c][j]] * g[parts[c][j]];
      de[3 * a + c] += wd * s;
    }
  }
}

template <class Body>
auto element_error(std::size_t e, Body body) {  // "element E: ..." for a bad element
  try {
    return body();
  } catch (const InputError& err) {
    throw InputError("element " + std::to_string(e) + ": " + err.what());
  }
}
}  // namespace

ReferenceProducts reference_products(const Mesh& mesh, const Isotropic<double>& m,
                                     const std::vector<std::vector<double>>& x, int threads) {
  if (mesh.cell != CellType::hex8)
    throw InputError(std::string("reference_products: hex8 mesh expected, got ") + cell_name(mesh.cell));
  double D[6][6];
  m.voigt(D);
  const std::size_t k = x.size();
  return element_products(mesh.num_elements(), 24, x, ordinal_t(mesh.num_nodes()) * 3, threads, [&] {
    return [&](std::size_t e, ordinal_t* dofs, double* xe, double* ye, double* de, auto gather) {
      for (int i = 0; i < 24; ++i) dofs[i] = 3 * mesh.elements[e][i / 3] + i % 3;
      gather(xe);
      std::fill(ye, ye + 24 * k, 0.0);
      std::fill(de, de + 24, 0.0);
      double X[8][3], B[6][24];
      plain_coords(hex8_coords(mesh, e), X);
      for (int q = 0; q < hex8::num_qp; ++q) {
        double det;
        element_error(e, [&] { hex8_strain_matrix(X, q, B, det); });
        elasticity_point(D, &B[0][0], 24, det, k, xe, ye, de);  // Gauss weights are 1
      }
    };
  });
}

ReferenceProducts reference_products(const Mesh& mesh, const DofMap& dofs, const Isotropic<double>& m,
                                     const std::vector<std::vector<double>>& x, int threads) {
  if (!lagrange::has_basis(mesh.cell) || dofs.num_elements() != mesh.num_elements())
    throw InputError(std::string("reference_products: prism6 or tet4 mesh and its DOF map expected, got ") +
                     cell_name(mesh.cell));
  const lagrange::Basis& basis = lagrange::tabulate(mesh.cell, dofs.order);
  double D[6][6];
  m.voigt(D);
  const std::size_t k = x.size();
  const int n = 3 * basis.nsh;
  return element_products(mesh.num_elements(), n, x, dofs.num_nodes * 3, threads, [&] {
    return [&, B = std::vector<double>()](std::size_t e, ordinal_t* d, double* xe, double* ye, double* de,
                                          auto gather) mutable {
      const ordinal_t* nodes = dofs.element(e);
      for (int a = 0; a < basis.nsh; ++a)
        for (int c = 0; c < 3; ++c) d[3 * a + c] = 3 * nodes[a] + c;
      gather(xe);
      std::fill(ye, ye + n * k, 0.0);
      std::fill(de, de + n, 0.0);
      const CellCoords X = cell_coords(mesh, e);
      for (int q = 0; q < basis.nq; ++q) {
        const double wd = element_error(e, [&] { return lagrange_strain_matrix(basis, X, q, B); });
        elasticity_point(D, B.data(), n, wd, k, xe, ye, de);
      }
    };
  });
}

ReferenceProducts reference_products(const Mesh& mesh, double permittivity,
                                     const std::vector<std::vector<double>>& x, int threads) {
  if (mesh.cell != CellType::tri3)
    throw InputError(std::string("reference_products: tri3 mesh expected, got ") + cell_name(mesh.cell));
  const std::size_t k = x.size();
  return element_products(mesh.num_elements(), 3, x, ordinal_t(mesh.num_nodes()), threads, [&] {
    return [&](std::size_t e, ordinal_t* dofs, double* xe, double* ye, double* de, auto gather) {
      for (int a = 0; a < 3; ++a) dofs[a] = mesh.elements[e][a];
      gather(xe);
      double B[2][3];
      const double area = element_error(e, [&] { return tri3_gradients(tri3_coords(mesh, e), B); });
      const double w = permittivity * area;
      for (std::size_t v = 0; v < k; ++v) {  // Ke x = w B^T (B x)
        const double g[2] = {B[0][0] * xe[3 * v] + B[0][1] * xe[3 * v + 1] + B[0][2] * xe[3 * v + 2],
                             B[1][0] * xe[3 * v] + B[1][1] * xe[3 * v + 1] + B[1][2] * xe[3 * v + 2]};
        for (int a = 0; a < 3; ++a) ye[3 * v + a] = w * (B[0][a] * g[0] + B[1][a] * g[1]);
      }
      for (int a = 0; a < 3; ++a) de[a] = w * (B[0][a] * B[0][a] + B[1][a] * B[1][a]);
    };
  });
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
    if (std::abs(R.vals[k]) > 1e-8 * ref_max)
      d.max_entry_rel = std::max(d.max_entry_rel, diff / std::abs(R.vals[k]));
  }
  d.max_rel = ref_max > 0 ? d.max_abs / ref_max : d.max_abs;
  return d;
}
template MatrixDiff compare(const HostCsr<float>&, const HostCsr<double>&);
template MatrixDiff compare(const HostCsr<double>&, const HostCsr<double>&);
}  // namespace kfem
