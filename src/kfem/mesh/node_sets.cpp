// Named node-set lookup with errors that list what the mesh does have.
#include "kfem/mesh/node_sets.hpp"

#include "kfem/core/error.hpp"

namespace kfem {
const std::vector<ordinal_t>& named_node_set(const Mesh& mesh, const std::string& name,
                                             const std::string& source) {
  const auto it = mesh.node_sets.find(name);
  if (it == mesh.node_sets.end()) {
    std::string known;
    for (const auto& [set_name, set] : mesh.node_sets) known += (known.empty() ? "" : ", ") + set_name;
    std::string cells;
    if (mesh.cell_sets.count(name))
      cells = "; '" + name + "' is a group of " + cell_name(mesh.cell) + " cells, not of boundary nodes";
    throw InputError(source + ": no physical group named '" + name +
                     "' in the mesh (known: " + (known.empty() ? "none" : known) + ")" + cells);
  }
  if (it->second.empty()) throw InputError(source + ": physical group '" + name + "' is empty");
  return it->second;
}
}  // namespace kfem
