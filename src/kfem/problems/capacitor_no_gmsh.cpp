// The capacitor mesher of builds without Gmsh (KFEM_WITH_GMSH=OFF, e.g. GPU machines): the mesh
// has to come from a .msh file made elsewhere.
#include "kfem/core/error.hpp"
#include "kfem/problems/capacitor_mesher.hpp"

namespace kfem {
bool gmsh_available() {
  return false;
}

Mesh capacitor_detail::mesh_with_gmsh(const CapacitorSpec&) {
  throw InputError(
      "this kfem was built without Gmsh (KFEM_WITH_GMSH=OFF): mesh the capacitor elsewhere and pass the .msh "
      "file");
}
}  // namespace kfem
