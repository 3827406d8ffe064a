// One rank's share of a mesh every rank holds whole (read or generated on each, then restricted):
// the DOF nodes it owns (its rows), every element touching them (its own and ghost elements, whose
// Ke are computed redundantly so that assembly needs no communication), the ghost DOF nodes those
// elements reach (extra columns), and the halo: which owned nodes go to which rank and where the
// ghosts of each owner sit. A DOF node belongs to the lowest part among the elements around it.
//
// Local numbering: owned DOF nodes first, ascending global id, then the ghosts grouped by owner
// (ascending) and ascending global id inside a group, so that each owner's ghosts are one
// contiguous range a receive can land in. Rows of the local CSR that belong to owned nodes form a
// prefix; the rows of ghost nodes are incomplete and unused. On one rank the local problem is the
// global one, numbered the same.
#pragma once
#include <cstddef>
#include <vector>

#include "kfem/core/types.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/mesh/mesh.hpp"

namespace kfem::parallel {
struct Peer {
  int rank = 0;
  std::vector<ordinal_t> send;  // local ids of owned nodes the peer holds as ghosts, by global id
  ordinal_t recv_begin = 0;     // its nodes among this rank's ghosts: local ids [begin, begin + count)
  ordinal_t recv_count = 0;
};

struct LocalPart {
  int rank = 0, ranks = 1;
  std::vector<ordinal_t> elements;  // global element ids held, ascending
  std::size_t own_elements = 0;     // of them, those of this rank's part
  std::vector<ordinal_t> nodes;     // local DOF node -> global DOF node
  ordinal_t owned = 0;              // nodes[0, owned) are owned
  std::vector<Peer> peers;          // by rank
  Mesh mesh;                        // the held elements on local vertex ids
  DofMap dofs;                      // their DOF nodes on local ids

  ordinal_t ghosts() const { return ordinal_t(nodes.size()) - owned; }
};

// owner[n] = the lowest element_part around DOF node n (0 for a node of no element).
std::vector<int> node_owners(const DofMap& dofs, const std::vector<int>& element_part);

// Rank `rank`'s part. The mesh's node sets and cell sets are not carried (boundary conditions are
// set on the global numbering and mapped with `nodes`). For order 1 the local vertices are the
// local DOF nodes; for higher orders the vertices of the held elements in local DOF order.
LocalPart local_part(const Mesh& mesh, const DofMap& dofs, const std::vector<int>& element_part,
                     const std::vector<int>& owner, int rank, int ranks);
}  // namespace kfem::parallel
