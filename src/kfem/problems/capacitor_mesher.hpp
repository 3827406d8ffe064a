// The Gmsh-dependent half of make_capacitor, defined by capacitor_gmsh.cpp (its own library, with
// gmsh.h) or by the stub capacitor_no_gmsh.cpp, whichever KFEM_WITH_GMSH picks. Internal:
// make_capacitor checks the spec and calls this, so the mesher library needs nothing from kfem_lib.
#pragma once
#include "kfem/mesh/mesh.hpp"
#include "kfem/problems/capacitor.hpp"

namespace kfem::capacitor_detail {
Mesh mesh_with_gmsh(const CapacitorSpec&);  // spec already checked
}  // namespace kfem::capacitor_detail
