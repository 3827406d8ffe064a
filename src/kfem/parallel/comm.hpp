// The ranks of a run: MPI_COMM_WORLD when kfem is built with MPI (KFEM_ENABLE_MPI) and started by
// mpirun, one rank otherwise. Only comm.cpp includes mpi.h: the rest of kfem, nvcc-compiled code
// included, sees plain C++ types. Messages of any size: large ones go in chunks below MPI's int counts.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace kfem::parallel {
// MPI_Init_thread (funneled: only the thread that calls Kokkos calls MPI) before Kokkos starts, and
// MPI_Finalize when it ends. Nothing without MPI, when MPI was initialised by someone else, or when
// no MPI launcher started the process (no OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK,
// MV2_COMM_WORLD_SIZE; KFEM_MPI=1 forces it): a plain run never touches MPI.
class Environment {
 public:
  Environment(int& argc, char**& argv);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

 private:
  bool owns_ = false;
};

bool built_with_mpi();
// The MPI library's version string ("Open MPI v4.1.4, ..."), "" without MPI.
std::string mpi_library_version();
// Whether the MPI library takes CUDA device pointers (Open MPI's MPIX_Query_cuda_support).
bool device_aware_mpi();
std::string host_name();

class Comm {
 public:
  static Comm world();  // all ranks (one without MPI)
  // Collective: the first k ranks as a communicator of their own (on those ranks; nullopt on the
  // others). A scaling sweep runs each rank count on such a part of the launcher's ranks.
  std::optional<Comm> first_ranks(int k) const;
  int rank() const { return rank_; }
  int size() const { return size_; }
  // Rank among the ranks of this host (MPI_COMM_TYPE_SHARED): picks the host's GPU.
  int local_rank() const;

  void barrier() const;
  // A barrier that sleeps while it waits (MPI_Ibarrier polled every millisecond): ranks left out
  // of a sweep point must not spin on cores the point's OpenMP threads use.
  void wait_idle() const;
  double sum(double v) const;
  double max(double v) const;
  std::int64_t sum(std::int64_t v) const;
  std::int64_t max(std::int64_t v) const;
  // Every rank's `count` values, rank after rank, on every rank.
  std::vector<double> allgather(const double* mine, int count) const;
  // Every rank's bytes at root (an empty list elsewhere).
  std::vector<std::vector<char>> gather_bytes(const void* data, std::size_t bytes, int root) const;
  void broadcast_bytes(void* data, std::size_t bytes, int root) const;
  // send[q] goes to rank q; returns what each rank sent here.
  std::vector<std::vector<char>> alltoall_bytes(const std::vector<std::vector<char>>& send) const;
  // Non-blocking sends and receives of known sizes, all complete on return (the halo exchange).
  struct Message {
    int peer;
    void* data;
    std::size_t bytes;
  };
  void exchange(const std::vector<Message>& sends, const std::vector<Message>& receives) const;
  // Stops every rank (one failing rank must not leave the others waiting in a collective).
  [[noreturn]] void abort(int code) const;

  template <class T>
  std::vector<std::vector<T>> gather(const std::vector<T>& mine, int root) const {
    static_assert(std::is_trivially_copyable_v<T>);
    return unpack<T>(gather_bytes(mine.data(), mine.size() * sizeof(T), root));
  }
  template <class T>
  std::vector<T> gather_values(const T& mine, int root) const {  // one value per rank, at root
    std::vector<T> out;
    for (const auto& v : gather(std::vector<T>{mine}, root)) out.push_back(v.at(0));
    return out;
  }
  template <class T>
  std::vector<std::vector<T>> alltoall(const std::vector<std::vector<T>>& send) const {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<std::vector<char>> bytes(send.size());
    for (std::size_t q = 0; q < send.size(); ++q) {
      bytes[q].resize(send[q].size() * sizeof(T));
      if (!bytes[q].empty()) std::memcpy(bytes[q].data(), send[q].data(), bytes[q].size());
    }
    return unpack<T>(alltoall_bytes(bytes));
  }

 private:
  Comm(int rank, int size, std::shared_ptr<void> handle = nullptr)
      : rank_(rank), size_(size), handle_(std::move(handle)) {}
  template <class T>
  static std::vector<std::vector<T>> unpack(const std::vector<std::vector<char>>& bytes) {
    std::vector<std::vector<T>> out(bytes.size());
    for (std::size_t q = 0; q < bytes.size(); ++q) {
      out[q].resize(bytes[q].size() / sizeof(T));
      if (!out[q].empty()) std::memcpy(out[q].data(), bytes[q].data(), out[q].size() * sizeof(T));
    }
    return out;
  }
  int rank_ = 0, size_ = 1;
  std::shared_ptr<void> handle_;  // an MPI_Comm of first_ranks (freed with the last copy); null: world
  friend struct CommAccess;
};
}  // namespace kfem::parallel
