// Work mappings `reg-jac`, `reg-nojac`, `shm-jac`, `shm-nojac`: banas et al.'s Algorithms 3 and 4 on
// Kokkos teams. A team integrates one element at a time; its threads own the components x components
// blocks (a, b) of Ke. The blocks are split into parts; for every part the team loops over the
// quadrature points and, per point, (1) gets the geometry (JAC: one thread computes J, det J and
// J^-1 from the vertices; NOJAC: reads w det J and J^-1 that the host prepared for every element and
// point), (2) computes the physical gradients of all shape functions together, (3) each thread
// updates its blocks. REG keeps a thread's blocks in registers (one per thread on a GPU, so many
// parts: the paper's redundant geometry and gradient work per part); SHM keeps several blocks per
// thread in team scratch (fewer parts). Kernel parameters come from the device (parameters()).
// Points in batches (beyond the paper's listing, same work): the team takes `points` quadrature
// points between two barriers (as many as it has threads for all their gradients at once: N_sh of
// 512 threads were busy per point), into one of two buffers, so that the next batch is written
// while the last one is still read: one barrier per batch (two with JAC, whose geometry the batch's
// threads compute in parallel), where the paper's loop has three per point. NOJAC keeps the paper's
// per-point loop where fewer than min_batch points fit (p >= 6): there its kernel issues fewer
// instructions than one-point batches. Host backends (a team of one thread: no barriers to save)
// keep it too: there batches only add work.
// symmetric_blocks (beyond the paper): only the blocks b <= a are integrated, each also written
// mirrored as Ke_ba = Ke_ab^T (the operators are symmetric): about half the blocks and flops.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kfem/assembly/lanes.hpp"
#include "kfem/assembly/mapping/gemm_panels.hpp"
#include "kfem/assembly/mapping_traits.hpp"
#include "kfem/assembly/target/block.hpp"
#include "kfem/core/error.hpp"
#include "kfem/core/kokkos_compat.hpp"
#include "kfem/core/types.hpp"
#include "kfem/fe/operator.hpp"

namespace kfem::mapping {
enum class Accumulate { registers, shared };  // REG | SHM
enum class Jacobian { device, host };         // JAC | NOJAC

// What the host decides from the queried device (banas §4.2, Tables 3-4).
struct BanasParameters {
  int team_size = 1;          // threads per team: a multiple of 64 on a GPU, 1 on a host backend
  int blocks_per_thread = 1;  // blocks a thread owns per part
  int parts = 1;              // parts of Ke, each one pass over the quadrature points
  int elements_per_team = 1;  // elements a team integrates one after the other
  bool batched = false;       // points in batches; false: the paper's per-point loop
  int points = 1;             // quadrature points per batch (1 without batches)
  std::size_t scratch_bytes = 0;
};

template <Accumulate Acc, Jacobian Jac>
struct BanasBlocks {
  using layout = Kokkos::LayoutRight;  // a team reads one element's data at once
  static constexpr const char* name = Acc == Accumulate::registers
                                          ? (Jac == Jacobian::device ? "reg-jac" : "reg-nojac")
                                          : (Jac == Jacobian::device ? "shm-jac" : "shm-nojac");
  static constexpr const char* help =
      Acc == Accumulate::registers
          ? (Jac == Jacobian::device ? "banas' REG x JAC: a thread's blocks in registers, J per point"
                                     : "banas' REG x NOJAC: blocks in registers, geometry from the host")
          : (Jac == Jacobian::device ? "banas' SHM x JAC: blocks in team scratch, J per point"
                                     : "banas' SHM x NOJAC: blocks in team scratch, geometry from the host");
  static constexpr bool host_geometry = Jac == Jacobian::host;  // FamilyElements::jacobian is needed
  bool symmetric_blocks = false;
  // Points per batch: 0, the parameters' choice; 1, the paper's per-point loop; k > 1, batches of
  // up to k points on any backend (the typed tests run the batches on host backends through it).
  int points = 0;
  // NOJAC: fewest points a batch holds; smaller NOJAC batches lose to the per-point loop. JAC
  // batches, whose geometry the batch's threads share, pay at any size.
  static constexpr int min_batch = 3;

  // Blocks a kernel integrates: all n^2, or the n (n + 1) / 2 with b <= a.
  KOKKOS_INLINE_FUNCTION static long block_count(int n, bool symmetric) {
    return symmetric ? long(n) * (n + 1) / 2 : long(n) * n;
  }
  // Block number blk -> (a, b): row-major over all blocks, or over the lower triangle (b <= a),
  // blk = a (a + 1) / 2 + b, so consecutive threads still read consecutive b.
  // 32-bit arithmetic: blk < n^2 <= 288^2 for prisms up to p = 7 (a 64-bit division per block and
  // point was the kernels' largest share of integer instructions).
  KOKKOS_INLINE_FUNCTION static void block_of(long blk, int n, bool symmetric, int& a, int& b) {
    const int ib = int(blk);
    if (!symmetric) {
      a = ib / n, b = ib - a * n;
      return;
    }
    // A float root is within one of the row (blk < 2^24 here); the loops settle it exactly.
    int r = int((kokkos_compat::sqrt(8.0f * float(ib) + 1.0f) - 1.0f) / 2.0f);
    while (r * (r + 1) / 2 > ib) --r;
    while ((r + 1) * (r + 2) / 2 <= ib) ++r;
    a = r, b = ib - r * (r + 1) / 2;
  }

  // Blocks in registers per thread: one on a GPU (the paper's REG), a strip of 4 on a host backend,
  // where a team is one thread and a single block per pass would repeat the point loop N_sh^2 times.
  template <class Exec>
  static constexpr int register_blocks() {
    return lanes::in_turn<Exec> ? 4 : 1;
  }

  // Team scratch before the SHM blocks, in scalars: the vertices, then per buffer (two for batches,
  // one for the per-point loop) `points` points' (w det J, J^-1) and n gradients, and for batches
  // w det J again (NOJAC: read after the first copy's buffer is refilled).
  template <int D>
  KOKKOS_INLINE_FUNCTION static std::size_t batch_scalars(int n, int vertices, int points, bool batched) {
    const std::size_t buffers = batched ? 2 : 1, per_point = 1 + D * D + std::size_t(n) * D + batched;
    return std::size_t(vertices) * D + buffers * std::size_t(points) * per_point;
  }

  // Team size: the largest multiple of 64 up to 512 the device allows (fewer for small elements).
  // Points per batch (`points` 0): on a GPU as many as the team has threads for all their gradients
  // at once (n each), at most nq, batched for JAC and for NOJAC from min_batch points; on a host
  // backend none, the per-point loop. `points` > 0 sets them, fewer where the buffers would not fit.
  // SHM keeps the batch buffers within a quarter of the team scratch, the rest holding as many
  // blocks per thread as fit.
  template <class Exec, class S, int D>
  static BanasParameters parameters(int n, int nq, int vertices, ordinal_t elements, int max_team,
                                    bool symmetric = false, int points = 0) {
    BanasParameters k;
    const long blocks = block_count(n, symmetric);
    const std::size_t cap = std::size_t(Kokkos::TeamPolicy<Exec>::scratch_size_max(0));
    if (lanes::in_turn<Exec>) {
      k.team_size = 1;
    } else {
      const long want = (blocks + 63) / 64 * 64;
      const int top = (max_team < 512 ? max_team : 512) / 64 * 64;
      k.team_size = int(want < top ? want : top);
      if (k.team_size < 64) k.team_size = 64;
    }
    const int want = points > 0 ? points : lanes::in_turn<Exec> ? 1 : k.team_size / n;
    k.points = want < 1 ? 1 : want < nq ? want : nq;
    // The buffers fit in the team scratch (a quarter of it for SHM, whose blocks need the rest).
    while (k.points > 1 && sizeof(S) * batch_scalars<D>(n, vertices, k.points, true) >
                               (Acc == Accumulate::shared ? cap / 4 : cap))
      --k.points;
    k.batched =
        points > 0 ? points > 1 : !lanes::in_turn<Exec> && (Jac == Jacobian::device || k.points >= min_batch);
    if (!k.batched) k.points = 1;
    const std::size_t fixed = sizeof(S) * batch_scalars<D>(n, vertices, k.points, k.batched);
    const long per_pass = long(k.team_size) * (Acc == Accumulate::registers ? register_blocks<Exec>() : 1);
    if (Acc == Accumulate::shared) {
      // Fewer threads when even one block each does not fit (p >= 6 in double: 448 threads).
      while (!lanes::in_turn<Exec> && k.team_size > 64 &&
             fixed + sizeof(S) * D * D * std::size_t(k.team_size) > cap)
        k.team_size -= 64;
      if (fixed + sizeof(S) * D * D * std::size_t(k.team_size) > cap)
        throw InputError(std::string(name) + ": " + std::to_string(k.team_size) +
                         " threads need more team scratch than the device's " + std::to_string(cap) +
                         " bytes");
      const long fit = long((cap - fixed) / (sizeof(S) * D * D * std::size_t(k.team_size)));
      const long need = (blocks + per_pass - 1) / per_pass;
      k.blocks_per_thread = int(fit < need ? fit : need);
      k.scratch_bytes = fixed + sizeof(S) * D * D * std::size_t(k.team_size) * k.blocks_per_thread;
    } else {
      k.blocks_per_thread = register_blocks<Exec>();
      k.scratch_bytes = fixed;
    }
    if (k.scratch_bytes > cap)
      throw InputError(std::string(name) + ": " + std::to_string(k.scratch_bytes) +
                       " bytes of team scratch exceed the device's " + std::to_string(cap));
    const long per_part = long(k.team_size) * k.blocks_per_thread;
    k.parts = int((blocks + per_part - 1) / per_part);
    // The paper minimises elements per team to keep the most teams active; Kokkos leagues are not
    // limited the way 2012 OpenCL grids were, so one element per team unless the league overflows.
    const long max_league = 2147483647L;
    k.elements_per_team = int((long(elements) + max_league - 1) / max_league);
    if (k.elements_per_team < 1) k.elements_per_team = 1;
    return k;
  }

  // Flops one element costs in these kernels, counted from the code: per part and point the
  // geometry (JAC only, `geometry` flops) and the gradients of all n shape functions (2 D^2 each);
  // per point and block the weighted products (D + 2 D^2); per block the operator's combination
  // (symmetric: the integrated blocks' products; the mirrored block's combination costs the same).
  // The stage bench's report of the kernel (mapping_traits.hpp): banas' Tables 3-4, 3D elements.
  template <class Exec, class S>
  static StageParameters stage_parameters(const StageQuery& q) {
    constexpr int D = 3;
    const int max_team = max_team_size<Exec>();
    const BanasParameters b =
        parameters<Exec, S, D>(q.nsh, q.nq, q.vertices, q.launch, max_team, q.symmetric);
    StageParameters out;
    out.flags = {{"symmetric_blocks", q.symmetric}};
    out.counts = {{"max_team_size", max_team},
                  {"team_size", b.team_size},
                  {"parts", b.parts},
                  {"blocks_per_thread", b.blocks_per_thread},
                  {"elements_per_team", b.elements_per_team},
                  {"points_per_batch", b.batched ? b.points : 0},  // 0: the paper's per-point loop
                  {"scratch_bytes", long(b.scratch_bytes)}};
    out.executed_flops_per_element =
        executed_flops(q.nsh, q.nq, D, b, q.geometry_flops, q.combination_flops, q.symmetric);
    return out;
  }

  static double executed_flops(int n, int nq, int D, const BanasParameters& k, double geometry,
                               double combination, bool symmetric = false) {
    const double per_point = (Jac == Jacobian::device ? geometry : 0.0) + n * 2.0 * D * D;
    const double blocks = double(block_count(n, symmetric));
    return k.parts * nq * per_point + nq * blocks * (D + 2.0 * D * D) + double(n) * n * combination;
  }

  template <class Exec, class In, class Op, class Adder>
  void launch(const Exec& exec, const In& in, const Op& op, ordinal_t begin, ordinal_t end,
              const Adder& add) const {
    using Elements = typename In::elements_type;
    const Elements& els = in.els;
    using S = typename Elements::scalar_type;
    using F = typename Elements::family;
    using Policy = Kokkos::TeamPolicy<Exec>;
    if (end <= begin) return;
    const int n = els.ref.num_nodes();
    if (Jac == Jacobian::host && els.jacobian.extent(0) != std::size_t(els.num_elements))
      throw std::logic_error(std::string(name) + ": the host-prepared Jacobian terms are missing");
    const BanasParameters k = parameters<Exec, S, F::dim>(n, els.ref.num_qp(), F::vertices, end - begin,
                                                          max_team_size<Exec>(), symmetric_blocks, points);
    const ordinal_t league = (end - begin + k.elements_per_team - 1) / k.elements_per_team;
    Policy policy(exec, league, k.team_size);
    policy.set_scratch_size(0, Kokkos::PerTeam(k.scratch_bytes));
    const std::string label =
        std::string("kfem::assemble[") + name + (symmetric_blocks ? ",symmetric]" : "]");
    // A named functor, not a lambda: nvcc 13 gives the extended lambdas of the four <Acc, Jac>
    // instantiations clashing tags (a null call on Serial in CUDA builds). symmetric_blocks and the
    // batches pick kernels of their own: a run-time flag costs the full kernel registers, and with
    // them teams per SM.
    const auto run = [&](auto sym, auto batched) {
      Kokkos::parallel_for(label, policy,
                           Kernel<Exec, Elements, Op, typename In::target_type, Adder, decltype(sym)::value,
                                  decltype(batched)::value>{els, op, in.where, add, begin, end, k});
    };
    using yes = std::true_type;
    using no = std::false_type;
    if (symmetric_blocks)
      k.batched ? run(yes{}, yes{}) : run(yes{}, no{});
    else
      k.batched ? run(no{}, yes{}) : run(no{}, no{});
  }

  template <class Exec, class Elements, class Op, class Target, class Adder, bool Sym, bool Batched>
  struct Kernel {
    using S = typename Elements::scalar_type;
    using F = typename Elements::family;
    using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
    static constexpr int D = F::dim, V = F::vertices, C = Op::components, G = 1 + D * D;
    static constexpr int RB = Acc == Accumulate::registers ? register_blocks<Exec>() : 1;
    static constexpr bool shm = Acc == Accumulate::shared, read_jacobian = Jac == Jacobian::host;
    Elements els;
    Op op;
    Target where;
    Adder add;
    ordinal_t begin, end;
    BanasParameters k;
    static constexpr bool sym = Sym;

    KOKKOS_INLINE_FUNCTION void operator()(const Member& t) const {
      const int n = els.ref.num_nodes(), nq = els.ref.num_qp();
      const int ept = k.elements_per_team, bpt = k.blocks_per_thread, parts = k.parts;
      const int P = Batched ? k.points : 1;  // points per buffer
      constexpr int B = Batched ? 2 : 1;     // buffers
      const std::size_t scratch = k.scratch_bytes;
      S* const X = static_cast<S*>(t.team_scratch(0).get_shmem(scratch));  // vertices
      S* const W = X + V * D;                    // buffer u, point p: (w det J, J^-1) at (u P + p) G
      S* const Wt = W + B * P * G;               // batches: w det J of buffer u, point p at u P + p (NOJAC)
      S* const Gq = Wt + (Batched ? B * P : 0);  // buffer u, point p: n x D gradients at (u P + p) n D
      S* const Acc2 = Gq + B * P * n * D;        // SHM: team x bpt blocks
      const int tid = t.team_rank(), ts = t.team_size();
      const long blocks = block_count(n, sym);
      const auto acc = add.access();
      int u = 0;  // batches: the buffer of the next batch; it alternates across parts and elements
      for (int k2 = 0; k2 < ept; ++k2) {
        const ordinal_t e = begin + ordinal_t(t.league_rank()) * ept + k2;
        if (e >= end) break;  // uniform over the team
        if (!read_jacobian) {
          Kokkos::parallel_for(Kokkos::TeamThreadRange(t, V * D), [&](int i) { X[i] = els.coords(e, i); });
          t.team_barrier();
        } else if (Batched) {  // the first batch's terms; the later batches' arrive one batch ahead
          S* const Wu = W + u * P * G;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(t, (nq < P ? nq : P) * G),
                               [&](int i) { Wu[i] = els.jacobian(e, i / G, i % G); });
          t.team_barrier();
        }
        for (int part = 0; part < parts; ++part) {
          const long first = long(part) * ts * bpt;
          // tour: paper-loop
          fe::Products<S, D> R[RB] = {};  // REG accumulators
          if (shm)
            for (int j = 0; j < bpt; ++j)
              for (int i = 0; i < D * D; ++i) Acc2[(j * ts + tid) * D * D + i] = S(0);
          // Calls f(out, a, b) for each of this thread's blocks (a, b) and its accumulators `out`.
          const auto for_blocks = [&](const auto& f) {
            for (int j = 0; j < (shm ? bpt : RB); ++j) {
              const long blk = first + long(j) * ts + tid;  // consecutive threads, consecutive blocks
              if (blk >= blocks) break;
              int a, b;
              block_of(blk, n, sym, a, b);
              f(shm ? Acc2 + (j * ts + tid) * D * D : &R[j].v[0][0], a, b);
            }
          };
          // out += w (grad phi_a)(grad phi_b)^T with one point's gradients g.
          const auto add_point = [&](S* out, const S w, const S* g, const int a, const int b) {
            for (int i = 0; i < D; ++i) {
              const S ga = w * g[a * D + i];
              for (int l = 0; l < D; ++l) out[i * D + l] += ga * g[b * D + l];
            }
          };
          if constexpr (!Batched) {  // the paper's loop: three barriers per point
            for (int q = 0; q < nq; ++q) {
              if (read_jacobian) {
                Kokkos::parallel_for(Kokkos::TeamThreadRange(t, G),
                                     [&](int i) { W[i] = els.jacobian(e, q, i); });
              } else {
                gemm_panels::geometry<F>(t, els, X, q, 1, W);  // one thread, as the paper
              }
              t.team_barrier();
              Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n), [&](int a) {
                fe::gradient<F>(els.ref, reinterpret_cast<const S(*)[D]>(W + 1), q, a, Gq + a * D);
              });
              t.team_barrier();
              const S w = W[0];  // once: the stores to `out` may alias scratch for the compiler
              for_blocks([&](S* out, int a, int b) { add_point(out, w, Gq, a, b); });
              t.team_barrier();  // the next point overwrites W and Gq
            }
            // tour: end paper-loop
          } else {
            for (int q0 = 0; q0 < nq; q0 += P, u ^= 1) {
              // Buffer u was last read two batches ago: every thread has since passed a barrier.
              const int qn = nq - q0 < P ? nq - q0 : P;
              S* const Wu = W + u * P * G;
              S* const Gu = Gq + u * P * n * D;
              // NOJAC: the next batch of this element (the next part's first, after the last).
              const int q1 = q0 + P < nq ? q0 + P : (part + 1 < parts ? 0 : nq);
              const int next = read_jacobian ? (nq - q1 < P ? nq - q1 : P) * G : 0;
              if (!read_jacobian) {
                gemm_panels::geometry<F>(t, els, X, q0, qn, Wu);  // a thread per point
                t.team_barrier();
              }
              // NOJAC: a thread's load of the next batch's terms is in flight while it computes gradients.
              const S ahead = tid < next ? els.jacobian(e, q1 + tid / G, tid % G) : S(0);
              Kokkos::parallel_for(Kokkos::TeamThreadRange(t, qn * n), [&](int i) {
                const int p = i / n, a = i % n;
                if (read_jacobian && a == 0) Wt[u * P + p] = Wu[p * G];
                fe::gradient<F>(els.ref, reinterpret_cast<const S(*)[D]>(Wu + p * G + 1), q0 + p, a,
                                Gu + (p * n + a) * D);
              });
              if (read_jacobian) {  // into the other buffer, last read before the previous barrier
                S* const Wn = W + (u ^ 1) * P * G;
                if (tid < next) Wn[tid] = ahead;
                for (int i = tid + ts; i < next; i += ts) Wn[i] = els.jacobian(e, q1 + i / G, i % G);
              }
              t.team_barrier();
              // (a, b) once per batch, then one point after the other straight into the accumulators
              // (a batch sum on the side, or the point loop unrolled, holds more values in registers,
              // which cost teams per SM).
              for_blocks([&](S* out, int a, int b) {
                KFEM_NO_UNROLL
                for (int p = 0; p < qn; ++p)
                  add_point(out, read_jacobian ? Wt[u * P + p] : Wu[p * G], Gu + p * n * D, a, b);
              });
            }
          }
          for (int j = 0; j < (shm ? bpt : RB); ++j) {
            const long blk = first + long(j) * ts + tid;
            if (blk >= blocks) break;
            int a, b;
            block_of(blk, n, sym, a, b);
            fe::Products<S, D> A;
            const S* in = shm ? Acc2 + (j * ts + tid) * D * D : &R[j].v[0][0];
            for (int i = 0; i < D; ++i)
              for (int l = 0; l < D; ++l) A.v[i][l] = in[i * D + l];
            const auto to = where(e, a, b);
            // symmetric: a diagonal block takes its upper half for both (A_aa is symmetric only to
            // rounding), so that Ke comes out exactly symmetric
            const bool diagonal = sym && a == b;
            for (int c = 0; c < C; ++c)
              for (int d = 0; d < C; ++d) acc(to(c, d), diagonal && c > d ? op(A, d, c) : op(A, c, d));
            if (sym && a != b) {  // Ke_ba(c, d) = Ke_ab(d, c)
              const auto mirror = where(e, b, a);
              for (int c = 0; c < C; ++c)
                for (int d = 0; d < C; ++d) acc(mirror(c, d), op(A, d, c));
            }
          }
        }
        t.team_barrier();  // X is reloaded for the next element
      }
    }
  };

  // Threads per team the device allows for these kernels (a conservative bound without the
  // functor: Kokkos' recommended maximum for a team policy of this execution space).
  template <class Exec>
  static int max_team_size() {
    if (lanes::in_turn<Exec>) return 1;
    return Kokkos::TeamPolicy<Exec>(1, Kokkos::AUTO).team_size_max(TeamProbe{}, Kokkos::ParallelForTag());
  }
  struct TeamProbe {
    template <class Member>
    KOKKOS_INLINE_FUNCTION void operator()(const Member&) const {}
  };
};
}  // namespace kfem::mapping
