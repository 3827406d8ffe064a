// A mark in an execution space instance's queue that the host waits for while the instance goes on
// with what was enqueued after it (a CUDA event), so a wait on a copy to the host leaves the device
// busy with the next kernel; and the instance's native stream. On host spaces, whose work is done
// when its call returns, record fences and wait returns at once.
#pragma once
#include <Kokkos_Core.hpp>
#include <memory>
#include <type_traits>

#include "kfem/core/exec_spaces.hpp"

namespace kfem::parallel {
// The execution space instance's native stream (a cudaStream_t), null for host spaces.
template <class Exec>
void* native_stream([[maybe_unused]] const Exec& exec) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) return exec.cuda_stream();
#endif
  return nullptr;
}

class StreamMark {
 public:
  StreamMark();
  // The mark after everything enqueued on exec so far.
  template <class Exec>
  void record(const Exec& exec) {
    if constexpr (on_host<Exec>)
      exec.fence();
    else
      record_on(native_stream(exec));
  }
  // Returns once the instance has passed the last recorded mark.
  void wait() const;

 private:
  void record_on(void* stream);
  std::shared_ptr<void> event_;  // a cudaEvent_t in CUDA builds (stream_mark.cpp)
};
}  // namespace kfem::parallel
