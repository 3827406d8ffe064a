// Morton (Z-order) keys of element centroids, the same bits on the host and on a device: the launch
// order of element-centric kernels without colouring. A key is the centroid's Morton code over the
// nodes' bounding box, b bits per direction, followed by the element's index: unique keys, so any
// sort gives one order (the stable sort by code), and a device sort needs no tie-breaking. The
// nodes' box holds every centroid; it is one pass over the coordinates, where the centroids' box
// would gather 8 nodes per element.
#pragma once
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "kfem/core/carve.hpp"
#include "kfem/core/sort.hpp"
#include "kfem/core/types.hpp"

namespace kfem::morton {
// Bits of an element index below ne, and bits per direction of the code: as many as fit beside the
// index in 64 (21 at most): 14 for mesh4's 2 M elements, 13 for 30 M; a box of 8192 elements a side
// keeps every centroid apart.
inline int index_bits(std::int64_t ne) {
  int b = 1;
  while (b < 62 && (std::int64_t(1) << b) < ne) ++b;
  return b;
}
inline int code_bits(std::int64_t ne) {
  const int b = (64 - index_bits(ne)) / 3;
  return b < 21 ? b : 21;
}

// The low 21 bits of x moved to every third bit (bit i to bit 3i).
KOKKOS_INLINE_FUNCTION std::uint64_t spread_bits(std::uint64_t x) {
  x &= 0x1fffff;
  x = (x | x << 32) & 0x1f00000000ffffULL;
  x = (x | x << 16) & 0x1f0000ff0000ffULL;
  x = (x | x << 8) & 0x100f00f00f00f00fULL;
  x = (x | x << 4) & 0x10c30c30c30c30c3ULL;
  x = (x | x << 2) & 0x1249249249249249ULL;
  return x;
}

// The key of element e with centroid c in the box [lo, hi].
KOKKOS_INLINE_FUNCTION std::uint64_t key(const double c[3], const double lo[3], const double hi[3], int bits,
                                         int ibits, std::int64_t e) {
  const double top = double((std::uint64_t(1) << bits) - 1);
  std::uint64_t code = 0;
  for (int j = 0; j < 3; ++j) {
    const double t = hi[j] > lo[j] ? (c[j] - lo[j]) / (hi[j] - lo[j]) : 0.0;
    code |= spread_bits(static_cast<std::uint64_t>(t * top)) << j;
  }
  return code << ibits | std::uint64_t(e);
}

// Centroid of element e: the mean of its vertices, summed in vertex order (as the host does).
template <class Coords, class Conn>
KOKKOS_INLINE_FUNCTION void centroid(const Coords& x, const Conn& conn, std::int64_t e, int nv, double c[3]) {
  for (int j = 0; j < 3; ++j) {
    c[j] = 0.0;
    for (int a = 0; a < nv; ++a) c[j] += x(conn(e, a), j) / nv;
  }
}

// The kernels are named functors, not KOKKOS_LAMBDAs: several translation units instantiate them
// (see core/fill.hpp).
namespace detail {
template <class Coords>
struct Box {  // the nodes' bounding box
  Coords x;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t n, double& lx, double& hx, double& ly, double& hy,
                                         double& lz, double& hz) const {
    const double c[3] = {x(n, 0), x(n, 1), x(n, 2)};
    lx = c[0] < lx ? c[0] : lx, hx = c[0] > hx ? c[0] : hx;
    ly = c[1] < ly ? c[1] : ly, hy = c[1] > hy ? c[1] : hy;
    lz = c[2] < lz ? c[2] : lz, hz = c[2] > hz ? c[2] : hz;
  }
};

template <class Coords, class Conn, class Keys>
struct Keying {
  Coords x;
  Conn conn;
  Keys keys;
  int nv, bits, ibits;
  double lo[3], hi[3];
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e) const {
    double c[3];
    centroid(x, conn, e, nv, c);
    keys(e) = key(c, lo, hi, bits, ibits, e);
  }
};
}  // namespace detail

// The Morton launch order on exec: order(i) = the element launched i-th. The nodes' box by one
// reduction, keys by a parallel loop, then sort_unique_keys (core/sort.hpp) on exec, host backends
// alike (unique keys: one result). The keys and the sort's bins share one allocation. kfem's own
// sort, not Kokkos' BinSort: BinSort runs on the default instance only, and is no faster.
template <class Exec, class Coords, class Conn>
Kokkos::View<ordinal_t*, typename Exec::memory_space> order(
    const Exec& exec, const Coords& x, const Conn& conn, int nv,
    typename Carve<typename Exec::memory_space>::Bytes scratch = {}) {
  using Mem = typename Exec::memory_space;
  const std::int64_t ne = std::int64_t(conn.extent(0));
  Kokkos::View<ordinal_t*, Mem> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::launch_order"),
                                    ne);
  if (ne == 0) return out;
  double lo[3], hi[3];
  Kokkos::parallel_reduce("kfem::morton_box", Kokkos::RangePolicy<Exec>(exec, 0, std::int64_t(x.extent(0))),
                          detail::Box<Coords>{x}, Kokkos::Min<double>(lo[0]), Kokkos::Max<double>(hi[0]),
                          Kokkos::Min<double>(lo[1]), Kokkos::Max<double>(hi[1]), Kokkos::Min<double>(lo[2]),
                          Kokkos::Max<double>(hi[2]));
  // One block, `scratch` where it is large enough: the keys, the keys by bin, the bins' counters.
  using Keys = Kokkos::View<std::uint64_t*, Mem>;
  using Words = Kokkos::View<offset_t*, Mem>;
  const std::int64_t words = sort_workspace_words(ne);
  const Carve<Mem> block("kfem::morton_keys",
                         {Carve<Mem>::template bytes<Keys>(ne), Carve<Mem>::template bytes<Keys>(ne),
                          Carve<Mem>::template bytes<Words>(words)},
                         std::move(scratch));
  const Keys keys = block.template part<Keys>(0, ne), binned = block.template part<Keys>(1, ne);
  const Words counters = block.template part<Words>(2, words);
  const int bits = code_bits(ne), ibits = index_bits(ne);
  detail::Keying<Coords, Conn, Keys> keying{x, conn, keys, nv, bits, ibits, {}, {}};
  for (int j = 0; j < 3; ++j) keying.lo[j] = lo[j], keying.hi[j] = hi[j];
  Kokkos::parallel_for("kfem::morton_keys", Kokkos::RangePolicy<Exec>(exec, 0, ne), keying);
  sort_unique_keys(exec, Kokkos::View<const std::uint64_t*, Mem>(keys), 3 * bits + ibits,
                   (std::uint64_t(1) << ibits) - 1, binned, counters, out);
  exec.fence();  // the block is freed here
  return out;
}
}  // namespace kfem::morton
