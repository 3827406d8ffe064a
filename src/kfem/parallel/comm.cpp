#include "comm.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#if KFEM_HAVE_MPI
#include <mpi.h>
// (mpi-ext.h needs mpi.h first: separate blocks keep clang-format from sorting them)
#include <mpi-ext.h>
#endif

namespace kfem::parallel {
std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "unknown";
  return name;
}

#if KFEM_HAVE_MPI
namespace {
constexpr std::size_t chunk = std::size_t(1) << 30;  // bytes per message: well inside int counts
constexpr int size_tag = 32000;  // below MPI's smallest allowed tag bound (32767); chunks count from 0

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI error in ") + what);
}

bool running() {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  return init && !fin;
}

// Large buffers as a series of <= 1 GiB messages (tag = chunk number).
void send_chunks(const void* data, std::size_t bytes, int peer, MPI_Comm comm) {
  const char* p = static_cast<const char*>(data);
  for (std::size_t off = 0, k = 0; off < bytes; off += chunk, ++k)
    check(MPI_Send(p + off, int(std::min(chunk, bytes - off)), MPI_BYTE, peer, int(k), comm), "MPI_Send");
}
void recv_chunks(void* data, std::size_t bytes, int peer, MPI_Comm comm) {
  char* p = static_cast<char*>(data);
  for (std::size_t off = 0, k = 0; off < bytes; off += chunk, ++k)
    check(
        MPI_Recv(p + off, int(std::min(chunk, bytes - off)), MPI_BYTE, peer, int(k), comm, MPI_STATUS_IGNORE),
        "MPI_Recv");
}
template <class T>
T allreduce(T v, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  T out{};
  check(MPI_Allreduce(&v, &out, 1, type, op, comm), "MPI_Allreduce");
  return out;
}

// Started by an MPI launcher (mpirun, mpiexec, srun with PMI/PMIx), or asked to by KFEM_MPI=1: a
// plain `kfem run` stays a process that never touches MPI, exactly as in a build without it.
bool launched_by_mpi() {
  for (const char* v : {"KFEM_MPI", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MV2_COMM_WORLD_SIZE"})
    if (const char* value = std::getenv(v); value && *value && std::string(value) != "0") return true;
  return false;
}
}  // namespace

struct CommAccess {
  static MPI_Comm of(const Comm& c) {
    return c.handle_ ? *static_cast<MPI_Comm*>(c.handle_.get()) : MPI_COMM_WORLD;
  }
};
namespace {
MPI_Comm mpi(const Comm& c) {
  return CommAccess::of(c);
}
}  // namespace

Environment::Environment(int& argc, char**& argv) {
  int init = 0;
  MPI_Initialized(&init);
  if (init || !launched_by_mpi()) return;
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  owns_ = true;
}
Environment::~Environment() {
  if (owns_ && running()) MPI_Finalize();
}

bool built_with_mpi() {
  return true;
}

std::string mpi_library_version() {
  char v[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(v, &len);
  std::string s(v, std::size_t(len));
  return s.substr(0, s.find_first_of("\r\n,"));
}

bool device_aware_mpi() {
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

Comm Comm::world() {
  if (!running()) return Comm(0, 1);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return Comm(rank, size);
}

int Comm::local_rank() const {
  if (size_ == 1) return 0;
  MPI_Comm node;
  check(MPI_Comm_split_type(mpi(*this), MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
        "MPI_Comm_split_type");
  int r = 0;
  MPI_Comm_rank(node, &r);
  MPI_Comm_free(&node);
  return r;
}

void Comm::barrier() const {
  if (size_ > 1) check(MPI_Barrier(mpi(*this)), "MPI_Barrier");
}
void Comm::wait_idle() const {
  if (size_ == 1) return;
  MPI_Request r;
  check(MPI_Ibarrier(mpi(*this), &r), "MPI_Ibarrier");
  for (int done = 0;;) {
    check(MPI_Test(&r, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

std::optional<Comm> Comm::first_ranks(int k) const {
  if (k >= size_) return *this;
  MPI_Comm part = MPI_COMM_NULL;
  check(MPI_Comm_split(mpi(*this), rank_ < k ? 0 : MPI_UNDEFINED, rank_, &part), "MPI_Comm_split");
  if (part == MPI_COMM_NULL) return std::nullopt;
  std::shared_ptr<void> handle(new MPI_Comm(part), [](void* h) {
    auto* c = static_cast<MPI_Comm*>(h);
    if (running()) MPI_Comm_free(c);
    delete c;
  });
  return Comm(rank_, k, std::move(handle));
}
double Comm::sum(double v) const {
  return size_ > 1 ? allreduce(v, MPI_DOUBLE, MPI_SUM, mpi(*this)) : v;
}
double Comm::max(double v) const {
  return size_ > 1 ? allreduce(v, MPI_DOUBLE, MPI_MAX, mpi(*this)) : v;
}
std::int64_t Comm::sum(std::int64_t v) const {
  return size_ > 1 ? allreduce(v, MPI_INT64_T, MPI_SUM, mpi(*this)) : v;
}
std::int64_t Comm::max(std::int64_t v) const {
  return size_ > 1 ? allreduce(v, MPI_INT64_T, MPI_MAX, mpi(*this)) : v;
}

std::vector<double> Comm::allgather(const double* mine, int count) const {
  std::vector<double> all(std::size_t(size_) * std::size_t(count));
  check(MPI_Allgather(mine, count, MPI_DOUBLE, all.data(), count, MPI_DOUBLE, mpi(*this)), "MPI_Allgather");
  return all;
}

std::vector<std::vector<char>> Comm::gather_bytes(const void* data, std::size_t bytes, int root) const {
  std::vector<std::vector<char>> out;
  const auto* p = static_cast<const char*>(data);
  if (rank_ != root) {
    const std::uint64_t n = bytes;
    check(MPI_Send(&n, 1, MPI_UINT64_T, root, size_tag, mpi(*this)), "MPI_Send");
    send_chunks(data, bytes, root, mpi(*this));
    return out;
  }
  out.resize(std::size_t(size_));
  for (int q = 0; q < size_; ++q) {
    if (q == root) {
      out[q].assign(p, p + bytes);
      continue;
    }
    std::uint64_t n = 0;
    check(MPI_Recv(&n, 1, MPI_UINT64_T, q, size_tag, mpi(*this), MPI_STATUS_IGNORE), "MPI_Recv");
    out[q].resize(n);
    recv_chunks(out[q].data(), n, q, mpi(*this));
  }
  return out;
}

void Comm::broadcast_bytes(void* data, std::size_t bytes, int root) const {
  char* p = static_cast<char*>(data);
  for (std::size_t off = 0; size_ > 1 && off < bytes; off += chunk)
    check(MPI_Bcast(p + off, int(std::min(chunk, bytes - off)), MPI_BYTE, root, mpi(*this)), "MPI_Bcast");
}

std::vector<std::vector<char>> Comm::alltoall_bytes(const std::vector<std::vector<char>>& send) const {
  if (int(send.size()) != size_) throw std::logic_error("Comm::alltoall: one buffer per rank expected");
  std::vector<std::uint64_t> out_n(send.size()), in_n(send.size());
  for (std::size_t q = 0; q < send.size(); ++q) out_n[q] = send[q].size();
  check(MPI_Alltoall(out_n.data(), 1, MPI_UINT64_T, in_n.data(), 1, MPI_UINT64_T, mpi(*this)),
        "MPI_Alltoall");
  std::vector<std::vector<char>> in(send.size());
  std::vector<Message> sends, receives;
  for (int q = 0; q < size_; ++q) {
    in[q].resize(in_n[q]);
    if (out_n[q]) sends.push_back({q, const_cast<char*>(send[q].data()), out_n[q]});
    if (in_n[q]) receives.push_back({q, in[q].data(), in_n[q]});
  }
  exchange(sends, receives);
  return in;
}

void Comm::exchange(const std::vector<Message>& sends, const std::vector<Message>& receives) const {
  std::vector<MPI_Request> req;
  const auto post = [&](const Message& m, bool send) {
    char* p = static_cast<char*>(m.data);
    for (std::size_t off = 0, k = 0; off < m.bytes; off += chunk, ++k) {
      req.emplace_back();
      const int n = int(std::min(chunk, m.bytes - off));
      check(send ? MPI_Isend(p + off, n, MPI_BYTE, m.peer, int(k), mpi(*this), &req.back())
                 : MPI_Irecv(p + off, n, MPI_BYTE, m.peer, int(k), mpi(*this), &req.back()),
            send ? "MPI_Isend" : "MPI_Irecv");
    }
  };
  for (const Message& m : receives) post(m, false);
  for (const Message& m : sends) post(m, true);
  check(MPI_Waitall(int(req.size()), req.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

void Comm::abort(int code) const {
  if (size_ > 1 && running()) MPI_Abort(MPI_COMM_WORLD, code);  // every rank, not just this part
  std::_Exit(code);
}

#else  // one rank: every collective is the identity

Environment::Environment(int&, char**&) {}
Environment::~Environment() = default;
bool built_with_mpi() {
  return false;
}
std::string mpi_library_version() {
  return "";
}
bool device_aware_mpi() {
  return false;
}
Comm Comm::world() {
  return Comm(0, 1);
}
int Comm::local_rank() const {
  return 0;
}
void Comm::barrier() const {}
void Comm::wait_idle() const {}
std::optional<Comm> Comm::first_ranks(int k) const {
  if (k < 1) return std::nullopt;
  return *this;
}
double Comm::sum(double v) const {
  return v;
}
double Comm::max(double v) const {
  return v;
}
std::int64_t Comm::sum(std::int64_t v) const {
  return v;
}
std::int64_t Comm::max(std::int64_t v) const {
  return v;
}
std::vector<double> Comm::allgather(const double* mine, int count) const {
  return {mine, mine + count};
}
std::vector<std::vector<char>> Comm::gather_bytes(const void* data, std::size_t bytes, int) const {
  const auto* p = static_cast<const char*>(data);
  return {std::vector<char>(p, p + bytes)};
}
void Comm::broadcast_bytes(void*, std::size_t, int) const {}
std::vector<std::vector<char>> Comm::alltoall_bytes(const std::vector<std::vector<char>>& send) const {
  if (send.size() != 1) throw std::logic_error("Comm::alltoall: one buffer per rank expected");
  return send;
}
void Comm::exchange(const std::vector<Message>& sends, const std::vector<Message>& receives) const {
  if (!sends.empty() || !receives.empty()) throw std::logic_error("Comm::exchange: no peers on one rank");
}
void Comm::abort(int code) const {
  std::_Exit(code);
}
#endif
}  // namespace kfem::parallel
