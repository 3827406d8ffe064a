#include "device_comm.hpp"

#include <stdexcept>

#if KFEM_HAVE_NCCL
#include <cuda_runtime.h>
#include <nccl.h>
#endif

namespace kfem::parallel {
#if KFEM_HAVE_NCCL
namespace {
void check(ncclResult_t rc, const char* what) {
  if (rc != ncclSuccess) throw std::runtime_error(std::string("NCCL ") + what + ": " + ncclGetErrorString(rc));
}
ncclComm_t of(const std::shared_ptr<void>& c) {
  return static_cast<ncclComm_t>(c.get());
}
cudaStream_t stream_of(void* s) {
  return static_cast<cudaStream_t>(s);
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
  ncclUniqueId id{};
  if (rank_ == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  comm.broadcast_bytes(&id, sizeof(id), 0);
  ncclComm_t c = nullptr;
  check(ncclCommInitRank(&c, size_, id, rank_), "ncclCommInitRank");
  comm_ = std::shared_ptr<void>(c, [](void* p) { ncclCommDestroy(static_cast<ncclComm_t>(p)); });
}
DeviceComm::~DeviceComm() = default;

void DeviceComm::exchange(const std::vector<Comm::Message>& sends, const std::vector<Comm::Message>& receives,
                          void* stream) const {
  if (sends.empty() && receives.empty()) return;
  check(ncclGroupStart(), "ncclGroupStart");
  for (const Comm::Message& m : receives)
    check(ncclRecv(m.data, m.bytes, ncclUint8, m.peer, of(comm_), stream_of(stream)), "ncclRecv");
  for (const Comm::Message& m : sends)
    check(ncclSend(m.data, m.bytes, ncclUint8, m.peer, of(comm_), stream_of(stream)), "ncclSend");
  check(ncclGroupEnd(), "ncclGroupEnd");
}

void DeviceComm::allgather(const void* mine, void* all, std::size_t bytes, void* stream) const {
  check(ncclAllGather(mine, all, bytes, ncclUint8, of(comm_), stream_of(stream)), "ncclAllGather");
}

#else  // no NCCL in this build: nothing can be made

bool DeviceComm::available() {
  return false;
}
std::string DeviceComm::version() {
  return "";
}
DeviceComm::DeviceComm(const Comm&) {
  throw std::runtime_error("halo nccl: this build has no NCCL (a CUDA build with MPI where CMake finds NCCL)");
}
DeviceComm::~DeviceComm() = default;
void DeviceComm::exchange(const std::vector<Comm::Message>&, const std::vector<Comm::Message>&, void*) const {}
void DeviceComm::allgather(const void*, void*, std::size_t, void*) const {}
#endif
}  // namespace kfem::parallel
