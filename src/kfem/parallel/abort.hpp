// Errors under mpirun. Those every rank meets alike (a bad settings, a refused option) are said once by
// rank 0 and end the run normally. One that a rank meets alone (rank 0's oracle, prints and files;
// one rank's share of a distributed point) would leave the others waiting in their next collective:
// or_abort_all turns it into one line naming the rank and MPI_Abort for every rank.
#pragma once
#include <fmt/core.h>

#include <cstdio>
#include <exception>
#include <string>

#include "kfem/core/error.hpp"
#include "kfem/parallel/comm.hpp"

namespace kfem::parallel {
template <class F>
decltype(auto) or_abort_all(const parallel::Comm& comm, F&& f) {
  if (comm.size() == 1) return f();
  try {
    return f();
  } catch (const std::exception& e) {
    const std::string what = e.what();
    fmt::print(stderr, "kfem: error: rank {} of {}: {}\n", comm.rank(), comm.size(),
               what.substr(0, what.find('\n')));
    std::fflush(stderr);
    comm.abort(dynamic_cast<const InputError*>(&e) ? 2 : 1);
  }
}
}  // namespace kfem::parallel
