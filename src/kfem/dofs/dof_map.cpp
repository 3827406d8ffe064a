// DOF numbering of P_p on linear prism and tetrahedron meshes. Shared edges and faces are found by hashing
// their sorted global vertex ids; a node on such an entity gets its index inside the entity from its lattice
// position expressed in those sorted global vertices, so every element that sees the entity derives the same
// index whatever its local vertex order (rotations, flips, renumbering).
#include "kfem/dofs/dof_map.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>

#include "kfem/core/error.hpp"
#include "kfem/fe/lagrange_basis.hpp"

namespace kfem {
namespace {
void check_vertices(const Mesh& mesh) {
  const int npe = mesh.nodes_per_element();
  const auto nv = ordinal_t(mesh.num_nodes());
  for (std::size_t e = 0; e < mesh.num_elements(); ++e)
    for (int a = 0; a < npe; ++a)
      if (mesh.elements[e][a] < 0 || mesh.elements[e][a] >= nv)
        throw InputError("dof map: element " + std::to_string(e) + " has vertex id " +
                         std::to_string(mesh.elements[e][a]) + " outside 0.." + std::to_string(nv - 1));
}

// Where a local shape function sits, reduced to what the numbering needs: its entity and its
// integer lattice weights with respect to that entity's local vertices (w_v = p^2 * N_v(point),
// N_v the P1 vertex functions: p * barycentric on triangle entities and edges, bilinear corner
// weights on quadrilaterals). Interior nodes keep their rank among the element's interior nodes.
struct LocalNode {
  int dim = 0, entity = 0;
  std::array<int, 4> w{};  // per vertex of the entity, in lagrange::edges()/faces() order
  int rank = 0;            // interior nodes only
};

std::vector<LocalNode> local_nodes(const lagrange::Basis& b) {
  const int p = b.order;
  std::vector<LocalNode> out(b.nsh);
  int interior = 0;
  for (int a = 0; a < b.nsh; ++a) {
    LocalNode& n = out[a];
    n.dim = b.entity_dim[a], n.entity = b.entity[a];
    // The equispaced nodes are lattice points: p^2 N_v is an exact integer there.
    const auto N = lagrange::vertex_functions(b.cell, b.points[a]);
    auto weight = [&](int v) { return int(std::lround(p * p * N[v])); };
    if (n.dim == 1) {
      for (int c = 0; c < 2; ++c) n.w[c] = weight(lagrange::edges(b.cell)[n.entity][c]);
    } else if (n.dim == 2) {
      const auto& f = lagrange::faces(b.cell)[n.entity];
      for (std::size_t c = 0; c < f.size(); ++c) n.w[c] = weight(f[c]);
    } else if (n.dim == 3) {
      n.rank = interior++;
    }
  }
  return out;
}

struct FaceKey {
  std::array<ordinal_t, 4> v;  // sorted global vertex ids; -1 in the last slot for triangles
  bool operator==(const FaceKey& o) const { return v == o.v; }
};
struct FaceHash {
  std::size_t operator()(const FaceKey& k) const {
    std::uint64_t h = 0x9e3779b97f4a7c15ull;
    for (ordinal_t x : k.v) h = (h ^ std::uint32_t(x)) * 0xff51afd7ed558ccdull, h ^= h >> 32;
    return h;
  }
};
struct EdgeHash {
  std::size_t operator()(std::uint64_t k) const {
    k = (k ^ (k >> 33)) * 0xff51afd7ed558ccdull;
    return std::size_t(k ^ (k >> 33));
  }
};

// Index of a node inside its edge, from its weights at the edge's two vertices (global ids g):
// the lattice step from the lower global id, 1..p-1, minus one.
int edge_index(const std::array<ordinal_t, 2>& g, const std::array<int, 4>& w, int p) {
  return (g[0] < g[1] ? w[1] : w[0]) / p - 1;
}

// Index of a node inside a triangular face: its barycentric lattice coordinates (l0, l1, l2) in the
// order of increasing global vertex id, l >= 1 and sum p; rows of constant l2, l1 increasing.
int triangle_index(const std::array<ordinal_t, 3>& g, const std::array<int, 4>& w, int p) {
  std::array<int, 3> order = {0, 1, 2};
  std::sort(order.begin(), order.end(), [&](int a, int b) { return g[a] < g[b]; });
  const int l1 = w[order[1]] / p, l2 = w[order[2]] / p;
  const int m = p - 3;  // interior rows hold m+1, m, ..., 1 nodes
  const int r = l2 - 1;
  return r * (m + 1) - r * (r - 1) / 2 + (l1 - 1);
}

// Index of a node inside a quadrilateral face (corners in tensor order, c0 diagonal to c3): take
// the corner with the lowest global id as origin, its neighbour with the lower id as the u
// direction and the other neighbour as v; (u, v) in 1..p-1 follow from the bilinear weights.
int quad_index(const std::array<ordinal_t, 4>& g, const std::array<int, 4>& w, int p) {
  constexpr int diagonal[4] = {3, 2, 1, 0};
  int o = 0;
  for (int c = 1; c < 4; ++c)
    if (g[c] < g[o]) o = c;
  int a = o ^ 1, b = o ^ 2;  // the two neighbours of o in tensor order
  if (g[b] < g[a]) std::swap(a, b);
  const int d = diagonal[o];
  const int u = (w[a] + w[d]) / p, v = (w[b] + w[d]) / p;
  return (u - 1) + (p - 1) * (v - 1);
}
}  // namespace

DofMap vertex_dof_map(const Mesh& mesh) {
  check_vertices(mesh);
  DofMap m;
  m.order = 1;
  m.nodes_per_element = mesh.nodes_per_element();
  m.num_nodes = ordinal_t(mesh.num_nodes());
  m.element_nodes.resize(mesh.num_elements() * m.nodes_per_element);
  for (std::size_t e = 0; e < mesh.num_elements(); ++e)
    std::copy_n(mesh.elements[e].begin(), m.nodes_per_element,
                m.element_nodes.begin() + std::ptrdiff_t(e * m.nodes_per_element));
  m.positions = mesh.nodes;
  m.per_entity_dim = {m.num_nodes, 0, 0, 0};
  return m;
}

DofMap lagrange_dof_map(const Mesh& mesh, int order) {
  if (!lagrange::has_basis(mesh.cell))
    throw InputError(std::string("P_p dof map: the mesh has ") + cell_name(mesh.cell) +
                     " cells, not prism6 or tet4");
  const lagrange::Basis& b = lagrange::tabulate(mesh.cell, order);  // validates the order
  if (order == 1) return vertex_dof_map(mesh);
  check_vertices(mesh);

  const int p = order, nsh = b.nsh, nvert = b.vertices;
  const std::size_t ne = mesh.num_elements();
  const std::vector<LocalNode> local = local_nodes(b);
  const auto& edges = lagrange::edges(mesh.cell);
  const auto& faces = lagrange::faces(mesh.cell);
  const std::size_t n_edges = edges.size(), n_faces = faces.size();

  // Pass 1: global edge and face ids, in order of first appearance (element by element).
  std::vector<ordinal_t> elem_edge(ne * n_edges), elem_face(ne * n_faces);
  std::unordered_map<std::uint64_t, ordinal_t, EdgeHash> edge_id;
  std::unordered_map<FaceKey, ordinal_t, FaceHash> face_id;
  edge_id.reserve(ne * 4);
  face_id.reserve(ne * 3);
  std::vector<char> face_is_quad;
  for (std::size_t e = 0; e < ne; ++e) {
    const auto& ev = mesh.elements[e];
    for (std::size_t i = 0; i < n_edges; ++i) {
      ordinal_t a = ev[edges[i][0]], c = ev[edges[i][1]];
      if (a > c) std::swap(a, c);
      const auto key = (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(c);
      elem_edge[e * n_edges + i] = edge_id.try_emplace(key, ordinal_t(edge_id.size())).first->second;
    }
    for (std::size_t f = 0; f < n_faces; ++f) {
      const auto& fv = faces[f];
      FaceKey key{{-1, -1, -1, -1}};
      for (std::size_t c = 0; c < fv.size(); ++c) key.v[c] = ev[fv[c]];
      std::sort(key.v.begin(), key.v.begin() + std::ptrdiff_t(fv.size()));
      const auto [it, added] = face_id.try_emplace(key, ordinal_t(face_id.size()));
      if (added) face_is_quad.push_back(fv.size() == 4);
      elem_face[e * n_faces + f] = it->second;
    }
  }

  // Global id ranges: vertices, edges (p-1 nodes each), faces, interiors.
  const std::int64_t nv = std::int64_t(mesh.num_nodes()), nedge = std::int64_t(edge_id.size());
  const std::int64_t per_edge = p - 1, per_tri = (p - 1) * (p - 2) / 2, per_quad = (p - 1) * (p - 1);
  std::int64_t per_cell = std::int64_t(nsh) - nvert - std::int64_t(n_edges) * per_edge;
  for (const auto& f : faces) per_cell -= f.size() == 4 ? per_quad : per_tri;
  std::vector<std::int64_t> face_first(face_is_quad.size() + 1);
  face_first[0] = nv + nedge * per_edge;
  for (std::size_t f = 0; f < face_is_quad.size(); ++f)
    face_first[f + 1] = face_first[f] + (face_is_quad[f] ? per_quad : per_tri);
  const std::int64_t cell_first = face_first.back();
  const std::int64_t total = cell_first + std::int64_t(ne) * per_cell;
  if (total > std::numeric_limits<ordinal_t>::max())
    throw InputError("P_p dof map: " + std::to_string(total) + " DOF nodes exceed the 32-bit ids");

  DofMap m;
  m.order = p;
  m.nodes_per_element = nsh;
  m.num_nodes = ordinal_t(total);
  m.per_entity_dim = {ordinal_t(nv), ordinal_t(nedge * per_edge),
                      ordinal_t(cell_first - nedge * per_edge - nv), ordinal_t(std::int64_t(ne) * per_cell)};
  m.element_nodes.resize(ne * nsh);
  m.positions.assign(total, {0.0, 0.0, 0.0});
  std::copy(mesh.nodes.begin(), mesh.nodes.end(), m.positions.begin());

  // Reference vertex functions at every local node (the geometry map of the physical positions).
  std::vector<std::array<double, lagrange::max_vertices>> geo(nsh);
  for (int a = 0; a < nsh; ++a) geo[a] = lagrange::vertex_functions(mesh.cell, b.points[a]);

  // Pass 2: every local node's global id, and the positions of the non-vertex nodes.
  for (std::size_t e = 0; e < ne; ++e) {
    const auto& ev = mesh.elements[e];
    ordinal_t* out = m.element_nodes.data() + e * nsh;
    for (int a = 0; a < nsh; ++a) {
      const LocalNode& n = local[a];
      std::int64_t g = 0;
      if (n.dim == 0) {
        g = ev[n.entity];
      } else if (n.dim == 1) {
        const auto& lv = edges[n.entity];
        g = nv + std::int64_t(elem_edge[e * n_edges + n.entity]) * per_edge +
            edge_index({ev[lv[0]], ev[lv[1]]}, n.w, p);
      } else if (n.dim == 2) {
        const auto& lv = faces[n.entity];
        const std::int64_t first = face_first[elem_face[e * n_faces + n.entity]];
        if (lv.size() == 3)
          g = first + triangle_index({ev[lv[0]], ev[lv[1]], ev[lv[2]]}, n.w, p);
        else
          g = first + quad_index({ev[lv[0]], ev[lv[1]], ev[lv[2]], ev[lv[3]]}, n.w, p);
      } else {
        g = cell_first + std::int64_t(e) * per_cell + n.rank;
      }
      out[a] = ordinal_t(g);
      if (n.dim > 0) {
        auto& x = m.positions[g];
        x = {0.0, 0.0, 0.0};
        for (int v = 0; v < nvert; ++v)
          for (int k = 0; k < 3; ++k) x[k] += geo[a][v] * mesh.nodes[ev[v]][k];
      }
    }
  }
  return m;
}
}  // namespace kfem
