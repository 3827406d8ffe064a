// Shared test inputs: a small distorted, randomly renumbered beam and helpers to bring results home.
#pragma once
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstring>
#include <type_traits>
#include <vector>

#include "kfem/assembly/assembler.hpp"
#include "kfem/assembly/problem.hpp"
#include "kfem/assembly/reference.hpp"
#include "kfem/mesh/box.hpp"
#include "kfem/mesh/renumber.hpp"

namespace kfem::test {
inline Mesh distorted_beam(ordinal_t nx = 5, ordinal_t ny = 3, ordinal_t nz = 2) {
  Mesh mesh = make_box(BoxSpec{nx, ny, nz, 4.0, 2.0, 1.5});
  distort(mesh, 0.15, 7);
  for (auto& x : mesh.nodes) x[0] += 40.0, x[1] -= 25.0;  // far from the origin: float must not lose digits
  mesh = renumber_nodes(mesh, node_permutation(mesh, Renumbering::random, 11));
  return shuffle_elements(mesh, 13);
}

// Prisms of order p on a distorted, renumbered box far from the origin: 2x1x1 hexes (4 prisms) up to
// p = 3, then one hex (2 prisms sharing a quadrilateral face) to keep the p^6 cost of checks small.
inline Mesh distorted_prism_box(int p) {
  Mesh mesh = make_prism_box(p <= 3 ? BoxSpec{2, 1, 1, 2.0, 1.0, 1.0} : BoxSpec{1, 1, 1, 1.0, 1.0, 1.0});
  distort(mesh, 0.15, 7);
  for (auto& x : mesh.nodes) x[0] += 40.0, x[2] -= 25.0;
  return shuffle_elements(renumber_nodes(mesh, node_permutation(mesh, Renumbering::random, 11)), 13);
}

// Tetrahedra of order p on a distorted, renumbered box far from the origin: 2x1x1 hexes (12 tets) up
// to p = 3, then one hex (6 tets) for the larger orders.
inline Mesh distorted_tet_box(int p) {
  Mesh mesh = make_tet_box(p <= 3 ? BoxSpec{2, 1, 1, 2.0, 1.0, 1.0} : BoxSpec{1, 1, 1, 1.0, 1.0, 1.0});
  distort(mesh, 0.1, 7);
  for (auto& x : mesh.nodes) x[0] += 40.0, x[2] -= 25.0;
  return shuffle_elements(renumber_nodes(mesh, node_permutation(mesh, Renumbering::random, 11)), 13);
}

inline Isotropic<double> steel() {
  return Isotropic<double>::from_young(200e9, 0.333);
}

// Device CSR values on the problem's full (or lower) pattern -> host CSR.
template <class Exec, class S>
HostCsr<S> to_host(const Problem<Exec>& p, const Kokkos::View<S*, typename Exec::memory_space>& values,
                   bool lower = false) {
  return kfem::to_host(lower ? p.lower : p.graph.dof, values);
}
// Owner-computes check: `a` assembles into values poisoned with -12345 (an owner writes every value,
// with nothing zeroed first); the result must match `ref` (1e-12 relative in double, 1e-5 in float)
// and be bitwise `first`, which the first call fills: the same sums in the same order every time.
template <class Exec, class S>
void expect_owner_values(const Exec& exec, const Problem<Exec>& p, AssemblerBase<Exec, S>& a,
                         const Kokkos::View<S*, typename Exec::memory_space>& values,
                         const HostCsr<double>& ref, std::vector<S>& first) {
  Kokkos::deep_copy(values, S(-12345));
  a.assemble(values);
  exec.fence();
  const HostCsr<S> got = to_host(p, values, a.lower());
  const MatrixDiff d = compare(got, ref);
  EXPECT_TRUE(d.same_pattern);
  EXPECT_LE(d.max_rel, (std::is_same_v<S, float> ? 1e-5 : 1e-12));
  if (first.empty())
    first = got.vals;
  else
    EXPECT_EQ(0, std::memcmp(first.data(), got.vals.data(), sizeof(S) * first.size()));
}
}  // namespace kfem::test
