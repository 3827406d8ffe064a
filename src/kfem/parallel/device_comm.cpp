#include "device_comm.hpp"

#include <cstdlib>
#include <memory>
#include <stdexcept>

#if KFEM_HAVE_NCCL
#include <cuda_runtime.h>
#include <nccl.h>
#endif

namespace kfem::parallel {
#if KFEM_HAVE_NCCL
namespace {
void check(ncclResult_t rc, const char* what) {
  if (rc != ncclSuccess)
    throw std::runtime_error(std::string("NCCL ") + what + ": " + ncclGetErrorString(rc));
}
void check(cudaError_t rc, const char* what) {
  if (rc != cudaSuccess)
    throw std::runtime_error(std::string("CUDA ") + what + ": " + cudaGetErrorString(rc));
}
struct State {
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;                // NCCL's work, non-blocking
  cudaEvent_t ready = nullptr, done = nullptr;  // caller's stream -> ours -> caller's
  ~State() {
    if (comm) ncclCommDestroy(comm);
    if (done) cudaEventDestroy(done);
    if (ready) cudaEventDestroy(ready);
    if (stream) cudaStreamDestroy(stream);
  }
};
State& of(const std::shared_ptr<void>& s) {
  return *static_cast<State*>(s.get());
}
// marked(): the communicator's stream waits for everything enqueued on `caller` so far; after it,
// ops() runs there; joined(), later, makes `caller`'s work from then on wait for them (and for
// anything after them there).
void marked(State& st, void* caller) {
  check(cudaEventRecord(st.ready, static_cast<cudaStream_t>(caller)), "cudaEventRecord");
  check(cudaStreamWaitEvent(st.stream, st.ready, 0), "cudaStreamWaitEvent");
}
template <class Ops>
void ops_after_mark(State& st, Ops&& ops) {
  ops(st.stream);
  check(cudaEventRecord(st.done, st.stream), "cudaEventRecord");
}
template <class Ops>
void started(State& st, void* caller, Ops&& ops) {
  marked(st, caller);
  ops_after_mark(st, ops);
}
void joined(State& st, void* caller) {
  check(cudaStreamWaitEvent(static_cast<cudaStream_t>(caller), st.done, 0), "cudaStreamWaitEvent");
}
}  // namespace

bool DeviceComm::available() {
  return true;
}
std::string DeviceComm::version() {
  int v = 0;
  if (ncclGetVersion(&v) != ncclSuccess) return "unknown";
  // NCCL >= 2.9 encodes major * 10000 + minor * 100 + patch
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

DeviceComm::DeviceComm(const Comm& comm) : rank_(comm.rank()), size_(comm.size()) {
  // Never NVLink multicast (NVLS): on shared NVSwitch hosts it can take GPUs out of service, and a
  // halo of point-to-point messages and an 8-byte all-gather gain nothing from it. Set before NCCL
  // reads its environment, whatever was exported.
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  ncclUniqueId id{};
  if (rank_ == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  comm.broadcast_bytes(&id, sizeof(id), 0);
  auto st = std::make_shared<State>();
  check(cudaStreamCreateWithFlags(&st->stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  check(cudaEventCreateWithFlags(&st->ready, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  check(cudaEventCreateWithFlags(&st->done, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  // One CTA (channel) per operation: halos of kilobytes to a megabyte and 8-byte partial sums need
  // no more, and NCCL's default channel count makes a short solve's iterations several times slower
  // (a start-up cost). NCCL_MAX_CTAS or NCCL_MAX_NCHANNELS in the environment still decide where set.
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  if (!std::getenv("NCCL_MAX_CTAS") && !std::getenv("NCCL_MAX_NCHANNELS"))
    config.minCTAs = config.maxCTAs = 1;
  check(ncclCommInitRankConfig(&st->comm, size_, id, rank_, &config), "ncclCommInitRankConfig");
  state_ = st;
}
DeviceComm::~DeviceComm() = default;

void DeviceComm::exchange(const std::vector<Comm::Message>& sends, const std::vector<Comm::Message>& receives,
                          void* stream) const {
  mark(stream);
  send_from_mark(sends, receives);
  join(stream);
}

void DeviceComm::mark(void* stream) const {
  marked(of(state_), stream);
}

void DeviceComm::send_from_mark(const std::vector<Comm::Message>& sends,
                                const std::vector<Comm::Message>& receives) const {
  State& st = of(state_);
  ops_after_mark(st, [&](cudaStream_t s) {
    if (sends.empty() && receives.empty()) return;
    check(ncclGroupStart(), "ncclGroupStart");
    for (const Comm::Message& m : receives)
      check(ncclRecv(m.data, m.bytes, ncclUint8, m.peer, st.comm, s), "ncclRecv");
    for (const Comm::Message& m : sends)
      check(ncclSend(m.data, m.bytes, ncclUint8, m.peer, st.comm, s), "ncclSend");
    check(ncclGroupEnd(), "ncclGroupEnd");
  });
}

void DeviceComm::join(void* stream) const {
  joined(of(state_), stream);
}

void DeviceComm::allgather(const void* mine, void* all, std::size_t bytes, void* stream) const {
  State& st = of(state_);
  started(st, stream, [&](cudaStream_t s) {
    check(ncclAllGather(mine, all, bytes, ncclUint8, st.comm, s), "ncclAllGather");
  });
  joined(st, stream);
}

#else  // no NCCL in this build: nothing can be made

bool DeviceComm::available() {
  return false;
}
std::string DeviceComm::version() {
  return "";
}
DeviceComm::DeviceComm(const Comm&) {
  throw std::runtime_error(
      "halo nccl: this build has no NCCL (a CUDA build with MPI where CMake finds NCCL)");
}
DeviceComm::~DeviceComm() = default;
void DeviceComm::exchange(const std::vector<Comm::Message>&, const std::vector<Comm::Message>&, void*) const {
}
void DeviceComm::mark(void*) const {}
void DeviceComm::send_from_mark(const std::vector<Comm::Message>&, const std::vector<Comm::Message>&) const {}
void DeviceComm::join(void*) const {}
void DeviceComm::allgather(const void*, void*, std::size_t, void*) const {}
#endif
}  // namespace kfem::parallel
