// Dirichlet conditions by physical name, host side: named node sets of the mesh (Gmsh physical
// groups) -> fixed DOFs and their prescribed values, for any DOF map (vertex DOFs of tri3, hex8,
// prism6, and the high-order prism DOF nodes). The device side (the matrix and right-hand side
// update) is problems/dirichlet.hpp.
#pragma once
#include <string>
#include <vector>

#include "kfem/core/types.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/mesh/mesh.hpp"

namespace kfem {
struct DirichletCondition {
  std::string name;            // a node set of the mesh
  std::vector<double> values;  // one per component: {phi} (electrostatics) or {ux, uy, uz} (elasticity)
};

struct FixedDofs {
  std::vector<ordinal_t> dofs;  // sorted, unique; DOF = components * DOF node + component
  std::vector<double> values;   // the prescribed value of each
};

// The DOF nodes on a set of mesh vertices, sorted. Order 1: the vertices themselves. Prisms and
// tetrahedra of order p >= 2: also every edge, face or interior DOF node whose entity (basix numbering, in
// some element using it) has all its vertices in the set. This is exact for node sets that are whole boundary
// faces/edges (what Gmsh physical groups give); a chord joining two set vertices through the interior of the
// set's hull would also be taken.
std::vector<ordinal_t> dof_nodes_on(const Mesh&, const DofMap&, const std::vector<ordinal_t>& vertices);

// Fixed DOFs of the conditions, in order: a DOF on several sets takes the last condition's value.
// Names resolve through named_node_set (unknown or empty names throw InputError naming `source`,
// a deck or a command); each value must have `components` entries (1 or 3).
FixedDofs fixed_dofs_by_name(const Mesh&, const DofMap&, int components,
                             const std::vector<DirichletCondition>&, const std::string& source);
}  // namespace kfem
