// Solves over ranks: the distributed CSR as a solve operator (solve/solver.hpp's contract), whose
// reduce() sums every dot product and norm over the ranks and whose apply() makes y = A x on the
// owned rows after a halo exchange of x's ghost entries; any solver of the registry runs on it. The matrix is
// the owned-row prefix of a rank's local CSR, its columns local (owned, then ghosts): rectangular,
// n_owned x n_local.
// The sums add the ranks' partial dot products in rank order on every rank (an all-gather, not an
// all-reduce whose order the library picks): MPI on the host and NCCL on the GPUs then give the same
// bits, so the two transports' solves are equal to the last digit and can be checked for it.
#pragma once
#include <Kokkos_Core.hpp>
#include <array>
#include <chrono>
#include <cmath>
#include <vector>

#include "kfem/core/exec_spaces.hpp"
#include "kfem/core/scan.hpp"
#include "kfem/parallel/comm.hpp"
#include "kfem/parallel/device_comm.hpp"
#include "kfem/parallel/halo.hpp"
#include "kfem/report/stats.hpp"
#include "kfem/report/timing.hpp"
#include "kfem/solve/solver.hpp"

namespace kfem::parallel {
// all: every rank's K values, rank after rank; the K sums, each added in rank order.
template <int K>
std::array<double, K> sum_in_rank_order(const double* all, int ranks) {
  std::array<double, K> s{};
  for (int q = 0; q < ranks; ++q)
    for (int k = 0; k < K; ++k) s[k] += all[q * K + k];
  return s;
}

// Each rank's partials copied to the host, gathered through MPI.
struct HostSums {
  Comm comm;
  template <int K, class Mem>
  std::array<double, K> total(const cg_detail::PartialsView<K, Mem>& mine) const {
    const std::array<double, K> here = cg_detail::LocalReductions{}.total(mine);  // this rank's, on the host
    return sum_in_rank_order<K>(comm.allgather(here.data(), K).data(), comm.size());
  }
};

// Each rank's partials gathered GPU to GPU through NCCL; one copy of all ranks' partials to the
// host, which adds them as HostSums does.
template <class Exec>
class DeviceSums {
 public:
  static constexpr int max_partials = 3;  // CG's largest group: single reduction's r.r, r.u, u.Au
  DeviceSums(const Exec& exec, const DeviceComm& device)
      : exec_(exec),
        device_(&device),
        all_("kfem::cg_partials", std::size_t(device.size()) * max_partials),
        host_(Kokkos::create_mirror_view(all_)) {}
  template <int K>
  std::array<double, K> total(const cg_detail::PartialsView<K, typename Exec::memory_space>& mine) const {
    static_assert(K <= max_partials);
    const std::size_t count = std::size_t(device_->size()) * K;
    device_->allgather(mine.data(), all_.data(), sizeof(cg_detail::Partials<K>), native_stream(exec_));
    const auto range = Kokkos::make_pair(std::size_t(0), count);
    Kokkos::deep_copy(exec_, Kokkos::subview(host_, range), Kokkos::subview(all_, range));
    exec_.fence();
    return sum_in_rank_order<K>(host_.data(), device_->size());
  }

 private:
  Exec exec_;
  const DeviceComm* device_;
  Kokkos::View<double*, typename Exec::memory_space> all_;
  typename Kokkos::View<double*, typename Exec::memory_space>::HostMirror host_;
};

namespace dcg_detail {
// The ghost columns' entries of A, row by row for the rows that have any: where each sits in A's
// values and which ghost it multiplies. A few percent of the rows and a third of their entries: the
// product's second part reads these, not the rows.
template <class Mem>
struct GhostEntries {
  Kokkos::View<ordinal_t*, Mem> rows;    // the rows with a ghost column, in order
  Kokkos::View<offset_t*, Mem> row_map;  // rows.extent(0) + 1 offsets into at and ghost
  Kokkos::View<offset_t*, Mem> at;       // positions in A's values
  Kokkos::View<ordinal_t*, Mem> ghost;   // column - owned
};

template <class Mem>
struct CountGhostEntries {  // per row: how many of its columns are ghosts
  Kokkos::View<const offset_t*, Mem> row_map;
  Kokkos::View<const ordinal_t*, Mem> cols;
  Kokkos::View<offset_t*, Mem> count;
  ordinal_t owned;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const {
    offset_t n = 0;
    for (offset_t k = row_map(r); k < row_map(r + 1); ++k) n += cols(k) >= owned ? 1 : 0;
    count(r) = n;
  }
};

template <class Mem>
struct ListGhostRows {  // the rows with a count, in order
  Kokkos::View<const offset_t*, Mem> count;
  Kokkos::View<ordinal_t*, Mem> rows;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r, ordinal_t& at, bool final) const {
    if (count(r) == 0) return;
    if (final) rows(at) = r;
    ++at;
  }
};

template <class Mem>
struct GhostRowCounts {  // counts(i) = the ghost entries of ghost row i
  Kokkos::View<const offset_t*, Mem> count;
  Kokkos::View<const ordinal_t*, Mem> rows;
  Kokkos::View<offset_t*, Mem> counts;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t i) const { counts(i) = count(rows(i)); }
};

template <class Mem>
struct FillGhostEntries {
  Kokkos::View<const offset_t*, Mem> row_map;
  Kokkos::View<const ordinal_t*, Mem> cols;
  GhostEntries<Mem> g;
  ordinal_t owned;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t i) const {
    const ordinal_t r = g.rows(i);
    offset_t j = g.row_map(i);
    for (offset_t k = row_map(r); k < row_map(r + 1); ++k)
      if (cols(k) >= owned) {
        g.at(j) = k;
        g.ghost(j) = cols(k) - owned;
        ++j;
      }
  }
};

template <class Mem>
struct CountRows {
  Kokkos::View<const offset_t*, Mem> count;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r, ordinal_t& n) const { n += count(r) > 0 ? 1 : 0; }
};

// A's ghost entries (columns >= owned), on exec.
template <class Exec>
GhostEntries<typename Exec::memory_space> ghost_entries(const Exec& exec,
                                                        const CsrGraph<typename Exec::memory_space>& A,
                                                        ordinal_t owned) {
  using Mem = typename Exec::memory_space;
  const auto none = Kokkos::WithoutInitializing;
  const Kokkos::View<offset_t*, Mem> count(Kokkos::view_alloc(none, "kfem::cg_ghost_count"), A.num_rows);
  Kokkos::parallel_for("kfem::cg_count_ghost_entries", Kokkos::RangePolicy<Exec>(exec, 0, A.num_rows),
                       CountGhostEntries<Mem>{A.row_map, A.cols, count, owned});
  ordinal_t rows_total = 0;
  Kokkos::parallel_reduce("kfem::cg_count_ghost_rows", Kokkos::RangePolicy<Exec>(exec, 0, A.num_rows),
                          CountRows<Mem>{count}, rows_total);
  GhostEntries<Mem> g;
  g.rows = Kokkos::View<ordinal_t*, Mem>(Kokkos::view_alloc(none, "kfem::cg_ghost_rows"), rows_total);
  g.row_map =
      Kokkos::View<offset_t*, Mem>(Kokkos::view_alloc(none, "kfem::cg_ghost_row_map"), rows_total + 1);
  Kokkos::parallel_scan("kfem::cg_list_ghost_rows", Kokkos::RangePolicy<Exec>(exec, 0, A.num_rows),
                        ListGhostRows<Mem>{count, g.rows});
  Kokkos::parallel_for("kfem::cg_ghost_row_counts", Kokkos::RangePolicy<Exec>(exec, 0, rows_total),
                       GhostRowCounts<Mem>{count, g.rows, g.row_map});
  const offset_t entries = exclusive_scan(exec, "kfem::cg_ghost_offsets", g.row_map, g.row_map, rows_total);
  g.at = Kokkos::View<offset_t*, Mem>(Kokkos::view_alloc(none, "kfem::cg_ghost_at"), entries);
  g.ghost = Kokkos::View<ordinal_t*, Mem>(Kokkos::view_alloc(none, "kfem::cg_ghost_column"), entries);
  Kokkos::parallel_for("kfem::cg_fill_ghost_entries", Kokkos::RangePolicy<Exec>(exec, 0, rows_total),
                       FillGhostEntries<Mem>{A.row_map, A.cols, g, owned});
  exec.fence();
  return g;
}

// y(r) += the ghost columns' share of row r, for the rows that have any: the product's second part,
// after the halo (the first, Kokkos Kernels' spmv, read the ghost entries as 0).
template <class Mem, class S>
struct AddGhostColumns {
  GhostEntries<Mem> g;
  Kokkos::View<const S*, Mem> values, ghosts;
  Kokkos::View<S*, Mem> y;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t i) const {
    S sum = S(0);
    for (offset_t j = g.row_map(i); j < g.row_map(i + 1); ++j) sum += values(g.at(j)) * ghosts(g.ghost(j));
    y(g.rows(i)) += sum;
  }
};
}  // namespace dcg_detail

struct DistributedSolveResult {
  SolveResult solve;
  // of solve.seconds: the host's time inside the exchanges where they hold it (MPI: waiting for the
  // pack and, host-staged, its copy, then the messages, while the owned columns' product runs on
  // the device); a stream-ordered (NCCL) exchange returns at once, so its share is not timed (-1)
  double halo_s = 0;
};

// The operator of a rank's owned rows. The vector the solver's operator reads is the owned part of
// v_ext (owned entries, then ghosts), whose ghost entries stay 0: the halo lands in `ghosts`. The
// product comes in two parts, Kokkos Kernels' spmv over v_ext (the owned columns' share) and the
// ghost columns' share of the rows that have any, so the first part runs while the ghosts travel:
// through NCCL on the GPUs, and through MPI while the host exchanges them (the spmv is enqueued
// before the messages). Sums: HostSums or DeviceSums<Exec>.
template <class Exec, class S, class Sums>
class DistributedCsrOperator {
 public:
  using Mem = typename Exec::memory_space;
  using Device = Kokkos::Device<Exec, Mem>;
  using Vec = Kokkos::View<S*, Device>;
  DistributedCsrOperator(const Exec& exec, const Halo<Exec, S>& halo, const Sums& sums,
                         const CsrGraph<Mem>& A, ordinal_t num_cols, const Kokkos::View<S*, Mem>& values)
      : halo_(halo),
        sums_(sums),
        A_(A),
        values_(values),
        mat_("kfem::owned_rows", num_cols, values, typename Matrix::StaticCrsGraphType(A.cols, A.row_map)),
        v_ext_("kfem::cg_operand_local", num_cols),
        ghosts_("kfem::cg_ghosts", std::size_t(num_cols - A.num_rows)),
        ghost_(dcg_detail::ghost_entries(exec, A, A.num_rows)) {}
  // y = A x, x being operand() (filled by the solver).
  void apply(const Vec&, const Vec& y) const {
    held([&] { halo_.start(v_ext_, ghosts_); });
    KokkosSparse::spmv("N", S(1), mat_, v_ext_, S(0), y);
    held([&] { halo_.finish(ghosts_); });
    if (ghost_.rows.extent(0) > 0)  // on Exec's default instance, after the spmv and the halo
      Kokkos::parallel_for("kfem::cg_ghost_columns", Kokkos::RangePolicy<Exec>(0, ghost_.rows.extent(0)),
                           dcg_detail::AddGhostColumns<Mem, S>{ghost_, values_, ghosts_, y});
  }
  void inverse_diagonal(const Exec& exec, const Vec& d) const {
    cg_detail::inverse_diagonal(exec, A_, values_, d);
  }
  const Sums& reduce() const { return sums_; }
  Vec operand() const { return Vec(v_ext_, Kokkos::make_pair(std::size_t(0), std::size_t(A_.num_rows))); }
  // The host's time inside the exchanges so far (DistributedSolveResult::halo_s).
  double halo_seconds() const { return halo_s_; }

 private:
  using Matrix = KokkosSparse::CrsMatrix<S, ordinal_t, Device, void, offset_t>;
  template <class F>
  void held(F&& f) const {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    halo_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  const Halo<Exec, S>& halo_;
  Sums sums_;
  CsrGraph<Mem> A_;
  Kokkos::View<S*, Mem> values_;
  Matrix mat_;
  Vec v_ext_, ghosts_;
  dcg_detail::GhostEntries<Mem> ghost_;
  mutable double halo_s_ = 0;
};

// A: owned rows (A.num_rows = owned DOFs) over `num_cols` local columns; b and x: owned entries.
// The sums go through `sums_device` (NCCL) where given, else through MPI. Every rank starts together.
template <class Exec, class S>
DistributedSolveResult distributed_solve(const Exec& exec, const Comm& comm, const Halo<Exec, S>& halo,
                                         const DeviceComm* sums_device,
                                         const CsrGraph<typename Exec::memory_space>& A, ordinal_t num_cols,
                                         const Kokkos::View<S*, typename Exec::memory_space>& values,
                                         const Kokkos::View<const S*, typename Exec::memory_space>& b,
                                         const Kokkos::View<S*, typename Exec::memory_space>& x,
                                         const SolverOptions& opts) {
  using Device = Kokkos::Device<Exec, typename Exec::memory_space>;
  DistributedSolveResult out;
  const auto on = [&](const auto& sums) {
    const DistributedCsrOperator<Exec, S, std::decay_t<decltype(sums)>> op(exec, halo, sums, A, num_cols,
                                                                           values);
    exec.fence();
    comm.barrier();
    out.solve = solve(exec, op, Kokkos::View<const S*, Device>(b), Kokkos::View<S*, Device>(x), opts);
    out.halo_s = halo.device() ? -1.0 : op.halo_seconds();
  };
  if (sums_device)
    on(DeviceSums<Exec>(exec, *sums_device));
  else
    on(HostSums{comm});
  return out;
}

// One halo exchange alone, fenced, all ranks starting together: the median of `repetitions` (each
// transport's cost per CG iteration, for the NCCL path too, whose in-line exchanges are not timed).
template <class Exec, class S>
double time_halo_exchange(const Exec& exec, const Comm& comm, const Halo<Exec, S>& halo, ordinal_t num_cols,
                          int repetitions = 21) {
  const Kokkos::View<S*, typename Exec::memory_space> v("kfem::halo_probe", num_cols);
  const auto together = [&] { exec.fence(), comm.barrier(); };
  return summarize(time_repeated(exec, 0, repetitions, together, [&] { halo(v); })).median;
}

// One of CG's summed dot products alone (x . x, the value on the host), as time_halo_exchange.
template <class Exec, class S>
double time_sum(const Exec& exec, const Comm& comm, const DeviceComm* device,
                const Kokkos::View<S*, typename Exec::memory_space>& x, int repetitions = 21) {
  using Mem = typename Exec::memory_space;
  const cg_detail::PartialsView<1, Mem> mine("kfem::sum_probe");
  const Kokkos::View<S*, Kokkos::Device<Exec, Mem>> xd = x;  // the dot on Exec, as in CG
  const auto together = [&] { exec.fence(), comm.barrier(); };
  const auto timed = [&](const auto& sums) {
    const auto one = [&] {
      cg_detail::partial_dot<Exec>(xd, xd, mine);
      [[maybe_unused]] volatile double v = sums.total(mine)[0];
    };
    return summarize(time_repeated(exec, 0, repetitions, together, one)).median;
  };
  return device ? timed(DeviceSums<Exec>(exec, *device)) : timed(HostSums{comm});
}
}  // namespace kfem::parallel
