// box_grid on an execution space, from the connectivity where it already is (the device): the
// same grid as the host walk of box_grid.cpp. Each element's neighbour above it in x, y and z is the
// element whose corner 0 is its corner 1, 3 or 4; the elements with none below them start a row, and
// one thread per row walks it, numbering the elements along it (linear work; rows of one direction in
// parallel). The numbers give each element its cell; then every cell must hold one element, every
// grid point one node, shared alike by the elements around it, and every node one point: exactly the
// box topology. A mesh that fails any of it goes to the host walk, whose InputError names the first
// element or node at fault.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <functional>
#include <vector>

#include "kfem/core/carve.hpp"
#include "kfem/core/exec_spaces.hpp"
#include "kfem/core/types.hpp"
#include "kfem/mesh/mesh.hpp"

namespace kfem {
template <class Mem>
struct DeviceBoxGrid {
  ordinal_t nx = 0, ny = 0, nz = 0;       // elements per direction
  Kokkos::View<ordinal_t*, Mem> element;  // element id of cell (i, j, k) at i + nx (j + ny k)
  Kokkos::View<ordinal_t*, Mem> node;     // node id of point (i, j, k) at i + (nx+1) (j + (ny+1) k)
};

template <class Mem>
using MeshConn = Kokkos::View<ordinal_t* [8], Kokkos::LayoutRight, Mem>;  // DeviceMesh::conn

// Its temporaries, laid out in one block (box_grid_device.cpp): the fault word and each element's
// rows below, the node uses, each node's element at corner 0, each element's next and place along
// the rows.
template <class Mem>
std::vector<std::size_t> box_grid_parts(ordinal_t ne, ordinal_t nn) {
  using C = Carve<Mem>;
  using Pairs = Kokkos::View<ordinal_t* [3], Kokkos::LayoutRight, Mem>;
  using Ids = Kokkos::View<ordinal_t*, Mem>;
  return {C::template bytes<Kokkos::View<int*, Mem>>(1),
          C::template bytes<Pairs>(ne),
          C::template bytes<Ids>(nn),
          C::template bytes<Ids>(nn),
          C::template bytes<Pairs>(ne),
          C::template bytes<Pairs>(ne)};
}

// `host_mesh()` gives the mesh on the host, asked for only where the mesh is not a box (for the
// host walk's message; a std::function, as nvcc refuses a local lambda's type as a template argument
// of a function holding device lambdas). Without one, a mesh that is not a box gives an empty grid
// (nx = 0): the caller only asks whether it is one. num_nodes: the node count of the mesh. The
// temporaries go in `scratch` where it is large enough (the set-up's kept graph workspace).
// Defined in box_grid_device.cpp for each enabled execution space: its kernels are lambdas, which
// nvcc cannot instantiate in several translation units (see core/fill.hpp).
template <class Exec>
DeviceBoxGrid<typename Exec::memory_space> box_grid(
    const Exec& exec, const MeshConn<typename Exec::memory_space>& conn, ordinal_t num_nodes,
    const std::function<Mesh()>& host_mesh, typename Carve<typename Exec::memory_space>::Bytes scratch = {});

#define KFEM_EXTERN_BOX_GRID(Exec)                                                               \
  extern template DeviceBoxGrid<Exec::memory_space> box_grid<Exec>(                              \
      const Exec&, const MeshConn<Exec::memory_space>&, ordinal_t, const std::function<Mesh()>&, \
      Carve<Exec::memory_space>::Bytes);
KFEM_FOR_EACH_EXEC_SPACE(KFEM_EXTERN_BOX_GRID)
#undef KFEM_EXTERN_BOX_GRID
}  // namespace kfem
