// Morton (Z-order) keys of element centroids, the same bits on the host and on a device: the launch
// order of element-centric kernels without colouring. A key is the centroid's Morton code over the
// nodes' bounding box, b bits per direction, followed by the element's index: unique keys, so any
// sort gives one order (the stable sort by code), and a device sort needs no tie-breaking. The
// nodes' box holds every centroid; it is one pass over the coordinates, where the centroids' box
// gathered 8 nodes per element (mesh4 on an H200: 286 us).
#pragma once
#include <Kokkos_Core.hpp>
#include <Kokkos_Sort.hpp>
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

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

template <class Keys>
struct KeyRange {
  Keys keys;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e, std::uint64_t& mn, std::uint64_t& mx) const {
    mn = keys(e) < mn ? keys(e) : mn;
    mx = keys(e) > mx ? keys(e) : mx;
  }
};

template <class Out, class Perm>
struct Permute {
  Out out;
  Perm perm;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const { out(i) = ordinal_t(perm(i)); }
};
}  // namespace detail

// out = the element indices of the sorted keys, on the host (Kokkos 3.4's BinSort crashed on Serial
// in a CUDA build, H100).
template <class Exec, class Keys, class Out>
void host_sort(const Exec& exec, const Keys& keys, int ibits, const Out& out) {
  exec.fence();
  std::sort(keys.data(), keys.data() + keys.extent(0));
  const std::uint64_t mask = (std::uint64_t(1) << ibits) - 1;
  for (std::size_t i = 0; i < keys.extent(0); ++i) out(i) = ordinal_t(keys(i) & mask);
}

// The same on a device: Kokkos' BinSort, about two keys per bin, each bin sorted.
template <class Exec, class Keys, class Out>
void bin_sort(const Exec& exec, const Keys& keys, const Out& out) {
  const std::int64_t ne = std::int64_t(keys.extent(0));
  std::uint64_t kmin = 0, kmax = 0;
  Kokkos::parallel_reduce("kfem::morton_range", Kokkos::RangePolicy<Exec>(exec, 0, ne),
                          detail::KeyRange<Keys>{keys}, Kokkos::Min<std::uint64_t>(kmin),
                          Kokkos::Max<std::uint64_t>(kmax));
  using Op = Kokkos::BinOp1D<Keys>;
  Kokkos::BinSort<Keys, Op> sort(keys, 0, int(ne), Op(int(ne / 2 > 1 ? ne / 2 : 1), kmin, kmax), true);
  sort.create_permute_vector();
  const auto perm = sort.get_permute_vector();
  Kokkos::parallel_for("kfem::morton_order", Kokkos::RangePolicy<Exec>(exec, 0, ne),
                       detail::Permute<Out, std::decay_t<decltype(perm)>>{out, perm});
}

// The Morton launch order on exec: order(i) = the element launched i-th. Keys by a parallel loop,
// the nodes' box by one reduction, then Kokkos' BinSort on a device, std::sort on the host (unique
// keys: one result).
template <class Exec, class Coords, class Conn>
Kokkos::View<ordinal_t*, typename Exec::memory_space> order(const Exec& exec, const Coords& x,
                                                            const Conn& conn, int nv) {
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
  using Keys = Kokkos::View<std::uint64_t*, Mem>;
  Keys keys(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::morton_keys"), ne);
  detail::Keying<Coords, Conn, Keys> keying{x, conn, keys, nv, code_bits(ne), index_bits(ne), {}, {}};
  for (int j = 0; j < 3; ++j) keying.lo[j] = lo[j], keying.hi[j] = hi[j];
  Kokkos::parallel_for("kfem::morton_keys", Kokkos::RangePolicy<Exec>(exec, 0, ne), keying);
  const int ibits = index_bits(ne);
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible)
    host_sort(exec, keys, ibits, out);
  else
    bin_sort(exec, keys, out);
  exec.fence();
  return out;
}
}  // namespace kfem::morton
