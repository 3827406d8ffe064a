// The oracle: a plain serial host assembly in double (kiran Algorithm 2, "Addto"). Ke is formed
// the textbook way, sum over Gauss points of B^T D B w detJ with an explicit 6x24 B, so it shares
// no arithmetic shortcut with the device kernels it checks.
#pragma once
#include <array>

#include "kfem/fe/elasticity.hpp"
#include "kfem/mesh/hex_mesh.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem {
using ElementCoords = std::array<std::array<double, 3>, 8>;

ElementCoords element_coords(const HexMesh& mesh, std::size_t e);

// Ke (24x24, row-major, DOF 3a+c) of one element; throws InputError if det J <= 0 at a Gauss point.
void reference_element_matrix(const ElementCoords& X, const Isotropic<double>& m, double Ke[24][24]);

// DOF sparsity of the mesh: row 3n+c holds columns 3m+d for every node m sharing an element with n.
HostCsr<double> reference_pattern(const HexMesh& mesh);

// Global stiffness (no boundary conditions) by element loop + Addto with binary search.
HostCsr<double> assemble_reference(const HexMesh& mesh, const Isotropic<double>& m);

// The entries with column <= row (symmetric storage), same order.
HostCsr<double> lower_part(const HostCsr<double>& A);

// Comparison of an assembled matrix with the oracle, entry by entry on the same pattern.
struct MatrixDiff {
  double max_abs = 0;       // max |A - R|
  double max_rel = 0;       // max |A - R| / max |R| (relative to the largest oracle entry)
  double max_entry_rel = 0; // max |A - R| / |R| over entries with |R| > 1e-8 max |R|
  bool same_pattern = true;
};
template <class S>
MatrixDiff compare(const HostCsr<S>& A, const HostCsr<double>& R);
}  // namespace kfem
