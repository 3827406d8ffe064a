// The kiran §5.1 cantilever on any 3D family: the face x = xmin clamped, a total force in -z spread
// consistently over the face x = xmax, the tip deflection read-out and the Timoshenko reference.
#pragma once
#include <vector>

#include "kfem/core/types.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/mesh/mesh.hpp"

namespace kfem {
struct CantileverLoad {
  std::vector<ordinal_t> fixed_dofs;  // all 3 components of every DOF node with x == xmin, sorted
  std::vector<double> force;          // nodal forces, 3 per DOF node (DOF = 3 * node + component)
  std::vector<ordinal_t> tip_nodes;   // DOF nodes with x == xmax, sorted: u_z averaged over them
};

// Vertex DOFs (hex8, prism6 or tet4 meshes). "x == xmin/xmax" means within 1e-9 of the bounding-box
// diagonal. hex8: the force goes to the element faces whose 4 nodes all lie on x = xmax, each face
// taking a share of total_force proportional to its area and handing a quarter of it to each
// corner (the consistent load of a uniform traction on a parallelogram). prism6, tet4: as the DofMap
// overload at order 1. Throws InputError for an empty mesh, a tri3 mesh or when no face lies on
// x = xmax.
CantileverLoad cantilever_load(const Mesh& mesh, double total_force);

// Any DofMap of a hex8 (order 1: identical to the overload above), prism6 or tet4 (order 1..7)
// mesh. The cell faces lying on x = xmax (triangles or quadrilaterals, all vertices on the plane)
// carry a uniform traction -total_force / area in z: DOF node a gets -total_force * (int N_a dA) /
// area, with N_a from lagrange::evaluate at a face rule mapped into the reference cell
// (Gauss-Legendre, collapsed on triangles, exact for the planar faces of the linear geometry) and
// the surface Jacobian of the vertex geometry map. Only DOF nodes on x = xmax are loaded, and the
// loads sum to -total_force up to rounding.
CantileverLoad cantilever_load(const Mesh& mesh, const DofMap& dofs, double total_force);

// Mean u_z over the tip nodes (u holds 3 components per DOF node): negative under the -z load.
double tip_deflection(const std::vector<double>& u, const std::vector<ordinal_t>& tip_nodes);

// Tip deflection magnitude of a cantilever of length L with a b x h rectangular section under an
// end load P (Timoshenko beam theory: bending + shear): P L^3 / (3 E I) + P L / (kappa G A),
// I = b h^3 / 12, A = b h, G = E / (2 (1 + nu)), kappa = 10 (1 + nu) / (12 + 11 nu) (Cowper's
// shear coefficient for a rectangle). Positive for positive P.
double timoshenko_tip_deflection(double P, double L, double b, double h, double E, double nu);
}  // namespace kfem
