#include "stream_mark.hpp"

#include <stdexcept>
#include <string>

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

namespace kfem::parallel {
#ifdef KOKKOS_ENABLE_CUDA
namespace {
void check(cudaError_t rc, const char* what) {
  if (rc != cudaSuccess)
    throw std::runtime_error(std::string("CUDA ") + what + ": " + cudaGetErrorString(rc));
}
cudaEvent_t event_of(const std::shared_ptr<void>& e) {
  return static_cast<cudaEvent_t>(e.get());
}
}  // namespace

StreamMark::StreamMark() {
  cudaEvent_t e = nullptr;
  check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  event_ = std::shared_ptr<void>(e, [](void* p) { cudaEventDestroy(static_cast<cudaEvent_t>(p)); });
}
void StreamMark::record_on(void* stream) {
  check(cudaEventRecord(event_of(event_), static_cast<cudaStream_t>(stream)), "cudaEventRecord");
}
void StreamMark::wait() const {
  check(cudaEventSynchronize(event_of(event_)), "cudaEventSynchronize");
}
#else  // host spaces only: record fenced already
StreamMark::StreamMark() = default;
void StreamMark::record_on(void*) {}
void StreamMark::wait() const {}
#endif
}  // namespace kfem::parallel
