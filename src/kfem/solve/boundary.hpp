// Boundary conditions of the kiran §5.1 cantilever: the clamped face x = xmin, a total force in -z
// spread over the face x = xmax, and Dirichlet rows/columns zeroed in the assembled matrix.
#pragma once
#include <Kokkos_Core.hpp>
#include <vector>

#include "kfem/core/types.hpp"
#include "kfem/mesh/hex_mesh.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem {
struct CantileverLoad {
  std::vector<ordinal_t> fixed_dofs;  // all 3 components of every node with x == xmin, sorted
  std::vector<double> force;          // nodal forces, size 3 * num_nodes (DOF = 3 * node + component)
  std::vector<ordinal_t> tip_nodes;   // nodes with x == xmax, sorted
};

// "x == xmin/xmax" means within 1e-9 of the bounding-box diagonal. The force goes to the element
// faces whose 4 nodes all lie on x = xmax, each face taking a share of total_force proportional
// to its area and handing a quarter of it to each corner (the consistent load of a uniform
// traction on a parallelogram). Throws InputError for an empty mesh or when no face lies on x = xmax.
CantileverLoad cantilever_load(const HexMesh& mesh, double total_force);

// Homogeneous Dirichlet conditions (kiran §5.1): rows and columns of the fixed DOFs become zero
// except a unit diagonal, and rhs is zero there, so the system stays symmetric and the fixed DOFs
// solve to exactly 0. A unit diagonal next to ~1e11 stiffness is harmless: those rows decouple and
// Jacobi scaling removes the scale. Requires every fixed DOF's diagonal in the pattern. Works on
// any CSR storage of the matrix, so on its lower triangle too (CgOptions::symmetric_storage): entry
// (r, c) is zeroed when r or c is fixed, whichever half holds it.
template <class Exec, class S>
void apply_dirichlet(const Exec& exec, const CsrGraph<typename Exec::memory_space>& A,
                     const Kokkos::View<S*, typename Exec::memory_space>& values,
                     const Kokkos::View<S*, typename Exec::memory_space>& rhs,
                     const Kokkos::View<const ordinal_t*, typename Exec::memory_space>& fixed_dofs) {
  using Mem = typename Exec::memory_space;
  using policy = Kokkos::RangePolicy<Exec>;
  // A byte mask makes "is column c fixed?" O(1) inside the row loop.
  Kokkos::View<unsigned char*, Mem> fixed("kfem::dirichlet_mask", A.num_rows);
  Kokkos::parallel_for(
      "kfem::dirichlet_mark", policy(exec, 0, fixed_dofs.extent(0)),
      KOKKOS_LAMBDA(std::size_t i) { fixed(fixed_dofs(i)) = 1; });
  const auto row_map = A.row_map;
  const auto cols = A.cols;
  Kokkos::parallel_for(
      "kfem::dirichlet_apply", policy(exec, 0, A.num_rows), KOKKOS_LAMBDA(ordinal_t r) {
        const bool row_fixed = fixed(r);
        if (row_fixed) rhs(r) = S(0);
        for (offset_t k = row_map(r); k < row_map(r + 1); ++k) {
          const ordinal_t c = cols(k);
          if (row_fixed || fixed(c)) values(k) = (c == r) ? S(1) : S(0);
        }
      });
}
}  // namespace kfem
