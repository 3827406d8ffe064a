// The oracles: plain serial host assemblies in double (kiran Algorithm 2, "Addto"), one per element
// family. Ke is formed the textbook way, an explicit gradient / strain-displacement matrix B and
// B^T D B summed over the quadrature points, so it shares no arithmetic shortcut with the device
// kernels it checks (those reduce to the node-pair products of fe/operator.hpp).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "kfem/dofs/dof_map.hpp"
#include "kfem/fe/elasticity.hpp"
#include "kfem/fe/lagrange_basis.hpp"
#include "kfem/mesh/mesh.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem {
// ---- hex8 elasticity --------------------------------------------------------------------------
using Hex8Coords = std::array<std::array<double, 3>, 8>;

Hex8Coords hex8_coords(const Mesh& mesh, std::size_t e);

// Ke (24x24, row-major, DOF 3a+c) of one element; throws InputError if det J <= 0 at a Gauss point.
void reference_hex8_matrix(const Hex8Coords& X, const Isotropic<double>& m, double Ke[24][24]);

// DOF sparsity of the mesh: row 3n+c holds columns 3m+d for every vertex m sharing an element with n.
HostCsr<double> reference_pattern(const Mesh& mesh);

// Global stiffness (no boundary conditions) by element loop + Addto with binary search. hex8 only.
HostCsr<double> assemble_reference_hex8(const Mesh& mesh, const Isotropic<double>& m);

// ---- any family -------------------------------------------------------------------------------
// DOF sparsity of an element -> node map (num_elements x nodes_per_element ids < num_nodes): row
// components*n+c holds columns components*m+d, sorted, for every node m sharing an element with n.
// Zero values. Throws InputError for ids out of range or a ragged map.
HostCsr<double> reference_pattern(const std::vector<ordinal_t>& element_nodes, int nodes_per_element,
                                  ordinal_t num_nodes, int components);

// ---- tri3 electrostatics (1 DOF per node: DOF = node) -----------------------------------------
using TriCoords = std::array<std::array<double, 3>, 3>;  // z ignored

TriCoords tri3_coords(const Mesh& mesh, std::size_t e);

// Ke = eps * area * B^T B (3x3) with B the constant 2x3 gradient matrix; throws InputError if the
// vertices are not counter-clockwise (area <= 0).
void reference_tri3_matrix(const TriCoords& X, double permittivity, double Ke[3][3]);

HostCsr<double> assemble_reference_electrostatics(const Mesh& tri3_mesh, double permittivity);

// ---- P_p elasticity on prisms and tetrahedra (3 DOFs per DOF node: DOF = 3 * node + component) --
// The cell's vertices (a tetrahedron's 4 first, the rest zero).
using CellCoords = std::array<std::array<double, 3>, lagrange::max_vertices>;

CellCoords cell_coords(const Mesh& mesh, std::size_t e);

// Ke ((3 nsh)^2, row-major, local DOF 3a+c for shape function a of `basis`) of the prism or
// tetrahedron (basis.cell) with vertices X: sum over the quadrature points of w det J B^T D B with an
// explicit 6 x 3nsh B. Throws InputError if det J <= 0 at a quadrature point.
void reference_lagrange_matrix(const lagrange::Basis& basis, const CellCoords& X, const Isotropic<double>& m,
                               std::vector<double>& Ke);

// Global stiffness of P_{dofs.order} on a prism6 or tet4 mesh, on the pattern of reference_pattern(dofs).
HostCsr<double> assemble_reference_elasticity(const Mesh& mesh, const DofMap& dofs,
                                              const Isotropic<double>& m);

// ---- products with the oracle's element matrices ----------------------------------------------
// y = K x for the check vectors x, and diag(K), element by element: at every quadrature point the
// textbook B and D applied to x_e, y_e += w det J B^T (D (B x_e)), Ke never formed (hex8: 8 x 342
// flops per vector against 8 x 4320 for Ke) on `threads` host threads; summed in element order,
// the same bits for any thread count. Throws InputError ("element E: ...") for a bad element.
struct ReferenceProducts {
  std::vector<std::vector<double>> y;  // y[v] = K x[v]
  std::vector<double> diagonal;        // K_ii (K is positive semidefinite: max K_ii bounds every |K_ij|)
  double seconds = 0;
};
ReferenceProducts reference_products(const Mesh& hex8_mesh, const Isotropic<double>& m,
                                     const std::vector<std::vector<double>>& x, int threads);
ReferenceProducts reference_products(const Mesh& lagrange_mesh, const DofMap& dofs,
                                     const Isotropic<double>& m, const std::vector<std::vector<double>>& x,
                                     int threads);
ReferenceProducts reference_products(const Mesh& tri3_mesh, double permittivity,
                                     const std::vector<std::vector<double>>& x, int threads);
// `count` vectors of n entries, each +-[0.5, 1) at random (seeded): no entry near 0, so a wrong
// matrix entry (i, j) moves (A x)_i by at least half its error.
std::vector<std::vector<double>> check_vectors(ordinal_t n, int count, std::uint64_t seed);

// ---- comparisons ------------------------------------------------------------------------------
// The entries with column <= row (symmetric storage), same order.
HostCsr<double> lower_part(const HostCsr<double>& A);

// Comparison of an assembled matrix with the oracle, entry by entry on the same pattern.
struct MatrixDiff {
  double max_abs = 0;        // max |A - R|
  double max_rel = 0;        // max |A - R| / max |R| (relative to the largest oracle entry)
  double max_entry_rel = 0;  // max |A - R| / |R| over entries with |R| > 1e-8 max |R|
  bool same_pattern = true;
};
template <class S>
MatrixDiff compare(const HostCsr<S>& A, const HostCsr<double>& R);
}  // namespace kfem
