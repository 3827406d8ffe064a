// Messages between GPUs that stay on the GPUs: an NCCL communicator over the ranks of a Comm. Its
// operations are ordered after the caller's stream and before what the caller enqueues next, without
// a host synchronisation: they run on the communicator's own non-blocking stream between two events
// (the caller's stream may be the legacy default stream, where Kokkos 3.4's default Cuda instance
// runs and where NCCL work does not order as plainly). Built
// where CMake finds NCCL in a CUDA + MPI build (KFEM_HAVE_NCCL in device_comm.cpp only, the one file
// that includes nccl.h); elsewhere `available()` is false and nothing can be made. Open MPI stays
// the launcher: the NCCL unique id travels by Comm::broadcast_bytes.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "kfem/parallel/comm.hpp"
#include "kfem/parallel/stream_mark.hpp"  // native_stream

namespace kfem::parallel {

class DeviceComm {
 public:
  // Whether this build has NCCL, and its version ("2.21.5"; "" without).
  static bool available();
  static std::string version();
  // Collective over `comm`: every rank calls it with its current CUDA device set (Kokkos' device).
  // Throws std::runtime_error with NCCL's reason where NCCL cannot start.
  explicit DeviceComm(const Comm& comm);
  ~DeviceComm();
  DeviceComm(const DeviceComm&) = delete;
  DeviceComm& operator=(const DeviceComm&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // One group of point-to-point messages (device pointers, sizes in bytes), enqueued on `stream`:
  // complete when the stream reaches them.
  void exchange(const std::vector<Comm::Message>& sends, const std::vector<Comm::Message>& receives,
                void* stream) const;
  // exchange in parts: the messages start after what `stream` holds at mark(stream), but only work
  // enqueued on `stream` after join(stream) waits for them; what comes between runs alongside. They
  // may be enqueued after the mark, once the host has queued the stream's next work: NCCL's host
  // side then takes no time from the device.
  void mark(void* stream) const;
  void send_from_mark(const std::vector<Comm::Message>& sends,
                      const std::vector<Comm::Message>& receives) const;
  void join(void* stream) const;
  // all[q] = rank q's `bytes` at `mine`, on every rank (device pointers; all holds size() * bytes).
  void allgather(const void* mine, void* all, std::size_t bytes, void* stream) const;

 private:
  int rank_ = 0, size_ = 1;
  std::shared_ptr<void> state_;  // the NCCL communicator, its stream and events (device_comm.cpp)
};
}  // namespace kfem::parallel
