// DOF maps: vertex maps of every family, and kfem's own P_p numbering on prism and tet meshes (p = 1..7):
// counts, sharing of edge/face nodes whatever the elements' local orientation, physical node
// positions, polynomial reproduction on affine meshes, continuity across faces, speed.
#include "kfem/dofs/dof_map.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "dofs/prism_meshes.hpp"
#include "kfem/core/error.hpp"
#include "kfem/fe/lagrange_basis.hpp"
#include "kfem/mesh/box.hpp"

namespace kfem {
namespace {
using test::Variant;
constexpr Variant kVariants[] = {Variant::plain, Variant::reoriented, Variant::renumbered, Variant::both};

std::array<double, 3> map_point(const Mesh& m, std::size_t e, const std::array<double, 3>& xi) {
  const auto n = lagrange::vertex_functions(m.cell, xi);
  std::array<double, 3> x{0, 0, 0};
  for (int v = 0; v < m.nodes_per_element(); ++v)
    for (int k = 0; k < 3; ++k) x[k] += n[v] * m.nodes[m.elements[e][v]][k];
  return x;
}

double dist(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

// u_h at reference points xi of element e, from global nodal values U.
std::vector<double> fe_values(const DofMap& d, std::size_t e, const std::vector<std::array<double, 3>>& xi,
                              const std::vector<double>& U) {
  std::vector<double> N;
  lagrange::evaluate(CellType::prism6, d.order, xi, N);
  std::vector<double> u(xi.size(), 0.0);
  const ordinal_t* g = d.element(e);
  for (std::size_t i = 0; i < xi.size(); ++i)
    for (int a = 0; a < d.nodes_per_element; ++a) u[i] += N[i * d.nodes_per_element + a] * U[g[a]];
  return u;
}

// max over elements and local nodes of |position of the global node - the element's map of the
// local node's reference point|.
double position_mismatch(const Mesh& m, const DofMap& d) {
  const lagrange::Basis& b = lagrange::tabulate(CellType::prism6, d.order);
  double worst = 0;
  for (std::size_t e = 0; e < m.num_elements(); ++e)
    for (int a = 0; a < b.nsh; ++a)
      worst = std::max(worst, dist(d.positions[d.element(e)[a]], map_point(m, e, b.points[a])));
  return worst;
}

struct Jumps {
  int shared_faces = 0;
  double value = 0, position = 0;  // max |u_h jump| and max distance of the two sides' points
};
// Random nodal values; at random points of every face shared by two elements, u_h from both sides.
Jumps face_jumps(const Mesh& m, const DofMap& d) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> r(0.0, 1.0);
  std::vector<double> U(d.num_nodes);
  for (double& x : U) x = r(rng) - 0.5;
  // Faces by sorted global vertices -> (element, local face) of each side.
  std::map<std::vector<ordinal_t>, std::vector<std::pair<std::size_t, int>>> sides;
  for (std::size_t e = 0; e < m.num_elements(); ++e)
    for (int f = 0; f < 5; ++f) {
      std::vector<ordinal_t> k;
      for (int c : lagrange::faces(CellType::prism6)[f]) k.push_back(m.elements[e][c]);
      std::sort(k.begin(), k.end());
      sides[k].push_back({e, f});
    }
  Jumps j;
  for (const auto& [key, s] : sides) {
    if (s.size() != 2) continue;
    ++j.shared_faces;
    // Weights over the face's global vertices: barycentric on triangles; bilinear on quads, set up
    // in the first element's tensor corner order (the point does not depend on which symmetry of
    // the square the second element's order differs by).
    const auto& f0 = lagrange::faces(CellType::prism6)[s[0].second];
    for (int sample = 0; sample < 3; ++sample) {
      std::map<ordinal_t, double> w;
      const double a = r(rng), c = r(rng);
      if (f0.size() == 3) {
        const double l1 = std::min(a, c), l2 = std::max(a, c) - std::min(a, c);
        const double l[3] = {1 - l1 - l2, l1, l2};
        for (int i = 0; i < 3; ++i) w[m.elements[s[0].first][f0[i]]] = l[i];
      } else {
        const double l[4] = {(1 - a) * (1 - c), a * (1 - c), (1 - a) * c, a * c};
        for (int i = 0; i < 4; ++i) w[m.elements[s[0].first][f0[i]]] = l[i];
      }
      double u[2];
      std::array<double, 3> x[2];
      for (int side = 0; side < 2; ++side) {
        const std::size_t e = s[side].first;
        std::array<double, 3> xi{0, 0, 0};
        for (int v = 0; v < 6; ++v) {
          const auto it = w.find(m.elements[e][v]);
          if (it == w.end()) continue;
          for (int k = 0; k < 3; ++k)
            xi[k] += it->second * lagrange::reference_vertex(CellType::prism6, v)[k];
        }
        u[side] = fe_values(d, e, {xi}, U)[0];
        x[side] = map_point(m, e, xi);
      }
      j.value = std::max(j.value, std::abs(u[0] - u[1]));
      j.position = std::max(j.position, dist(x[0], x[1]));
    }
  }
  return j;
}

struct EntityCounts {
  std::int64_t vertices = 0, edges = 0, tris = 0, quads = 0;
};
// Counted independently of dof_map.cpp: sets of sorted vertex tuples.
EntityCounts count_entities(const Mesh& m) {
  std::set<std::vector<ordinal_t>> e, t, q;
  for (const auto& v : m.elements) {
    for (const auto& ed : lagrange::edges(m.cell)) {
      std::vector<ordinal_t> k = {v[ed[0]], v[ed[1]]};
      std::sort(k.begin(), k.end());
      e.insert(k);
    }
    for (const auto& f : lagrange::faces(m.cell)) {
      std::vector<ordinal_t> k;
      for (int c : f) k.push_back(v[c]);
      std::sort(k.begin(), k.end());
      (k.size() == 3 ? t : q).insert(k);
    }
  }
  return {std::int64_t(m.num_nodes()), std::int64_t(e.size()), std::int64_t(t.size()),
          std::int64_t(q.size())};
}

TEST(VertexDofMap, AnyFamily) {
  BoxSpec s;
  s.nx = 3, s.ny = 2, s.nz = 2;
  const Mesh hex = make_box(s);
  Mesh tri;
  tri.cell = CellType::tri3;
  tri.nodes = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  tri.elements = {{0, 1, 2, -1, -1, -1, -1, -1}, {0, 2, 3, -1, -1, -1, -1, -1}};
  const Mesh prisms = test::prism_box(2, 2, 1);
  for (const Mesh* m : std::vector<const Mesh*>{&hex, &tri, &prisms}) {
    const DofMap d = vertex_dof_map(*m);
    EXPECT_EQ(d.order, 1);
    EXPECT_EQ(d.nodes_per_element, m->nodes_per_element());
    EXPECT_EQ(d.num_nodes, ordinal_t(m->num_nodes()));
    EXPECT_EQ(d.num_elements(), m->num_elements());
    EXPECT_EQ(d.positions, m->nodes);
    EXPECT_EQ(d.per_entity_dim, (std::array<ordinal_t, 4>{ordinal_t(m->num_nodes()), 0, 0, 0}));
    for (std::size_t e = 0; e < m->num_elements(); ++e)
      for (int a = 0; a < d.nodes_per_element; ++a) EXPECT_EQ(d.element(e)[a], m->elements[e][a]);
  }
}

TEST(PrismDofMap, OrderOneIsTheVertexMap) {
  const Mesh m = test::prism_box(2, 1, 2);
  const DofMap a = lagrange_dof_map(m, 1), b = vertex_dof_map(m);
  EXPECT_EQ(a.element_nodes, b.element_nodes);
  EXPECT_EQ(a.num_nodes, b.num_nodes);
  EXPECT_EQ(a.positions, b.positions);
}

TEST(PrismDofMap, RejectsOtherFamiliesAndOrders) {
  BoxSpec s;
  s.nx = s.ny = s.nz = 1;
  EXPECT_THROW(lagrange_dof_map(make_box(s), 2), InputError);
  const Mesh m = test::prism_box(1, 1, 1);
  for (int p : {0, 8, 9}) EXPECT_THROW(lagrange_dof_map(m, p), InputError) << p;
  Mesh bad = m;
  bad.elements[0][2] = ordinal_t(bad.num_nodes());
  EXPECT_THROW(lagrange_dof_map(bad, 2), InputError);
}

TEST(PrismDofMap, ReorientedElementsStayValid) {
  const Mesh m = test::apply(test::prism_box(2, 2, 2, 0.2), Variant::both);
  for (std::size_t e = 0; e < m.num_elements(); ++e) EXPECT_GT(test::centroid_jacobian(m, e), 0.0) << e;
}

// Node count = V + (p-1) E + (p-1)(p-2)/2 F_tri + (p-1)^2 F_quad + (p-1)^2 (p-2)/2 elements, and
// the structure every map must have: vertices first with their mesh ids, then edges, faces,
// interiors; every node used; distinct nodes inside an element; deterministic.
TEST(PrismDofMap, CountsAndStructure) {
  for (Variant var : kVariants) {
    const Mesh m = test::apply(test::prism_box(3, 2, 2, 0.15), var);
    const EntityCounts c = count_entities(m);
    const std::int64_t ne = std::int64_t(m.num_elements());
    for (int p = 1; p <= 7; ++p) {
      SCOPED_TRACE(std::string(test::variant_name(var)) + " p = " + std::to_string(p));
      const DofMap d = lagrange_dof_map(m, p);
      const std::int64_t expect_v = c.vertices, expect_e = (p - 1) * c.edges,
                         expect_f = (p - 1) * (p - 2) / 2 * c.tris + (p - 1) * (p - 1) * c.quads,
                         expect_i = (p - 1) * (p - 1) * (p - 2) / 2 * ne;
      EXPECT_EQ(d.num_nodes, expect_v + expect_e + expect_f + expect_i);
      EXPECT_EQ(d.per_entity_dim, (std::array<ordinal_t, 4>{ordinal_t(expect_v), ordinal_t(expect_e),
                                                            ordinal_t(expect_f), ordinal_t(expect_i)}));
      EXPECT_EQ(d.order, p);
      EXPECT_EQ(d.nodes_per_element, lagrange::num_shape_functions(CellType::prism6, p));
      ASSERT_EQ(d.num_elements(), m.num_elements());
      ASSERT_EQ(d.positions.size(), d.num_nodes);

      const lagrange::Basis& b = lagrange::tabulate(CellType::prism6, p);
      std::vector<int> used(d.num_nodes, 0);
      // The DOF-node range of each entity dimension: [first[dim], first[dim + 1]).
      std::array<std::int64_t, 5> first{0};
      for (int k = 0; k < 4; ++k) first[k + 1] = first[k] + d.per_entity_dim[k];
      for (std::size_t e = 0; e < m.num_elements(); ++e) {
        const ordinal_t* g = d.element(e);
        std::set<ordinal_t> distinct(g, g + d.nodes_per_element);
        EXPECT_EQ(distinct.size(), d.nodes_per_element) << "element " << e;
        for (int a = 0; a < d.nodes_per_element; ++a) {
          ASSERT_GE(g[a], 0);
          ASSERT_LT(g[a], d.num_nodes);
          ++used[g[a]];
          const int dim = b.entity_dim[a];
          EXPECT_GE(g[a], first[dim]);
          EXPECT_LT(g[a], first[dim + 1]);
          if (dim == 0) {
            EXPECT_EQ(g[a], m.elements[e][a]);
          }
          if (dim == 3) {
            EXPECT_EQ(used[g[a]], 1);  // interiors are private
          }
        }
      }
      EXPECT_EQ(std::count(used.begin(), used.end(), 0), 0);
      const DofMap again = lagrange_dof_map(m, p);
      EXPECT_EQ(again.element_nodes, d.element_nodes);
      EXPECT_EQ(again.positions, d.positions);
    }
  }
}

// Interpolating u = (x + 2y + 0.3)^p (1 + z)^p + x^(p-1) y z^p, which lies in P_p(x, y) x P_p(z), at
// the DOF positions reproduces it exactly inside every element of an undistorted split box (the
// element maps are affine in (x, y) and in z separately).
TEST(PrismDofMap, ReproducesPolynomialsOfTheSpace) {
  for (Variant var : kVariants)
    for (int p = 1; p <= 7; ++p) {
      SCOPED_TRACE(std::string(test::variant_name(var)) + " p = " + std::to_string(p));
      const Mesh m = test::apply(test::prism_box(2, 2, 2), var);
      const DofMap d = lagrange_dof_map(m, p);
      auto u = [p](const std::array<double, 3>& x) {
        return std::pow(x[0] + 2 * x[1] + 0.3, p) * std::pow(1 + x[2], p) +
               std::pow(x[0], p - 1) * x[1] * std::pow(x[2], p);
      };
      std::vector<double> U(d.num_nodes);
      double scale = 0;
      for (std::size_t i = 0; i < U.size(); ++i)
        U[i] = u(d.positions[i]), scale = std::max(scale, std::abs(U[i]));
      std::mt19937_64 rng(42);
      std::uniform_real_distribution<double> r(0.0, 1.0);
      double worst = 0;
      for (std::size_t e = 0; e < m.num_elements(); ++e) {
        std::vector<std::array<double, 3>> xi;
        for (int s = 0; s < 5; ++s) {
          double a = r(rng), c = r(rng);
          if (a + c > 1) a = 1 - a, c = 1 - c;
          xi.push_back({a, c, r(rng)});
        }
        const auto uh = fe_values(d, e, xi, U);
        for (std::size_t s = 0; s < xi.size(); ++s)
          worst = std::max(worst, std::abs(uh[s] - u(map_point(m, e, xi[s]))));
      }
      EXPECT_LT(worst, 1e-10 * scale);
    }
}

// Every element that uses a node sees it at the same physical place: the strongest direct check
// that shared edge/face nodes are matched point by point (a swapped pair sits elsewhere).
TEST(PrismDofMap, PositionsAgreeWithEveryElementsGeometryMap) {
  for (Variant var : kVariants)
    for (int p = 2; p <= 7; ++p) {
      SCOPED_TRACE(std::string(test::variant_name(var)) + " p = " + std::to_string(p));
      const Mesh m = test::apply(test::prism_box(2, 2, 2, 0.2, 5), var);
      EXPECT_LT(position_mismatch(m, lagrange_dof_map(m, p)), 1e-12);
    }
}

// Random nodal values: u_h evaluated from the two elements that share a face agrees at points of
// that face (distorted mesh, so nothing relies on affine maps).
TEST(PrismDofMap, ContinuousAcrossFaces) {
  for (Variant var : kVariants)
    for (int p = 1; p <= 7; ++p) {
      SCOPED_TRACE(std::string(test::variant_name(var)) + " p = " + std::to_string(p));
      const Mesh m = test::apply(test::prism_box(2, 2, 2, 0.2, 9), var);
      const Jumps j = face_jumps(m, lagrange_dof_map(m, p));
      EXPECT_GT(j.shared_faces, 20);
      EXPECT_LT(j.position, 1e-12);  // the two sides really evaluate at one physical point
      EXPECT_LT(j.value, 1e-10);
    }
}

// Two prisms whose shared square face has crossed axes: the triangle edges of one are the
// extrusion edges of the other (legal in unstructured prism meshes; the trace space Q_p of the
// face is the same from both sides), so the quad's node order cannot lean on which direction is
// "vertical".
TEST(PrismDofMap, CrossedQuadFace) {
  Mesh base;
  base.cell = CellType::prism6;
  // Shared square y = 0: 0 (0,0,0), 1 (1,0,0), 2 (0,0,1), 3 (1,0,1).
  base.nodes = {{0, 0, 0},    {1, 0, 0},    {0, 0, 1},   {1, 0, 1},
                {0.5, -1, 0}, {0.5, -1, 1}, {0, 1, 0.5}, {1, 1, 0.5}};
  base.elements = {{0, 4, 1, 2, 5, 3, -1, -1},   // extruded along z
                   {0, 6, 2, 1, 7, 3, -1, -1}};  // extruded along x
  for (Variant var : kVariants)
    for (int p = 1; p <= 7; ++p) {
      SCOPED_TRACE(std::string(test::variant_name(var)) + " p = " + std::to_string(p));
      const Mesh m = test::apply(base, var);
      for (std::size_t e = 0; e < m.num_elements(); ++e) EXPECT_GT(test::centroid_jacobian(m, e), 0.0);
      const DofMap d = lagrange_dof_map(m, p);
      EXPECT_EQ(d.num_nodes, 8 + 14 * (p - 1) + 4 * (p - 1) * (p - 2) / 2 + 5 * (p - 1) * (p - 1) +
                                 2 * (p - 1) * (p - 1) * (p - 2) / 2);
      EXPECT_LT(position_mismatch(m, d), 1e-12);
      const Jumps j = face_jumps(m, d);
      EXPECT_EQ(j.shared_faces, 1);
      EXPECT_LT(j.position, 1e-12);
      EXPECT_LT(j.value, 1e-10);
    }
}

// ~10^5 prisms at p = 3 must be numbered in seconds.
TEST(PrismDofMap, LargeMeshTiming) {
  const Mesh m = test::prism_box(40, 40, 32);  // 102400 prisms
  const auto t0 = std::chrono::steady_clock::now();
  const DofMap d = lagrange_dof_map(m, 3);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const EntityCounts c = count_entities(m);
  EXPECT_EQ(d.num_nodes,
            c.vertices + 2 * c.edges + c.tris + 4 * c.quads + 2 * std::int64_t(m.num_elements()));
  std::printf("lagrange_dof_map: %zu prisms, p = 3, %d DOF nodes in %.3f s\n", m.num_elements(), d.num_nodes,
              s);
  EXPECT_LT(s, 60.0);  // generous: Debug/sanitizer builds and a loaded machine
}
// ---- tetrahedra: kfem's P_p numbering on tet4 meshes (p = 1..7): counts by entity, every local node
// at its element's map of the basix point (so both sides of a shared face agree on its nodes),
// exact reproduction of total-degree-p polynomials, whatever the elements' local vertex orders.
// A distorted tet box, optionally with every element's vertices rotated by an even permutation
// (orientation kept) and the vertices renumbered at random.
Mesh tet_mesh(bool shuffle) {
  BoxSpec s;
  s.nx = 3, s.ny = 2, s.nz = 2, s.lx = 3, s.ly = 1.6, s.lz = 1.2;
  Mesh m = make_tet_box(s);
  distort(m, 0.1, 4);
  if (!shuffle) return m;
  constexpr int even[3][4] = {{0, 1, 2, 3}, {1, 2, 0, 3}, {0, 2, 3, 1}};
  std::mt19937_64 rng(5);
  for (auto& e : m.elements) {
    const auto old = e;
    const auto& perm = even[rng() % 3];
    for (int i = 0; i < 4; ++i) e[i] = old[perm[i]];
  }
  test::renumber_vertices(m, 11);
  return m;
}

TEST(TetDofMap, CountsPositionsAndSharing) {
  for (bool shuffle : {false, true}) {
    const Mesh m = tet_mesh(shuffle);
    const EntityCounts c = count_entities(m);
    for (int p = 1; p <= 7; ++p) {
      SCOPED_TRACE((shuffle ? "shuffled p = " : "p = ") + std::to_string(p));
      const DofMap d = lagrange_dof_map(m, p);
      const std::int64_t ne = std::int64_t(m.num_elements()), per_face = (p - 1) * (p - 2) / 2,
                         per_cell = (p - 1) * (p - 2) * (p - 3) / 6;
      EXPECT_EQ(d.per_entity_dim,
                (std::array<ordinal_t, 4>{ordinal_t(m.num_nodes()), ordinal_t((p - 1) * c.edges),
                                          ordinal_t(per_face * c.tris), ordinal_t(per_cell * ne)}));
      EXPECT_EQ(d.nodes_per_element, lagrange::num_shape_functions(CellType::tet4, p));
      const lagrange::Basis& b = lagrange::tabulate(CellType::tet4, p);
      std::vector<int> used(std::size_t(d.num_nodes), 0);
      double worst = 0;
      for (std::size_t e = 0; e < m.num_elements(); ++e) {
        const ordinal_t* g = d.element(e);
        EXPECT_EQ(std::set<ordinal_t>(g, g + d.nodes_per_element).size(), std::size_t(d.nodes_per_element));
        for (int a = 0; a < b.nsh; ++a) {
          ++used[std::size_t(g[a])];
          const auto x = map_point(m, e, b.points[a]);
          const auto& y = d.positions[std::size_t(g[a])];
          worst = std::max(worst, std::hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]));
        }
      }
      // A node shared by two elements that disagreed on its place would sit where only one of
      // them maps it: every element's map of every local node is its global node's position.
      EXPECT_LT(worst, 1e-12);
      EXPECT_EQ(std::count(used.begin(), used.end(), 0), 0);
    }
  }
}

// Interpolating a polynomial of total degree p at the DOF positions reproduces it exactly at any
// point of every element of an affine (straight-sided) tet mesh, whatever the local orders.
TEST(TetDofMap, ReproducesPolynomialsOfDegreeP) {
  const Mesh m = tet_mesh(true);
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> r(0.0, 1.0);
  for (int p = 1; p <= 5; ++p) {
    SCOPED_TRACE("p = " + std::to_string(p));
    const DofMap d = lagrange_dof_map(m, p);
    auto u = [p](const std::array<double, 3>& x) {
      return std::pow(x[0] - 2 * x[1] + 0.5 * x[2] + 0.3, p) + std::pow(x[2], p - 1) * x[1] + 1;
    };
    std::vector<double> U(std::size_t(d.num_nodes));
    for (std::size_t i = 0; i < U.size(); ++i) U[i] = u(d.positions[i]);
    double worst = 0;
    for (std::size_t e = 0; e < m.num_elements(); ++e) {
      double a = r(rng), b = r(rng), c = r(rng);
      if (a + b + c > 1) a /= 3, b /= 3, c /= 3;
      std::vector<double> N;
      lagrange::evaluate(CellType::tet4, p, {{a, b, c}}, N);
      double uh = 0;
      for (int k = 0; k < d.nodes_per_element; ++k) uh += N[std::size_t(k)] * U[std::size_t(d.element(e)[k])];
      worst = std::max(worst, std::abs(uh - u(map_point(m, e, {a, b, c}))));
    }
    EXPECT_LT(worst, 1e-10);
  }
}

TEST(TetDofMap, OrderOneIsTheVertexMapAndBadOrdersAreRefused) {
  const Mesh m = tet_mesh(false);
  EXPECT_EQ(lagrange_dof_map(m, 1).element_nodes, vertex_dof_map(m).element_nodes);
  for (int p : {0, 8}) EXPECT_THROW(lagrange_dof_map(m, p), InputError) << p;
}
}  // namespace
}  // namespace kfem
