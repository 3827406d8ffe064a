#include "distribute.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace kfem::parallel {
std::vector<int> node_owners(const DofMap& dofs, const std::vector<int>& element_part) {
  if (element_part.size() != dofs.num_elements())
    throw std::logic_error("node_owners: one part per element expected");
  std::vector<int> owner(std::size_t(dofs.num_nodes), -1);
  for (std::size_t e = 0; e < dofs.num_elements(); ++e)
    for (int a = 0; a < dofs.nodes_per_element; ++a) {
      int& o = owner[std::size_t(dofs.element(e)[a])];
      if (o < 0 || element_part[e] < o) o = element_part[e];
    }
  for (int& o : owner) o = o < 0 ? 0 : o;  // a node of no element (an empty row): rank 0's
  return owner;
}

LocalPart local_part(const Mesh& mesh, const DofMap& dofs, const std::vector<int>& element_part,
                     const std::vector<int>& owner, int rank, int ranks) {
  const std::size_t ne = dofs.num_elements();
  const int nsh = dofs.nodes_per_element;
  LocalPart part;
  part.rank = rank, part.ranks = ranks;

  // tour: ghost-elements
  // Elements held: those with a node this rank owns. What each peer holds of this rank's nodes
  // follows from the same rule applied to the peer, over the whole (replicated) mesh.
  std::vector<std::vector<ordinal_t>> send{std::size_t(ranks)};
  std::vector<int> holders;
  for (std::size_t e = 0; e < ne; ++e) {
    const ordinal_t* en = dofs.element(e);
    holders.clear();
    for (int a = 0; a < nsh; ++a) holders.push_back(owner[std::size_t(en[a])]);
    std::sort(holders.begin(), holders.end());
    holders.erase(std::unique(holders.begin(), holders.end()), holders.end());
    const bool mine = std::binary_search(holders.begin(), holders.end(), rank);
    if (mine) {
      part.elements.push_back(ordinal_t(e));
      part.own_elements += element_part[e] == rank;
    }
    for (const int q : holders)
      if (q != rank)
        for (int a = 0; a < nsh; ++a)
          if (owner[std::size_t(en[a])] == rank) send[std::size_t(q)].push_back(en[a]);
  }
  // tour: end ghost-elements

  // Local DOF nodes: owned (ascending), then ghosts by (owner, global id).
  std::vector<ordinal_t> local(std::size_t(dofs.num_nodes), -1);
  std::vector<ordinal_t> ghosts;
  for (std::size_t n = 0; n < local.size(); ++n)
    if (owner[n] == rank) local[n] = ordinal_t(part.nodes.size()), part.nodes.push_back(ordinal_t(n));
  part.owned = ordinal_t(part.nodes.size());
  for (const ordinal_t e : part.elements)
    for (int a = 0; a < nsh; ++a) {
      const ordinal_t n = dofs.element(std::size_t(e))[a];
      if (local[std::size_t(n)] == -1) local[std::size_t(n)] = -2, ghosts.push_back(n);
    }
  std::sort(ghosts.begin(), ghosts.end(), [&](ordinal_t a, ordinal_t b) {
    const int oa = owner[std::size_t(a)], ob = owner[std::size_t(b)];
    return oa < ob || (oa == ob && a < b);
  });
  for (const ordinal_t n : ghosts)
    local[std::size_t(n)] = ordinal_t(part.nodes.size()), part.nodes.push_back(n);

  // Peers: ranks this one sends to or receives from.
  for (int q = 0; q < ranks; ++q) {
    auto& s = send[std::size_t(q)];
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    Peer p;
    p.rank = q;
    for (const ordinal_t n : s) p.send.push_back(local[std::size_t(n)]);
    const auto first =
        std::find_if(ghosts.begin(), ghosts.end(), [&](ordinal_t n) { return owner[std::size_t(n)] == q; });
    const auto last =
        std::find_if(first, ghosts.end(), [&](ordinal_t n) { return owner[std::size_t(n)] != q; });
    p.recv_begin = part.owned + ordinal_t(first - ghosts.begin());
    p.recv_count = ordinal_t(last - first);
    if (!p.send.empty() || p.recv_count > 0) part.peers.push_back(std::move(p));
  }

  // The local problem: DOF map on local ids, and a mesh of the held elements' vertices.
  DofMap& d = part.dofs;
  d.order = dofs.order;
  d.nodes_per_element = nsh;
  d.num_nodes = ordinal_t(part.nodes.size());
  d.element_nodes.reserve(part.elements.size() * std::size_t(nsh));
  for (const ordinal_t e : part.elements)
    for (int a = 0; a < nsh; ++a)
      d.element_nodes.push_back(local[std::size_t(dofs.element(std::size_t(e))[a])]);
  d.positions.reserve(part.nodes.size());
  ordinal_t bound = 0;  // DOF nodes on vertices, edges, faces, interiors: consecutive global ranges
  std::array<ordinal_t, 4> upper{};
  for (int k = 0; k < 4; ++k) upper[std::size_t(k)] = bound += dofs.per_entity_dim[std::size_t(k)];
  for (const ordinal_t n : part.nodes) {
    d.positions.push_back(dofs.positions[std::size_t(n)]);
    ++d.per_entity_dim[std::size_t(std::upper_bound(upper.begin(), upper.end(), n) - upper.begin())];
  }

  Mesh& m = part.mesh;
  m.cell = mesh.cell;
  const ordinal_t nv = ordinal_t(mesh.num_nodes());  // vertex v is DOF node v (dof_map.hpp)
  std::vector<ordinal_t> vertex(std::size_t(nv), -1);
  for (const ordinal_t n : part.nodes)
    if (n < nv)
      vertex[std::size_t(n)] = ordinal_t(m.nodes.size()), m.nodes.push_back(mesh.nodes[std::size_t(n)]);
  for (const ordinal_t e : part.elements) {
    auto cell = mesh.elements[std::size_t(e)];
    for (int a = 0; a < mesh.nodes_per_element(); ++a)
      cell[std::size_t(a)] = vertex[std::size_t(cell[std::size_t(a)])];
    m.elements.push_back(cell);
  }
  return part;
}
}  // namespace kfem::parallel
