// Work mapping `owner` (owner computes, issue 18): one warp per node gathers that node's 3 rows
// of K from the elements around it and writes each value exactly once, coalesced. No zeroing
// pass, no atomics, no colouring, and the same sums in the same order on every run and backend
// width: bitwise deterministic. Its race handling is `none` (one writer per value).
//  - The price is redundant geometry: every element's Jacobians are computed again by each of its
//    8 nodes (the element-centric mappings compute them once and pay in atomics or colours).
//  - A pass takes 4 of the node's elements. Lane (i, q) computes J at Gauss point q of element i
//    and the gradients of its 8 nodes; lane (i, b) sums the 9 products of the owner node a with
//    node b over the points; element by element, the lanes add the 8 blocks (a, b) into the row
//    block kept in scratch, at the column of node b (distinct nodes, so no two lanes collide).
#pragma once
#include <Kokkos_Core.hpp>
#include <string>

#include "kfem/assembly/mapping/hex8_warp_common.hpp"
#include "kfem/assembly/problem.hpp"
#include "kfem/core/error.hpp"

namespace kfem::mapping {
// What the owner mapping reads: per element its nodes and coordinates (natural order, relative to
// node 0 as Hex8ElementData), per node its elements (sorted, so the summation order is fixed) and
// the patterns (node graph for the columns, DOF row map for where the row block starts).
template <class S, class Mem>
struct Hex8OwnerData {
  using scalar_type = S;
  ordinal_t num_nodes = 0;
  int max_neighbours = 0;  // longest node row: sizes the row block in scratch
  Kokkos::View<S* [24], Kokkos::LayoutRight, Mem> coords;
  Kokkos::View<ordinal_t* [8], Kokkos::LayoutRight, Mem> nodes;
  Kokkos::View<offset_t*, Mem> around_start;  // node n's elements: around(around_start(n) .. n + 1)
  Kokkos::View<ordinal_t*, Mem> around;       // 8 e + (local index of n in e)
  Kokkos::View<offset_t*, Mem> node_rows, dof_rows;
  Kokkos::View<ordinal_t*, Mem> node_cols;
};

template <class S, class Exec>
Hex8OwnerData<S, typename Exec::memory_space> make_hex8_owner_data(const Exec& exec, const Problem<Exec>& p) {
  using Mem = typename Exec::memory_space;
  using Policy = Kokkos::RangePolicy<Exec>;
  Hex8OwnerData<S, Mem> d;
  const ordinal_t ne = p.num_elements(), nn = p.mesh.num_nodes;
  const auto conn = p.mesh.conn;
  const auto coords = p.mesh.coords;
  d.num_nodes = nn;
  d.node_rows = p.graph.node.row_map, d.node_cols = p.graph.node.cols, d.dof_rows = p.graph.dof.row_map;
  d.coords = decltype(d.coords)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::owner_coords"), ne);
  d.nodes = decltype(d.nodes)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::owner_nodes"), ne);
  d.around_start = decltype(d.around_start)("kfem::owner_around_start", nn + 1);
  const auto out = d;
  Kokkos::parallel_for(
      "kfem::owner_data", Policy(exec, 0, ne), KOKKOS_LAMBDA(ordinal_t e) {
        for (int a = 0; a < 8; ++a) {
          const ordinal_t na = conn(e, a);
          out.nodes(e, a) = na;
          for (int j = 0; j < 3; ++j) out.coords(e, 3 * a + j) = S(coords(na, j) - coords(conn(e, 0), j));
          Kokkos::atomic_add(&out.around_start(na + 1), offset_t(1));
        }
      });
  Kokkos::parallel_scan(
      "kfem::owner_around_scan", Policy(exec, 0, nn + 1),
      KOKKOS_LAMBDA(ordinal_t n, offset_t & sum, bool final) {
        sum += out.around_start(n);
        if (final) out.around_start(n) = sum;
      });
  d.around = decltype(d.around)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::owner_around"),
                                8 * offset_t(ne));
  Kokkos::View<offset_t*, Mem> fill("kfem::owner_fill", nn);
  const auto around = d.around;
  Kokkos::parallel_for(
      "kfem::owner_around", Policy(exec, 0, ne), KOKKOS_LAMBDA(ordinal_t e) {
        for (int a = 0; a < 8; ++a) {
          const ordinal_t na = conn(e, a);
          around(out.around_start(na) + Kokkos::atomic_fetch_add(&fill(na), offset_t(1))) = 8 * e + a;
        }
      });
  // The fill order above depends on thread timing; sorted, every run sums in the same order.
  Kokkos::parallel_for(
      "kfem::owner_around_sort", Policy(exec, 0, nn), KOKKOS_LAMBDA(ordinal_t n) {
        sort_row(&around(out.around_start(n)), out.around_start(n + 1) - out.around_start(n));
      });
  const auto rows = d.node_rows;
  Kokkos::parallel_reduce(
      "kfem::owner_max_row", Policy(exec, 0, nn),
      KOKKOS_LAMBDA(ordinal_t n, int& m) {
        const int k = int(rows(n + 1) - rows(n));
        if (k > m) m = k;
      },
      Kokkos::Max<int>(d.max_neighbours));
  return d;
}

struct Hex8Owner {
  using layout = Kokkos::LayoutRight;
  static constexpr const char* name = "owner";
  static constexpr const char* help =
      "owner computes: a warp per node gathers its rows, each value written once; deterministic";
  static constexpr bool owner_computes = true;
  int elements_per_team = 4;  // nodes per team here: one warp each

  // Scratch per warp, in scalars: gradients G (4 elements x 8 points x 8 nodes x 3), the owner
  // node's w detJ g_a (H, 4 x 8 x 3), the blocks (a, b) (Kb, 4 x 8 x 9), the row block R (3 rows
  // x 3 K), then ints: the K node columns and the column position of each (element, b).
  static constexpr int g_at = 0, h_at = 768, kb_at = 864, r_at = 1152;
  static int scratch(int k) { return padded(r_at + 9 * k + k + 32); }

  template <class S, class Exec>
  static auto make_data(const Exec& exec, const Problem<Exec>& p) {
    return make_hex8_owner_data<S>(exec, p);
  }
  // Its entry in the 8 node-to-element lists; no per-element CSR index.
  template <class Data>
  static double index_bytes_per_element(const Data&) {
    return sizeof(ordinal_t) * 8;
  }

  // `write(slot, value)` receives every value of the pattern once.
  template <class Exec, class Data, class Op, class Write>
  void launch(const Exec& exec, const Data& d, const Op& op, const Write& write) const {
    using S = typename Data::scalar_type;
    const Isotropic<S> m = op.material;
    using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
    using Kokkos::ThreadVectorRange;
    const int words = scratch(d.max_neighbours), kmax = d.max_neighbours;
    // 11.6 KB per warp in double: as many warps per team as the team scratch holds (3 of 40 KB on
    // CUDA with Kokkos 3.4), at most elements_per_team.
    const int fit =
        int((Kokkos::TeamPolicy<Exec>::scratch_size_max(0) - scratch_alignment) / (words * sizeof(S)));
    const int per_team = fit < 1 ? 1 : (fit < elements_per_team ? fit : elements_per_team);
    Kokkos::parallel_for(
        "kfem::assemble[owner]", warp_policy(exec, d.num_nodes, per_team, words * sizeof(S)),
        KOKKOS_LAMBDA(const Member& t) {
          const ordinal_t n = warp_element(t, 0, d.num_nodes);
          if (n < 0) return;
          S* const W = thread_scratch<S>(t, words);
          S* const G = W + g_at;
          S* const H = W + h_at;
          S* const Kb = W + kb_at;
          S* const R = W + r_at;
          int* const cols = reinterpret_cast<int*>(W + r_at + 9 * kmax);
          int* const pos = cols + kmax;
          const offset_t c0 = d.node_rows(n);
          const int k = int(d.node_rows(n + 1) - c0), width = 3 * k;
          Kokkos::parallel_for(ThreadVectorRange(t, k), [&](int j) { cols[j] = d.node_cols(c0 + j); });
          Kokkos::parallel_for(ThreadVectorRange(t, 9 * k), [&](int j) { R[j] = 0; });
          const offset_t first = d.around_start(n), count = d.around_start(n + 1) - first;
          for (offset_t pass = 0; pass < count; pass += 4) {
            const int in_pass = int(count - pass < 4 ? count - pass : 4);
            Kokkos::parallel_for(ThreadVectorRange(t, 8 * in_pass), [&](int l) {  // lane (i, q)
              const int i = l / 8, q = l % 8;
              const ordinal_t ea = d.around(first + pass + i), e = ea / 8;
              S X[8][3], J[3][3], Jinv[3][3];
              for (int b = 0; b < 8; ++b)
                for (int j = 0; j < 3; ++j) X[b][j] = d.coords(e, 3 * b + j);
              hex8::jacobian<S>(X, q, J);
              const S det = hex8::invert3(J, Jinv);  // Gauss weights are 1
              S* const Gq = G + 24 * (8 * i + q);
              for (int b = 0; b < 8; ++b) hex8::gradient<S>(Jinv, q, b, Gq + 3 * b);
              for (int j = 0; j < 3; ++j) H[3 * (8 * i + q) + j] = det * Gq[3 * (ea % 8) + j];
            });
            Kokkos::parallel_for(ThreadVectorRange(t, 8 * in_pass), [&](int l) {  // lane (i, b)
              const int i = l / 8, b = l % 8;
              S A[9] = {};
              for (int q = 0; q < hex8::num_qp; ++q) {
                const S* h = H + 3 * (8 * i + q);
                const S* g = G + 24 * (8 * i + q) + 3 * b;
                for (int c = 0; c < 9; ++c) A[c] += h[c / 3] * g[c % 3];
              }
              for (int c = 0; c < 9; ++c)
                Kb[9 * l + c] = elasticity::from_products(
                    m, [&](int r, int s) { return A[3 * r + s]; }, c / 3, c % 3);
              const ordinal_t col = d.nodes(d.around(first + pass + i) / 8, b);
              int lo = 0, hi = k - 1;  // the node row is sorted and holds col
              while (lo < hi) {
                const int mid = (lo + hi) / 2;
                if (cols[mid] < col)
                  lo = mid + 1;
                else
                  hi = mid;
              }
              pos[l] = lo;
            });
            for (int i = 0; i < in_pass; ++i)  // element by element: the 8 columns of one are distinct
              Kokkos::parallel_for(ThreadVectorRange(t, 72), [&](int j) {
                const int b = j / 9, c = j % 9;
                R[(c / 3) * width + 3 * pos[8 * i + b] + c % 3] += Kb[9 * (8 * i + b) + c];
              });
          }
          // Rows 3n, 3n+1, 3n+2 are consecutive in the CSR: one coalesced run of 9 K values.
          const slot_t start = d.dof_rows(3 * n);
          Kokkos::parallel_for(ThreadVectorRange(t, 9 * k), [&](int j) { write(start + j, R[j]); });
        });
  }
};
}  // namespace kfem::mapping
