// Device colouring with Kokkos Kernels: colour the rows of the element-node incidence graph so
// that rows sharing a column (a node) differ (bipartite one-sided distance-2 colouring).
#pragma once
// Kokkos Kernels 3.4's functorGreedyColorVB leaves a member it never reads (_chunkSize) uninitialised.
// -isystem cannot hide the warning: GCC issues -Wmaybe-uninitialized after inlining, in kfem's
// translation unit. The pragma covers exactly this header, so a user's build stays quiet and kfem's
// own code keeps the warning.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <KokkosGraph_Distance2Color.hpp>
#include <KokkosKernels_Handle.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include "kfem/coloring/coloring.hpp"

namespace kfem {
namespace coloring_detail {
// Element -> vertex incidence in CSR (a named functor, not a KOKKOS_LAMBDA: see core/fill.hpp).
template <class Rows, class Cols, class Conn>
struct Incidence {
  Rows rows;
  Cols cols;
  Conn conn;
  int npe;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t e) const {
    rows(e + 1) = npe * offset_t(e + 1);
    for (int a = 0; a < npe; ++a) cols(npe * std::size_t(e) + a) = conn(e, a);
  }
};
}  // namespace coloring_detail

// conn(e, a), a < nodes_per_element: the vertices of every element (any family).
template <class Exec, class Conn>
Coloring device_coloring(const Exec& exec, const Conn& conn, ordinal_t num_nodes, int nodes_per_element = 8) {
  using Mem = typename Exec::memory_space;
  using Handle = KokkosKernels::Experimental::KokkosKernelsHandle<offset_t, ordinal_t, double, Exec, Mem, Mem>;
  const ordinal_t ne = static_cast<ordinal_t>(conn.extent(0));
  // Typed on Device<Exec, Mem>: Kokkos Kernels launches on the views' execution space, which for a
  // plain HostSpace view would be OpenMP even when Exec is Serial.
  using Dev = Kokkos::Device<Exec, Mem>;
  Kokkos::View<offset_t*, Dev> rows("kfem::incidence_rows", ne + 1);
  const int npe = nodes_per_element;
  Kokkos::View<ordinal_t*, Dev> cols(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::incidence_cols"),
                                     npe * std::size_t(ne));
  Kokkos::parallel_for("kfem::incidence", Kokkos::RangePolicy<Exec>(exec, 0, ne),
                       coloring_detail::Incidence<decltype(rows), decltype(cols), Conn>{rows, cols, conn, npe});
  exec.fence();  // Kokkos Kernels 3.4 colours on the default instance
  Handle handle;
  handle.create_distance2_graph_coloring_handle();
  KokkosGraph::Experimental::bipartite_color_rows(&handle, ne, num_nodes, rows, cols);
  auto colors = handle.get_distance2_graph_coloring_handle()->get_vertex_colors();
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), colors);
  handle.destroy_distance2_graph_coloring_handle();
  std::vector<ordinal_t> color(ne);
  for (ordinal_t e = 0; e < ne; ++e) color[e] = static_cast<ordinal_t>(host(e)) - 1;  // KK colours are 1-based
  return group_by_color(std::move(color));
}
}  // namespace kfem
