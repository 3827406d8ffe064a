// How CG's halo (parallel.halo) or its sums (parallel.sums) travel between ranks: automatic = NCCL
// where it is built in and the vectors live on a GPU, else MPI (halo.hpp resolves it per space).
#pragma once

namespace kfem::parallel {
enum class Transport { automatic, mpi, nccl };
inline const char* name_of(Transport t) {
  return t == Transport::nccl ? "nccl" : t == Transport::mpi ? "mpi" : "auto";
}
}  // namespace kfem::parallel
