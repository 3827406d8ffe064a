// Jacobi CG over ranks: the recurrence of solve/cg.hpp with every dot product and norm summed over
// the ranks and y = A x on the owned rows after a halo exchange of x's ghost entries. The matrix is
// the owned-row prefix of a rank's local CSR, its columns local (owned, then ghosts): rectangular,
// n_owned x n_local.
// The sums add the ranks' partial dot products in rank order on every rank (an all-gather, not an
// all-reduce whose order the library picks): MPI on the host and NCCL on the GPUs then give the same
// bits, so the two transports' solves are equal to the last digit and can be checked for it.
#pragma once
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

#include "kfem/parallel/comm.hpp"
#include "kfem/parallel/device_comm.hpp"
#include "kfem/parallel/halo.hpp"
#include "kfem/report/stats.hpp"
#include "kfem/report/timing.hpp"
#include "kfem/solve/cg.hpp"

namespace kfem::parallel {
inline double sum_in_rank_order(const std::vector<double>& parts) {
  double s = 0;
  for (const double v : parts) s += v;
  return s;
}

// Each rank's partial dot on the host, gathered through MPI.
struct HostSums {
  Comm comm;
  template <class V, class W>
  double dot(const V& a, const W& b) const {
    return sum_in_rank_order(comm.allgather(double(KokkosBlas::dot(a, b))));
  }
  template <class V>
  double nrm2(const V& a) const {
    return std::sqrt(dot(a, a));
  }
};

// Each rank's partial dot left on its GPU and gathered there through NCCL; one copy of the
// size() partials to the host, which adds them as HostSums does.
template <class Exec, class S>
class DeviceSums {
 public:
  DeviceSums(const Exec& exec, const DeviceComm& device)
      : exec_(exec),
        device_(&device),
        mine_("kfem::cg_partial"),
        all_("kfem::cg_partials", device.size()),
        host_(Kokkos::create_mirror_view(all_)) {}
  template <class V, class W>
  double dot(const V& a, const W& b) const {
    KokkosBlas::dot(mine_, a, b);  // Exec's default instance, as the other CG kernels
    device_->allgather(mine_.data(), all_.data(), sizeof(Dot), native_stream(exec_));
    Kokkos::deep_copy(exec_, host_, all_);
    exec_.fence();
    std::vector<double> parts(host_.extent(0));
    for (std::size_t q = 0; q < parts.size(); ++q) parts[q] = double(host_(q));
    return sum_in_rank_order(parts);
  }
  template <class V>
  double nrm2(const V& a) const {
    return std::sqrt(dot(a, a));
  }

 private:
  using Mem = typename Exec::memory_space;
  using In = Kokkos::View<const S*, Mem>;
  using Dot = std::decay_t<decltype(KokkosBlas::dot(std::declval<In>(), std::declval<In>()))>;
  Exec exec_;
  const DeviceComm* device_;
  Kokkos::View<Dot, Mem> mine_;
  Kokkos::View<Dot*, Mem> all_;
  typename Kokkos::View<Dot*, Mem>::HostMirror host_;
};

struct DistributedCgResult {
  CgResult cg;
  // of cg.seconds: the exchanges where they hold the host until done (MPI); a stream-ordered
  // (NCCL) exchange returns at once, so its share is not timed here (-1)
  double halo_s = 0;
};

// A: owned rows (A.num_rows = owned DOFs) over `num_cols` local columns; b and x: owned entries.
// The sums go through `sums_device` (NCCL) where given, else through MPI.
template <class Exec, class S>
DistributedCgResult distributed_conjugate_gradient(
    const Exec& exec, const Comm& comm, const Halo<Exec, S>& halo, const DeviceComm* sums_device,
    const CsrGraph<typename Exec::memory_space>& A, ordinal_t num_cols,
    const Kokkos::View<S*, typename Exec::memory_space>& values,
    const Kokkos::View<const S*, typename Exec::memory_space>& b,
    const Kokkos::View<S*, typename Exec::memory_space>& x, const CgOptions& opts) {
  using Device = Kokkos::Device<Exec, typename Exec::memory_space>;
  using Vec = Kokkos::View<S*, Device>;
  using Matrix = KokkosSparse::CrsMatrix<S, ordinal_t, Device, void, offset_t>;
  const ordinal_t n = A.num_rows;
  exec.fence();
  comm.barrier();
  const auto start = std::chrono::steady_clock::now();
  const Vec inv_diag(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::cg_inv_diag"), n);
  cg_detail::inverse_diagonal(exec, A, values, inv_diag);
  const Matrix mat("kfem::owned_rows", num_cols, values,
                   typename Matrix::StaticCrsGraphType(A.cols, A.row_map));
  const Vec p_ext("kfem::cg_p_local", num_cols);  // owned entries, then ghosts
  const auto owned = Kokkos::make_pair(std::size_t(0), std::size_t(n));
  DistributedCgResult out;
  out.halo_s = halo.device() ? -1.0 : 0.0;
  const auto apply = [&](const Vec& p, const Vec& Ap) {
    Kokkos::deep_copy(Kokkos::subview(p_ext, owned), p);
    const auto h0 = std::chrono::steady_clock::now();
    halo(p_ext);
    if (!halo.device())
      out.halo_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - h0).count();
    KokkosSparse::spmv("N", S(1), mat, p_ext, S(0), Ap);
  };
  const auto solve = [&](const auto& sums) {
    return cg_detail::iterate(exec, apply, inv_diag, Kokkos::View<const S*, Device>(b), Vec(x), opts, sums);
  };
  out.cg = sums_device ? solve(DeviceSums<Exec, S>(exec, *sums_device)) : solve(HostSums{comm});
  out.cg.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
  const auto together = [&] { exec.fence(), comm.barrier(); };
  const auto timed = [&](const auto& sums) {
    return summarize(time_repeated(exec, 0, repetitions, together,
                                   [&] { [[maybe_unused]] volatile double v = sums.dot(x, x); }))
        .median;
  };
  return device ? timed(DeviceSums<Exec, S>(exec, *device)) : timed(HostSums{comm});
}
}  // namespace kfem::parallel
