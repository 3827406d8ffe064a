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

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "kfem/coloring/coloring.hpp"
#include "kfem/core/staging.hpp"
#include "kfem/mesh/box_grid_device.hpp"

namespace kfem {
// A colouring held on an execution space: what the coloured kernels read, with no trip to the host
// (a host colouring comes up once; a device one never goes down).
template <class Mem>
struct DeviceColoring {
  std::vector<ordinal_t> offsets;       // colour c's elements: order(offsets[c]) .. order(offsets[c + 1] - 1)
  Kokkos::View<ordinal_t*, Mem> color;  // of every element, 0-based
  Kokkos::View<ordinal_t*, Mem> order;  // the elements grouped by colour, ascending within a colour
  const char* method = "";              // how the colours were found
  int num_colors() const { return int(offsets.size()) - 1; }
};

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

template <class Color>
struct MostColor {
  Color color;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t e, ordinal_t& most) const {
    most = color(e) > most ? color(e) : most;
  }
};

// Colour q's elements in ascending order, placed from `base` on (a scan of "has colour q").
template <class Color, class Order>
struct Gather {
  using value_type = ordinal_t;
  Color color;
  Order order;
  ordinal_t q, base;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t e, ordinal_t& at, bool final) const {
    if (color(e) != q) return;
    if (final) order(base + at) = e;
    ++at;
  }
};

// The colours of the elements at each node as bits: an element whose bit is already set there
// shares the node with another of its colour (the first such element is kept).
template <class Conn, class Color, class Masks, class Bad>
struct Conflicts {
  Conn conn;
  Color color;
  Masks masks;
  Bad bad;  // (element, node) of a conflict, or (-1, -1)
  int npe;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t e) const {
    const unsigned long long bit = 1ull << color(e);
    for (int a = 0; a < npe; ++a) {
      const ordinal_t n = conn(e, a);
      if (Kokkos::atomic_fetch_or(&masks(n), bit) & bit) {
        if (Kokkos::atomic_compare_exchange(&bad(0), ordinal_t(-1), e) == -1) bad(1) = n;
        return;
      }
    }
  }
};
template <class Color, class KernelsColors>
struct FromOne {  // Kokkos Kernels' colours are 1-based
  Color color;
  KernelsColors kk;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t e) const { color(e) = ordinal_t(kk(e)) - 1; }
};

template <class Mem>
struct BoxParity {
  Kokkos::View<ordinal_t*, Mem> color, element;
  std::int64_t nx, ny;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t c) const {
    const std::int64_t i = c % nx, j = c / nx % ny, k = c / nx / ny;
    color(element(c)) = ordinal_t((i & 1) + 2 * (j & 1) + 4 * (k & 1));
  }
};
}  // namespace coloring_detail

// Groups the elements by colour on exec (one scan per colour: few colours, each a pass over the
// colours, which are 4 bytes an element).
template <class Exec, class Color>
DeviceColoring<typename Exec::memory_space> group_by_color(const Exec& exec, const Color& color,
                                                           const char* method) {
  using Mem = typename Exec::memory_space;
  const ordinal_t ne = ordinal_t(color.extent(0));
  DeviceColoring<Mem> c;
  c.color = color, c.method = method;
  c.order =
      Kokkos::View<ordinal_t*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::color_order"), ne);
  ordinal_t most = -1;
  Kokkos::parallel_reduce("kfem::most_color", Kokkos::RangePolicy<Exec>(exec, 0, ne),
                          coloring_detail::MostColor<Color>{color}, Kokkos::Max<ordinal_t>(most));
  c.offsets.assign(1, 0);
  for (ordinal_t q = 0; q <= most; ++q) {
    ordinal_t count = 0;
    Kokkos::parallel_scan(
        "kfem::group_by_color", Kokkos::RangePolicy<Exec>(exec, 0, ne),
        coloring_detail::Gather<Color, decltype(c.order)>{color, c.order, q, c.offsets.back()}, count);
    c.offsets.push_back(c.offsets.back() + count);
  }
  return c;
}

// A host colouring on exec.
template <class Exec>
DeviceColoring<typename Exec::memory_space> to_device(const Exec& exec, const Coloring& h,
                                                      const char* method) {
  DeviceColoring<typename Exec::memory_space> c;
  c.offsets = h.offsets, c.method = method;
  c.color = to_device(exec, h.color, "kfem::colors");
  c.order = to_device(exec, h.order, "kfem::color_order");
  return c;
}

// "" when no two elements sharing a node have one colour, else which element, node and colour do
// (colours must be below 64; checked on exec, without the mesh on the host).
template <class Exec, class Conn, class Color>
std::string coloring_conflict(const Exec& exec, const Conn& conn, ordinal_t num_nodes, int nodes_per_element,
                              const Color& color, int num_colors) {
  using Mem = typename Exec::memory_space;
  if (num_colors > 64) return std::to_string(num_colors) + " colours: the check holds 64";
  Kokkos::View<unsigned long long*, Mem> masks("kfem::color_masks", num_nodes);
  Kokkos::View<ordinal_t[2], Mem> bad("kfem::color_conflict");
  Kokkos::deep_copy(exec, bad, ordinal_t(-1));
  Kokkos::parallel_for("kfem::coloring_conflicts", Kokkos::RangePolicy<Exec>(exec, 0, conn.extent(0)),
                       coloring_detail::Conflicts<Conn, Color, decltype(masks), decltype(bad)>{
                           conn, color, masks, bad, nodes_per_element});
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bad);
  if (h(0) < 0) return {};
  ordinal_t q = 0;
  Kokkos::deep_copy(q, Kokkos::subview(color, h(0)));
  return "element " + std::to_string(h(0)) + " shares node " + std::to_string(h(1)) +
         " with another element of colour " + std::to_string(q);
}

// Kokkos Kernels' colouring of any mesh: the rows of the element-node incidence graph, so that rows
// sharing a column (a node) differ (bipartite one-sided distance-2 colouring); 0-based colours.
template <class Exec, class Conn>
Kokkos::View<ordinal_t*, typename Exec::memory_space> kernels_colors(const Exec& exec, const Conn& conn,
                                                                     ordinal_t num_nodes,
                                                                     int nodes_per_element) {
  using Mem = typename Exec::memory_space;
  using Handle =
      KokkosKernels::Experimental::KokkosKernelsHandle<offset_t, ordinal_t, double, Exec, Mem, Mem>;
  const ordinal_t ne = static_cast<ordinal_t>(conn.extent(0));
  // Typed on Device<Exec, Mem>: Kokkos Kernels launches on the views' execution space, which for a
  // plain HostSpace view would be OpenMP even when Exec is Serial.
  using Dev = Kokkos::Device<Exec, Mem>;
  Kokkos::View<offset_t*, Dev> rows("kfem::incidence_rows", ne + 1);
  const int npe = nodes_per_element;
  Kokkos::View<ordinal_t*, Dev> cols(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::incidence_cols"),
                                     npe * std::size_t(ne));
  Kokkos::parallel_for(
      "kfem::incidence", Kokkos::RangePolicy<Exec>(exec, 0, ne),
      coloring_detail::Incidence<decltype(rows), decltype(cols), Conn>{rows, cols, conn, npe});
  exec.fence();  // Kokkos Kernels 3.4 colours on the default instance
  Handle handle;
  handle.create_distance2_graph_coloring_handle();
  KokkosGraph::Experimental::bipartite_color_rows(&handle, ne, num_nodes, rows, cols);
  const auto kk = handle.get_distance2_graph_coloring_handle()->get_vertex_colors();
  Kokkos::View<ordinal_t*, Mem> color(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::colors"), ne);
  Kokkos::parallel_for("kfem::colors_from_one", Kokkos::RangePolicy<Exec>(exec, 0, ne),
                       coloring_detail::FromOne<decltype(color), std::decay_t<decltype(kk)>>{color, kk});
  exec.fence();
  handle.destroy_distance2_graph_coloring_handle();
  return color;
}

// The parity of each element's cell in a box grid: (i mod 2) + 2 (j mod 2) + 4 (k mod 2), 8 colours,
// the fewest hex8 elements sharing a node allow (a specialised fast path for box meshes).
template <class Exec, class Mem>
Kokkos::View<ordinal_t*, Mem> box_parity_colors(const Exec& exec, const DeviceBoxGrid<Mem>& g) {
  const std::int64_t nx = g.nx, ny = g.ny, cells = std::int64_t(g.nx) * g.ny * g.nz;
  Kokkos::View<ordinal_t*, Mem> color(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::colors"), cells);
  Kokkos::parallel_for("kfem::box_parity_colors",
                       Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, cells),
                       coloring_detail::BoxParity<Mem>{color, g.element, nx, ny});
  return color;
}

// A colouring found on exec: a hex8 mesh with the topology of a box (found on exec as well) takes
// its cells' parity, 8 colours; any other mesh Kokkos Kernels' colouring, which is slower and gives
// more colours.
// conn(e, a), a < nodes_per_element: the vertices of every element.
template <class Exec, class Conn>
DeviceColoring<typename Exec::memory_space> device_coloring(const Exec& exec, const Conn& conn,
                                                            ordinal_t num_nodes, int nodes_per_element = 8) {
  if constexpr (std::is_same_v<Conn, MeshConn<typename Exec::memory_space>>) {
    if (nodes_per_element == 8) {
      const auto g = box_grid(exec, conn, num_nodes, {});
      if (g.nx > 0) return group_by_color(exec, box_parity_colors(exec, g), "box parity");
    }
  }
  return group_by_color(exec, kernels_colors(exec, conn, num_nodes, nodes_per_element), "kokkos kernels");
}
}  // namespace kfem
