// The halo exchange of a distributed vector: each rank sends the entries of its owned DOFs that
// its peers hold as ghosts and receives its own ghost entries, one message per peer each way.
// Two transports, the same bytes: MPI sends host memory, or device memory with a device-aware MPI,
// in place, else the packed send buffer and the ghost block go through page-locked host copies
// ("host-staged"); NCCL (a DeviceComm) sends device memory GPU to GPU, enqueued on the execution space's
// stream after the pack kernel, so nothing waits on the host.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "kfem/core/exec_spaces.hpp"
#include "kfem/core/staging.hpp"
#include "kfem/core/types.hpp"
#include "kfem/parallel/comm.hpp"
#include "kfem/parallel/device_comm.hpp"
#include "kfem/parallel/distribute.hpp"
#include "kfem/parallel/stream_mark.hpp"
#include "kfem/parallel/transport.hpp"

namespace kfem::parallel {
// The transport a run on Exec uses for `asked` (the deck key `key`); std::runtime_error for nccl
// where it cannot run.
template <class Exec>
Transport resolve_transport(Transport asked, const std::string& key) {
  const bool gpu = !on_host<Exec>;
  if (asked == Transport::nccl && !(gpu && DeviceComm::available()))
    throw std::runtime_error(key + " nccl: " +
                             (DeviceComm::available()
                                  ? "needs a CUDA backend (--backend cuda)"
                                  : "this build has no NCCL (CUDA + MPI builds where CMake finds it)"));
  if (asked != Transport::automatic) return asked;
  return gpu && DeviceComm::available() ? Transport::nccl : Transport::mpi;
}

namespace halo_detail {
template <class Mem, class S>
struct Pack {
  Kokkos::View<const ordinal_t*, Mem> dofs;
  Kokkos::View<const S*, Mem> x;
  Kokkos::View<S*, Mem> buf;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i) const { buf(i) = x(dofs(i)); }
};
}  // namespace halo_detail

template <class Exec, class S>
class Halo {
 public:
  using Mem = typename Exec::memory_space;
  using Vec = Kokkos::View<S*, Mem>;

  // Vectors hold `components` entries per local DOF node of `part` (DOF = components * node + c).
  // With `device` (a DeviceComm over the same ranks as `comm`), messages go through NCCL.
  Halo(const Exec& exec, const Comm& comm, const LocalPart& part, int components,
       const DeviceComm* device = nullptr)
      : exec_(exec), comm_(comm), device_(device), c_(components) {
    std::vector<ordinal_t> dofs;
    for (const Peer& p : part.peers) {
      send_.push_back({p.rank, dofs.size(), p.send.size() * std::size_t(c_)});
      for (const ordinal_t n : p.send)
        for (int k = 0; k < c_; ++k) dofs.push_back(c_ * n + k);
      if (p.recv_count > 0)
        recv_.push_back({p.rank, std::size_t(c_) * std::size_t(p.recv_begin - part.owned),
                         std::size_t(c_) * std::size_t(p.recv_count)});
    }
    ghost_begin_ = std::size_t(c_) * std::size_t(part.owned);
    ghosts_ = std::size_t(c_) * std::size_t(part.ghosts());
    send_dofs_ = to_device(exec, dofs, "kfem::halo_send_dofs");
    send_buf_ = Vec("kfem::halo_send", dofs.size());
    staged_ = !device_ && !on_host<Exec> && !device_aware_mpi();
    if (staged_) {
      host_send_ = HostVec("kfem::halo_send_host", dofs.size());
      host_ghosts_ = HostVec("kfem::halo_ghosts_host", ghosts_);
    }
    if (device_) {  // one exchange now: NCCL connects to each peer at its first message, which is
      // slow; it belongs to the halo's set-up, not to the first solve's
      const Vec ghosts("kfem::halo_connect", ghosts_);
      device_->exchange(messages(send_, send_buf_.data()), messages(recv_, ghosts.data()),
                        native_stream(exec));
    }
    exec.fence();
  }

  // tour: halo-exchange
  // x's ghost entries get their owners' values.
  void operator()(const Vec& x) const {
    const Vec ghosts = ghost_block(x);
    start(x, ghosts);
    finish(ghosts);
  }

  // The exchange in two halves, the ghosts landing in `ghosts` (ghost_count() entries; x's own ghost
  // block, or a vector of their own); work enqueued on exec between start and finish runs while the
  // messages move (it must not read `ghosts`), and finish makes exec's later work wait for them.
  // start enqueues the pack (and, host-staged, its copy to the host) and marks the queue there.
  // finish sends from the mark: through NCCL it enqueues the messages on the GPUs, to run from the
  // mark on, and returns; through MPI it waits for the mark alone, not for the work enqueued since,
  // holds the host while the messages move, then enqueues the ghosts' copy to the device. Either way
  // the device has the work between start and finish to do while the host is busy.
  void start(const Vec& x, const Vec&) const {
    if (send_dofs_.extent(0) > 0)
      Kokkos::parallel_for("kfem::halo_pack", Kokkos::RangePolicy<Exec>(exec_, 0, send_dofs_.extent(0)),
                           halo_detail::Pack<Mem, S>{send_dofs_, x, send_buf_});
    if (device_) return device_->mark(native_stream(exec_));
    if (staged_) Kokkos::deep_copy(exec_, host_send_, send_buf_);
    packed_.record(exec_);  // after the previous exchange's copy up, too: host_ghosts_ is free
  }
  void finish(const Vec& ghosts) const {
    if (device_) {
      device_->send_from_mark(messages(send_, send_buf_.data()), messages(recv_, ghosts.data()));
      return device_->join(native_stream(exec_));
    }
    packed_.wait();
    comm_.exchange(messages(send_, staged_ ? host_send_.data() : send_buf_.data()),
                   messages(recv_, staged_ ? host_ghosts_.data() : ghosts.data()));
    if (staged_) Kokkos::deep_copy(exec_, ghosts, host_ghosts_);
  }
  // tour: end halo-exchange

  Vec ghost_block(const Vec& x) const {
    return Vec(x, Kokkos::make_pair(ghost_begin_, ghost_begin_ + ghosts_));
  }
  std::size_t ghost_count() const { return ghosts_; }
  std::size_t bytes_sent() const { return send_dofs_.extent(0) * sizeof(S); }
  std::size_t bytes_received() const { return ghosts_ * sizeof(S); }
  std::size_t peers() const { return std::max(send_.size(), recv_.size()); }
  bool staged() const { return staged_; }
  const DeviceComm* device() const { return device_; }
  // How the messages travel, as reports name it.
  std::string transport() const { return device_ ? "nccl" : staged_ ? "mpi host-staged" : "mpi"; }

 private:
  struct Range {
    int peer;
    std::size_t begin, count;  // entries
  };
  static std::vector<Comm::Message> messages(const std::vector<Range>& ranges, S* base) {
    std::vector<Comm::Message> m;
    for (const Range& r : ranges) m.push_back({r.peer, base + r.begin, r.count * sizeof(S)});
    return m;
  }
  Exec exec_;
  Comm comm_;
  const DeviceComm* device_ = nullptr;
  int c_;
  std::vector<Range> send_, recv_;  // recv_: offsets inside the ghost block
  std::size_t ghost_begin_ = 0, ghosts_ = 0;
  Kokkos::View<ordinal_t*, Mem> send_dofs_;
  Vec send_buf_;
  bool staged_ = false;
  using HostVec = Kokkos::View<S*, typename HostStaging<Exec>::space>;  // page-locked where it pays
  HostVec host_send_, host_ghosts_;
  mutable StreamMark packed_;  // start's mark: the send buffer is ready
};
}  // namespace kfem::parallel
