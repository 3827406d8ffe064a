#include "kfem/mesh/box_grid_device.hpp"

#include <cstdint>
#include <utility>

#include "kfem/core/carve.hpp"
#include "kfem/core/fill.hpp"
#include "kfem/core/staging.hpp"
#include "kfem/fe/hex8.hpp"
#include "kfem/mesh/box_grid.hpp"

namespace kfem {
template <class Exec>
DeviceBoxGrid<typename Exec::memory_space> box_grid(
    const Exec& exec, const MeshConn<typename Exec::memory_space>& conn, ordinal_t num_nodes,
    const std::function<Mesh()>& host_mesh, typename Carve<typename Exec::memory_space>::Bytes scratch) {
  using Mem = typename Exec::memory_space;
  using Policy = Kokkos::RangePolicy<Exec>;
  using Pairs = Kokkos::View<ordinal_t* [3], Kokkos::LayoutRight, Mem>;
  using Ids = Kokkos::View<ordinal_t*, Mem>;
  const ordinal_t ne = ordinal_t(conn.extent(0)), nn = num_nodes;
  // The temporaries in one block, those that start at zero first (one fill): each device allocation
  // and free costs set-up time (core/carve.hpp).
  const Carve<Mem> block("kfem::box_grid_workspace", box_grid_parts<Mem>(ne, nn), std::move(scratch));
  fill_zero(exec, Kokkos::subview(block.storage, std::make_pair(std::size_t(0), block.offset(3))));
  const auto bad_word = block.template part<Kokkos::View<int*, Mem>>(0, 1);
  const Kokkos::View<int, Mem> bad = Kokkos::subview(bad_word, 0);
  const Pairs below = block.template part<Pairs>(1, ne);  // 1: some element has this one above it
  const Ids uses = block.template part<Ids>(2, nn);
  const Ids at_corner = block.template part<Ids>(3, nn);
  const Pairs next = block.template part<Pairs>(4, ne), along = block.template part<Pairs>(5, ne);
  const auto failed = [&] {
    int b = 0;
    Kokkos::deep_copy(exec, b, bad);
    exec.fence();  // the copy into a host value is asynchronous on exec
    return b != 0;
  };
  // The host walk names the fault; a mesh it accepts (never, if both are right) gives its grid.
  const auto from_host = [&] {
    if (!host_mesh) return DeviceBoxGrid<Mem>{};
    const BoxGrid h = box_grid(host_mesh());
    DeviceBoxGrid<Mem> d;
    d.nx = h.nx, d.ny = h.ny, d.nz = h.nz;
    d.element = to_device(exec, h.element, "kfem::box_cells");
    d.node = to_device(exec, h.node, "kfem::box_nodes");
    return d;
  };
  if (ne == 0) return from_host();

  // The element whose corner 0 is node n (one at most), then each element's neighbour above it
  // in x, y and z: the element whose corner 0 is its corner 1, 3 or 4.
  Kokkos::deep_copy(exec, at_corner, ordinal_t(-1));
  Kokkos::parallel_for(
      "kfem::box_corner0", Policy(exec, 0, ne), KOKKOS_LAMBDA(ordinal_t e) {
        for (int a = 0; a < 8; ++a)
          if (conn(e, a) < 0 || conn(e, a) >= nn) bad() = 1;
        const ordinal_t n = conn(e, 0);
        if (n >= 0 && n < nn && Kokkos::atomic_compare_exchange(&at_corner(n), ordinal_t(-1), e) != -1)
          bad() = 1;
      });
  if (failed()) return from_host();
  Kokkos::parallel_for(
      "kfem::box_neighbours", Policy(exec, 0, ne), KOKKOS_LAMBDA(ordinal_t e) {
        constexpr int above[3] = {1, 3, 4};
        for (int d = 0; d < 3; ++d) {
          const ordinal_t n = at_corner(conn(e, above[d]));
          next(e, d) = n;
          if (n >= 0) below(n, d) = 1;
        }
      });
  // Each element's place along its row, per direction, from the row's first element; an element
  // no walk reaches (a cycle) keeps -1, a walk longer than the mesh stops.
  // (A loop, not deep_copy: Kokkos 3.4's fill of a rank-2 view ran far below the write bandwidth.)
  Kokkos::parallel_for(
      "kfem::box_unplaced_rows", Policy(exec, 0, ne), KOKKOS_LAMBDA(ordinal_t e) {
        for (int d = 0; d < 3; ++d) along(e, d) = -1;
      });
  Kokkos::parallel_for(
      "kfem::box_rows", Policy(exec, 0, ne), KOKKOS_LAMBDA(ordinal_t e) {
        for (int d = 0; d < 3; ++d) {
          if (below(e, d)) continue;
          ordinal_t at = 0;
          for (ordinal_t x = e; x >= 0 && at < ne; x = next(x, d)) along(x, d) = at++;
        }
      });
  // The furthest place along each direction (the grid's extent - 1) and the elements no row walk
  // reached (a cycle), in one pass and one wait, where four reductions took four of each.
  ordinal_t last[3] = {0, 0, 0}, open = 0;
  Kokkos::parallel_reduce(
      "kfem::box_extent", Policy(exec, 0, ne),
      KOKKOS_LAMBDA(ordinal_t e, ordinal_t & x, ordinal_t & y, ordinal_t & z, ordinal_t & o) {
        x = along(e, 0) > x ? along(e, 0) : x;
        y = along(e, 1) > y ? along(e, 1) : y;
        z = along(e, 2) > z ? along(e, 2) : z;
        o += along(e, 0) < 0 || along(e, 1) < 0 || along(e, 2) < 0;
      },
      Kokkos::Max<ordinal_t>(last[0]), Kokkos::Max<ordinal_t>(last[1]), Kokkos::Max<ordinal_t>(last[2]),
      Kokkos::Sum<ordinal_t>(open));
  DeviceBoxGrid<Mem> g;
  g.nx = last[0] + 1, g.ny = last[1] + 1, g.nz = last[2] + 1;
  if (open > 0 || std::int64_t(g.nx) * g.ny * g.nz != std::int64_t(ne) ||
      std::int64_t(g.nx + 1) * (g.ny + 1) * (g.nz + 1) != std::int64_t(nn))
    return from_host();

  // Cells from the places along the rows; each cell one element, each point one node agreed by its elements.
  g.element =
      Kokkos::View<ordinal_t*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::box_cells"), ne);
  g.node =
      Kokkos::View<ordinal_t*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::box_nodes"), nn);
  Kokkos::deep_copy(exec, g.element, ordinal_t(-1));
  Kokkos::deep_copy(exec, g.node, ordinal_t(-1));
  const ordinal_t nx = g.nx, ny = g.ny;
  const auto cells = g.element, points = g.node;
  Kokkos::parallel_for(
      "kfem::box_place", Policy(exec, 0, ne), KOKKOS_LAMBDA(ordinal_t e) {
        const std::int64_t i = along(e, 0), j = along(e, 1), k = along(e, 2);
        if (Kokkos::atomic_compare_exchange(&cells(i + nx * (j + std::int64_t(ny) * k)), ordinal_t(-1), e) !=
            -1)
          bad() = 1;
        for (int a = 0; a < 8; ++a) {
          const std::int64_t p =
              (i + hex8::corner(a, 0)) +
              (nx + 1) * ((j + hex8::corner(a, 1)) + std::int64_t(ny + 1) * (k + hex8::corner(a, 2)));
          const ordinal_t id = conn(e, a),
                          was = Kokkos::atomic_compare_exchange(&points(p), ordinal_t(-1), id);
          if (was != -1 && was != id) bad() = 1;
        }
      });
  // Every point has a node (the counts match, so no cell is empty), and no node two points.
  Kokkos::parallel_for(
      "kfem::box_node_uses", Policy(exec, 0, nn), KOKKOS_LAMBDA(ordinal_t p) {
        const ordinal_t n = points(p);
        if (n < 0 || Kokkos::atomic_fetch_add(&uses(n), ordinal_t(1)) != 0) bad() = 1;
      });
  if (failed()) return from_host();
  return g;
}

#define KFEM_BOX_GRID(Exec)                                                                      \
  template DeviceBoxGrid<Exec::memory_space> box_grid<Exec>(                                     \
      const Exec&, const MeshConn<Exec::memory_space>&, ordinal_t, const std::function<Mesh()>&, \
      Carve<Exec::memory_space>::Bytes);
KFEM_FOR_EACH_EXEC_SPACE(KFEM_BOX_GRID)
#undef KFEM_BOX_GRID
}  // namespace kfem
