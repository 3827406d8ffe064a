// Shared test inputs: a small distorted, randomly renumbered beam and helpers to bring results home.
#pragma once
#include <Kokkos_Core.hpp>

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

inline Isotropic<double> steel() { return Isotropic<double>::from_young(200e9, 0.333); }

// Device CSR values on the problem's full (or lower) pattern -> host CSR.
template <class Exec, class S>
HostCsr<S> to_host(const Problem<Exec>& p, const Kokkos::View<S*, typename Exec::memory_space>& values,
                   bool lower = false) {
  return kfem::to_host(lower ? p.lower : p.graph.dof, values);
}
}  // namespace kfem::test
