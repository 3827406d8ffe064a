// Random permutations and reverse Cuthill-McKee over the node adjacency graph.
#include "kfem/mesh/renumber.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>

#include "kfem/mesh/incidence.hpp"
#include "kfem/mesh/morton.hpp"

namespace kfem {
namespace {
// Unbiased integer in [0, n) by rejection (std::uniform_int_distribution differs between libraries).
std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t n) {
  const std::uint64_t reject_below = (0 - n) % n;  // 2^64 mod n
  for (;;) {
    const std::uint64_t r = rng();
    if (r >= reject_below) return r % n;
  }
}

// Compressed node graph: neighbours of n are adj[offsets[n] .. offsets[n+1]).
struct NodeGraph {
  std::vector<std::int64_t> offsets;
  std::vector<ordinal_t> adj;
  std::vector<ordinal_t> degree;
};

NodeGraph build_node_graph(const Mesh& mesh) {
  const std::size_t n = mesh.num_nodes();
  const NodeIncidence inc = node_incidence(mesh);

  NodeGraph g;
  g.offsets.assign(n + 1, 0);
  g.degree.resize(n);
  const int per_element = mesh.nodes_per_element();
  g.adj.reserve(n * 27);                    // a structured interior hex node has 26 neighbours
  std::vector<ordinal_t> last_seen(n, -1);  // dedups neighbours without sorting
  for (std::size_t v = 0; v < n; ++v) {
    for (offset_t i = inc.start[v]; i < inc.start[v + 1]; ++i) {
      const auto& el = mesh.elements[inc.elements[i]];
      for (int a = 0; a < per_element; ++a) {
        const ordinal_t w = el[a];
        if (w != ordinal_t(v) && last_seen[w] != ordinal_t(v))
          last_seen[w] = ordinal_t(v), g.adj.push_back(w);
      }
    }
    g.offsets[v + 1] = std::int64_t(g.adj.size());
    g.degree[v] = ordinal_t(g.offsets[v + 1] - g.offsets[v]);
  }
  return g;
}

struct Levels {
  std::size_t last_begin;  // index in the visit order where the deepest level starts
  int depth;               // eccentricity of the root within its component
};

// Breadth-first search from root over unmarked nodes, marking them and appending them to `order`.
// With by_degree, each node's newly found neighbours are appended by increasing (degree, id):
// that is the Cuthill-McKee order.
Levels bfs(const NodeGraph& g, ordinal_t root, bool by_degree, std::vector<char>& mark,
           std::vector<ordinal_t>& order) {
  const auto lower_degree = [&](ordinal_t a, ordinal_t b) {
    return g.degree[a] != g.degree[b] ? g.degree[a] < g.degree[b] : a < b;
  };
  Levels levels{order.size(), 0};
  order.push_back(root);
  mark[root] = 1;
  for (std::size_t head = levels.last_begin, level_end = order.size();; level_end = order.size()) {
    for (; head < level_end; ++head) {
      const std::size_t found = order.size();
      for (std::int64_t i = g.offsets[order[head]]; i < g.offsets[order[head] + 1]; ++i)
        if (!mark[g.adj[i]]) mark[g.adj[i]] = 1, order.push_back(g.adj[i]);
      if (by_degree) std::sort(order.begin() + found, order.end(), lower_degree);
    }
    if (order.size() == level_end) return levels;
    levels.last_begin = level_end;
    ++levels.depth;
  }
}

// George-Liu: hop to the lowest-degree node of the deepest BFS level while the eccentricity grows.
ordinal_t pseudo_peripheral(const NodeGraph& g, ordinal_t start, std::vector<char>& mark) {
  ordinal_t root = start;
  int eccentricity = -1;
  std::vector<ordinal_t> order;
  for (int sweep = 0; sweep < 8; ++sweep) {
    order.clear();
    const Levels levels = bfs(g, root, false, mark, order);
    for (ordinal_t v : order) mark[v] = 0;
    if (levels.depth <= eccentricity) break;
    eccentricity = levels.depth;
    root = *std::min_element(order.begin() + levels.last_begin, order.end(), [&](ordinal_t a, ordinal_t b) {
      return g.degree[a] != g.degree[b] ? g.degree[a] < g.degree[b] : a < b;
    });
  }
  return root;
}

std::vector<ordinal_t> rcm_permutation(const Mesh& mesh) {
  const NodeGraph g = build_node_graph(mesh);
  const auto n = ordinal_t(mesh.num_nodes());
  // Components are entered from their lowest-degree node: scan nodes by (degree, id).
  std::vector<ordinal_t> by_degree(n);
  std::iota(by_degree.begin(), by_degree.end(), 0);
  std::stable_sort(by_degree.begin(), by_degree.end(),
                   [&](ordinal_t a, ordinal_t b) { return g.degree[a] < g.degree[b]; });

  std::vector<char> scratch(n, 0), seen(n, 0);
  std::vector<ordinal_t> order;
  order.reserve(n);
  for (ordinal_t start : by_degree)
    if (!seen[start]) bfs(g, pseudo_peripheral(g, start, scratch), true, seen, order);

  std::vector<ordinal_t> perm(n);
  for (ordinal_t k = 0; k < n; ++k) perm[order[k]] = n - 1 - k;  // the "reverse" in RCM
  return perm;
}
}  // namespace

std::vector<ordinal_t> morton_order(const Mesh& mesh) {
  const std::size_t ne = mesh.num_elements();
  const int nv = mesh.nodes_per_element();
  std::vector<std::array<double, 3>> centre(ne);
  double lo[3], hi[3];
  for (int j = 0; j < 3; ++j)
    lo[j] = std::numeric_limits<double>::max(), hi[j] = std::numeric_limits<double>::lowest();
  for (std::size_t e = 0; e < ne; ++e) {
    for (int j = 0; j < 3; ++j) {  // as morton::centroid: the vertices' mean, in vertex order
      centre[e][j] = 0.0;
      for (int a = 0; a < nv; ++a) centre[e][j] += mesh.nodes[mesh.elements[e][a]][j] / nv;
    }
  }
  for (const auto& x : mesh.nodes)  // as morton::order: the nodes' box
    for (int j = 0; j < 3; ++j) lo[j] = std::min(lo[j], x[j]), hi[j] = std::max(hi[j], x[j]);
  const int bits = morton::code_bits(std::int64_t(ne)), ibits = morton::index_bits(std::int64_t(ne));
  std::vector<std::uint64_t> key(ne);
  for (std::size_t e = 0; e < ne; ++e)
    key[e] = morton::key(centre[e].data(), lo, hi, bits, ibits, std::int64_t(e));
  std::sort(key.begin(), key.end());  // unique: the element index is the key's low bits
  std::vector<ordinal_t> order(ne);
  const std::uint64_t index_mask = (std::uint64_t(1) << ibits) - 1;
  for (std::size_t i = 0; i < ne; ++i) order[i] = ordinal_t(key[i] & index_mask);
  return order;
}

std::vector<ordinal_t> random_permutation(std::size_t n, std::uint64_t seed) {
  std::vector<ordinal_t> p(n);
  std::iota(p.begin(), p.end(), 0);
  std::mt19937_64 rng(seed);
  for (std::size_t i = n; i > 1; --i) std::swap(p[i - 1], p[uniform_below(rng, i)]);
  return p;
}

std::vector<ordinal_t> node_permutation(const Mesh& mesh, Renumbering kind, std::uint64_t seed) {
  switch (kind) {
    case Renumbering::random:
      return random_permutation(mesh.num_nodes(), seed);
    case Renumbering::rcm:
      return rcm_permutation(mesh);
    case Renumbering::natural:
      break;
  }
  std::vector<ordinal_t> identity(mesh.num_nodes());
  std::iota(identity.begin(), identity.end(), 0);
  return identity;
}

Mesh renumber_nodes(const Mesh& mesh, const std::vector<ordinal_t>& perm) {
  const std::size_t n = mesh.num_nodes();
  if (perm.size() != n)
    throw std::invalid_argument("renumber_nodes: permutation size differs from node count");
  std::vector<char> hit(n, 0);
  for (ordinal_t p : perm) {
    if (p < 0 || std::size_t(p) >= n || hit[p])
      throw std::invalid_argument("renumber_nodes: not a permutation");
    hit[p] = 1;
  }
  const int per_element = mesh.nodes_per_element();
  Mesh out;
  out.cell = mesh.cell;
  out.nodes.resize(n);
  for (std::size_t v = 0; v < n; ++v) out.nodes[perm[v]] = mesh.nodes[v];
  out.elements = mesh.elements;
  for (auto& el : out.elements)
    for (int a = 0; a < per_element; ++a) el[a] = perm[el[a]];
  for (const auto& [name, set] : mesh.node_sets) {
    auto& renumbered = out.node_sets[name];
    renumbered.reserve(set.size());
    for (ordinal_t v : set) renumbered.push_back(perm[v]);
    std::sort(renumbered.begin(), renumbered.end());
  }
  out.cell_sets = mesh.cell_sets;  // element order is unchanged
  return out;
}

Mesh shuffle_elements(const Mesh& mesh, std::uint64_t seed) {
  const std::vector<ordinal_t> order = random_permutation(mesh.num_elements(), seed);
  Mesh out;
  out.cell = mesh.cell;
  out.nodes = mesh.nodes;
  out.node_sets = mesh.node_sets;
  out.elements.resize(mesh.num_elements());
  std::vector<ordinal_t> new_id(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    out.elements[k] = mesh.elements[order[k]];
    new_id[order[k]] = ordinal_t(k);
  }
  for (const auto& [name, set] : mesh.cell_sets) {
    auto& moved = out.cell_sets[name];
    moved.reserve(set.size());
    for (ordinal_t e : set) moved.push_back(new_id[e]);
    std::sort(moved.begin(), moved.end());
  }
  return out;
}

ordinal_t node_bandwidth(const Mesh& mesh) {
  ordinal_t bandwidth = 0;
  const int per_element = mesh.nodes_per_element();
  for (const auto& el : mesh.elements) {
    const auto [lo, hi] = std::minmax_element(el.begin(), el.begin() + per_element);
    bandwidth = std::max(bandwidth, ordinal_t(*hi - *lo));
  }
  return bandwidth;
}
}  // namespace kfem
