// The point of a run on several ranks (`mpirun -np N kfem run`). Every rank holds the whole mesh;
// rank 0 partitions the elements (METIS or RCB) and broadcasts the parts; each rank keeps the DOF
// nodes it owns and every element touching them (parallel/distribute.hpp) and assembles that local
// problem with the point's own strategy, untouched: its owned rows are complete, so assembly needs
// no communication. The owned rows are gathered to rank 0 in the global numbering (verification
// against the oracle, --export-matrix: the same file as one rank writes); the solve is Dirichlet on
// the local rows + distributed CG (halo exchange, summed reductions), and the solution is gathered
// for the problem's read-outs (tip deflection, capacitance) on rank 0.
#include <fmt/core.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <numeric>
#include <optional>

#include "kfem/core/backends.hpp"
#include "kfem/core/error.hpp"
#include "kfem/io/matrix_market.hpp"
#include "kfem/parallel/abort.hpp"
#include "kfem/parallel/device_comm.hpp"
#include "kfem/parallel/distribute.hpp"
#include "kfem/parallel/distributed_cg.hpp"
#include "kfem/parallel/halo.hpp"
#include "kfem/parallel/partition.hpp"
#include "kfem/pipeline/point_detail.hpp"
#include "kfem/problems/dirichlet.hpp"

namespace kfem::pipeline::detail {
using nlohmann::json;
namespace {
using clock = std::chrono::steady_clock;
double since(clock::time_point t0) {
  return std::chrono::duration<double>(clock::now() - t0).count();
}

// What each rank reports, gathered to rank 0.
struct RankFigures {
  std::int64_t held_elements = 0, own_elements = 0, owned_dofs = 0, ghost_dofs = 0, nnz = 0, peers = 0;
  double graph_s = 0, element_data_s = 0, assembly_s = 0, dirichlet_s = 0, cg_s = 0, halo_s = 0;
  double bytes_sent = 0, bytes_received = 0;  // per halo exchange (one per CG iteration)
  double halo_exchange_s = 0;                 // one exchange alone, fenced (median)
  double sum_s = 0;                           // one of CG's summed dot products alone (median)
  int staged = 0;
};

// max over ranks / mean over ranks of one field (1 when all are zero)
template <class T>
double max_over_mean(const std::vector<RankFigures>& all, T RankFigures::*field) {
  double mx = 0, sum = 0;
  for (const auto& f : all) mx = std::max(mx, double(f.*field)), sum += double(f.*field);
  return sum > 0 ? mx / (sum / double(all.size())) : 1.0;
}

// The largest of one field over the ranks (the slowest rank's time).
double max_over_ranks(const std::vector<RankFigures>& all, double RankFigures::*field) {
  double mx = 0;
  for (const auto& f : all) mx = std::max(mx, f.*field);
  return mx;
}

// The global DOF of local DOF i.
ordinal_t global_dof(const parallel::LocalPart& part, int components, ordinal_t i) {
  return components * part.nodes[std::size_t(i / components)] + i % components;
}

// The run's boundary conditions (global numbering) restricted to a rank's owned and ghost DOFs.
BoundarySetup local_boundary(const BoundarySetup& bc, const parallel::LocalPart& part, int components) {
  BoundarySetup l;
  l.name = bc.name;
  const ordinal_t n = components * ordinal_t(part.nodes.size());
  l.rhs.resize(std::size_t(n));
  for (ordinal_t i = 0; i < n; ++i) {
    const ordinal_t g = global_dof(part, components, i);
    l.rhs[std::size_t(i)] = bc.rhs[std::size_t(g)];
    const auto it = std::lower_bound(bc.fixed.begin(), bc.fixed.end(), g);
    if (it != bc.fixed.end() && *it == g) {
      l.fixed.push_back(i);
      l.values.push_back(bc.values[std::size_t(it - bc.fixed.begin())]);
    }
  }
  return l;
}

// The owned rows of every rank (local columns) as one global matrix at rank 0, rows and columns in
// the global numbering, columns sorted: what a one-rank run assembles. Empty elsewhere.
template <class S>
HostCsr<S> gather_matrix(const parallel::Comm& comm, const parallel::LocalPart& part, int components,
                         const HostCsr<S>& mine, ordinal_t global_rows) {
  std::vector<ordinal_t> rows(std::size_t(mine.num_rows)), cols(mine.cols.size());
  std::vector<offset_t> lengths(std::size_t(mine.num_rows));
  for (ordinal_t r = 0; r < mine.num_rows; ++r) {
    rows[std::size_t(r)] = global_dof(part, components, r);
    lengths[std::size_t(r)] = mine.row_map[std::size_t(r) + 1] - mine.row_map[std::size_t(r)];
  }
  for (std::size_t k = 0; k < cols.size(); ++k) cols[k] = global_dof(part, components, mine.cols[k]);
  const auto all_rows = comm.gather(rows, 0), all_cols = comm.gather(cols, 0);
  const auto all_lengths = comm.gather(lengths, 0);
  const auto all_vals = comm.gather(mine.vals, 0);
  HostCsr<S> A;
  if (comm.rank() != 0) return A;
  A.num_rows = global_rows;
  A.row_map.assign(std::size_t(global_rows) + 1, 0);
  for (std::size_t q = 0; q < all_rows.size(); ++q)
    for (std::size_t i = 0; i < all_rows[q].size(); ++i)
      A.row_map[std::size_t(all_rows[q][i]) + 1] = all_lengths[q][i];
  std::partial_sum(A.row_map.begin(), A.row_map.end(), A.row_map.begin());
  A.cols.resize(std::size_t(A.row_map.back()));
  A.vals.resize(A.cols.size());
  std::vector<std::pair<ordinal_t, S>> row;
  for (std::size_t q = 0; q < all_rows.size(); ++q) {
    std::size_t k = 0;
    for (std::size_t i = 0; i < all_rows[q].size(); ++i) {
      row.clear();
      for (offset_t j = 0; j < all_lengths[q][i]; ++j, ++k) row.emplace_back(all_cols[q][k], all_vals[q][k]);
      std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      offset_t at = A.row_map[std::size_t(all_rows[q][i])];
      for (const auto& [c, v] : row) A.cols[std::size_t(at)] = c, A.vals[std::size_t(at++)] = v;
    }
  }
  return A;
}

// The owned entries of a distributed vector as one global vector at rank 0 (empty elsewhere).
std::vector<double> gather_vector(const parallel::Comm& comm, const parallel::LocalPart& part, int components,
                                  const std::vector<double>& mine, ordinal_t global_size) {
  std::vector<ordinal_t> rows(mine.size());
  for (std::size_t i = 0; i < mine.size(); ++i) rows[i] = global_dof(part, components, ordinal_t(i));
  const auto all_rows = comm.gather(rows, 0);
  const auto all_vals = comm.gather(mine, 0);
  std::vector<double> u;
  if (comm.rank() != 0) return u;
  u.assign(std::size_t(global_size), 0.0);
  for (std::size_t q = 0; q < all_rows.size(); ++q)
    for (std::size_t i = 0; i < all_rows[q].size(); ++i) u[std::size_t(all_rows[q][i])] = all_vals[q][i];
  return u;
}

template <class Exec, class S, class Family>
json distributed(const Exec& exec, const parallel::Comm& comm, const Model& global, const Model& local,
                 const parallel::LocalPart& part, const Settings& settings, const PointRequest& req,
                 const Oracle& oracle) {
  using Mem = typename Exec::memory_space;
  const bool root = comm.rank() == 0;
  const int C = local.components;
  const ordinal_t global_rows = C * global.dofs.num_nodes;
  RankFigures mine;
  json out, setup;
  Problem<Exec> p;
  GraphAssembly<Exec, S> prepared =
      prepare_graph_assembly<Exec, S, Family>(exec, local, settings, req, p, setup);
  const std::unique_ptr<AssemblerBase<Exec, S>>& assembler = prepared.assembler;
  const Kokkos::View<S*, Mem>& values = prepared.values;
  out["setup"] = setup;
  out.update(strategy_fields<Exec>(req, settings));
  out["index_bytes_per_element"] = assembler->index_bytes_per_element();
  out["storage"] = name_of(req.storage);
  const CsrGraph<Mem>& A = p.graph.dof;  // every local row; the owned ones are its prefix

  // Timed as on one rank (values poisoned with NaN before every run), all ranks starting together.
  std::vector<double> samples;
  {
    ScopedRegion r("kfem::assembly");
    const auto reset = [&] {
      Kokkos::deep_copy(exec, values, std::numeric_limits<S>::quiet_NaN());
      exec.fence();
      comm.barrier();
    };
    samples = time_repeated(exec, settings.warmup, settings.repetitions, reset,
                            [&] { assembler->assemble(values); });
  }
  std::vector<double> slowest(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i) slowest[i] = comm.max(samples[i]);
  out["assembly"] = {{"samples_s", slowest},
                     {"stats", summarize(slowest)},
                     {"includes",
                      "zero values + element work + scatter over every rank's own and ghost elements; each "
                      "sample the slowest rank's"}};

  const ordinal_t n_owned = C * part.owned;
  offset_t owned_nnz = 0;
  Kokkos::deep_copy(owned_nnz, Kokkos::subview(A.row_map, n_owned));
  const auto owned_range = Kokkos::make_pair(std::size_t(0), std::size_t(owned_nnz));
  const CsrGraph<Mem> owned{n_owned, Kokkos::subview(A.row_map, Kokkos::make_pair(0, n_owned + 1)),
                            Kokkos::subview(A.cols, owned_range)};
  const Kokkos::View<S*, Mem> owned_values = Kokkos::subview(values, owned_range);
  const std::int64_t nnz = comm.sum(std::int64_t(owned_nnz));
  out["nnz"] = nnz;
  out["dofs"] = std::int64_t(global_rows);

  // The owned rows go to rank 0 only where they are used: the oracle (none above bench.verify_limit),
  // --export-matrix, or read-outs that need the matrix (the capacitor's field energy). Rank 0 decides
  // for all.
  const bool gather =
      comm.max(std::int64_t(root && (!oracle.empty() || (!settings.export_matrix.empty() && req.exports) ||
                                     (req.solve && problem_of(settings).readouts_need_matrix)))) > 0;
  HostCsr<S> got;
  if (gather) {
    ScopedRegion r("kfem::verify");
    got = gather_matrix(comm, part, C, to_host(owned, owned_values), global_rows);
  }
  if (root) {
    out["verification"] = pipeline::verification(&got, oracle, false);
    if (!settings.export_matrix.empty() && req.exports)
      write_matrix_market(settings.export_matrix, got, false);
  }

  mine.held_elements = std::int64_t(part.elements.size());
  mine.own_elements = std::int64_t(part.own_elements);
  mine.owned_dofs = n_owned;
  mine.ghost_dofs = C * part.ghosts();
  mine.nnz = owned_nnz;
  mine.peers = std::int64_t(part.peers.size());
  mine.graph_s = setup["graph_s"].get<double>();
  mine.element_data_s = setup["element_data_s"].get<double>();
  mine.assembly_s = summarize(samples).median;
  std::string transport_name = "none (no solve)", sums_name = transport_name;
  if (req.solve) {
    ScopedRegion r("kfem::solve");
    const BoundarySetup bc = local_boundary(*req.boundary, part, C);
    const auto rhs = to_device_vector<S, Mem>(bc.rhs, "kfem::rhs");
    const auto fixed = to_device_vector<ordinal_t, Mem>(bc.fixed, "kfem::fixed");
    const auto fixed_values = to_device_vector<S, Mem>(bc.values, "kfem::fixed_values");
    mine.dirichlet_s = time_fenced(exec, [&] {
      apply_dirichlet(exec, A, values, rhs, Kokkos::View<const ordinal_t*, Mem>(fixed), fixed_values);
    });
    using parallel::Transport;
    const Transport halo_via = parallel::resolve_transport<Exec>(req.halo, "parallel.halo");
    // Sums: MPI unless asked. On two H200s one sum through NCCL took 30-38 us alone against MPI's
    // 16-28 us, and CG per iteration 2.060 against 1.990 ms on mesh4 split in two.
    const Transport sums_via = req.sums == Transport::automatic
                                   ? Transport::mpi
                                   : parallel::resolve_transport<Exec>(req.sums, "parallel.sums");
    std::optional<parallel::DeviceComm> nccl;
    comm.barrier();  // not the wait for a rank still checking the matrix
    const auto t0 = clock::now();
    if (halo_via == Transport::nccl || sums_via == Transport::nccl) nccl.emplace(comm);
    const parallel::Halo<Exec, S> halo(exec, comm, part, C, halo_via == Transport::nccl ? &*nccl : nullptr);
    // the communicator, and the halo's connections (its first exchange)
    if (nccl) out["setup"]["nccl_init_s"] = comm.max(since(t0));
    const ordinal_t local_cols = C * ordinal_t(part.nodes.size());
    const Kokkos::View<S*, Mem> x("kfem::u", n_owned);
    const Kokkos::View<const S*, Mem> b = Kokkos::subview(rhs, Kokkos::make_pair(ordinal_t(0), n_owned));
    const auto res = parallel::distributed_solve(
        exec, comm, halo, sums_via == Transport::nccl ? &*nccl : nullptr, owned, local_cols, owned_values, b,
        x, solver_options(settings, global.components));
    mine.cg_s = res.solve.seconds, mine.halo_s = res.halo_s;
    mine.halo_exchange_s = parallel::time_halo_exchange(exec, comm, halo, local_cols);
    mine.sum_s = parallel::time_sum(exec, comm, sums_via == Transport::nccl ? &*nccl : nullptr, x);
    mine.bytes_sent = double(halo.bytes_sent()), mine.bytes_received = double(halo.bytes_received());
    mine.staged = halo.staged();
    transport_name = halo.transport();
    sums_name = name_of(sums_via);
    const std::vector<double> u = gather_vector(comm, part, C, to_host_vector(x), global_rows);
    if (root) {
      const std::optional<HostCsr<double>> K = full_matrix(got, false);
      out["solve"] = solve_report(global, settings, req, res.solve, u, K ? &*K : nullptr);
      out["solve"]["dirichlet_s"] = comm.max(mine.dirichlet_s);
      out["solve"]["memory"] =
          csr_memory(global, nnz, global_rows, sizeof(S), assembler->index_bytes_per_element());
    } else {
      comm.max(mine.dirichlet_s);  // the same collectives on every rank
    }
  }

  const std::vector<RankFigures> all = comm.gather_values(mine, 0);
  if (!root) return out;
  json ranks = json::array();
  double sent = 0;
  for (std::size_t q = 0; q < all.size(); ++q) {
    const RankFigures& f = all[q];
    sent += f.bytes_sent;
    ranks.push_back({{"rank", q},
                     {"elements_held", f.held_elements},
                     {"elements_own", f.own_elements},
                     {"owned_dofs", f.owned_dofs},
                     {"ghost_dofs", f.ghost_dofs},
                     {"nnz", f.nnz},
                     {"peers", f.peers},
                     {"graph_s", f.graph_s},
                     {"element_data_s", f.element_data_s},
                     {"assembly_median_s", f.assembly_s},
                     {"dirichlet_s", f.dirichlet_s},
                     {"cg_s", f.cg_s},
                     {"halo_s", f.halo_s >= 0 ? json(f.halo_s) : json()},
                     {"halo_exchange_s", f.halo_exchange_s},
                     {"sum_s", f.sum_s},
                     {"halo_bytes_sent", f.bytes_sent},
                     {"halo_bytes_received", f.bytes_received},
                     {"halo_host_staged", f.staged != 0}});
  }
  out["distributed"] = {
      {"ranks", comm.size()},
      {"per_rank", ranks},
      {"imbalance",
       {{"assembly", max_over_mean(all, &RankFigures::assembly_s)},
        {"elements_held", max_over_mean(all, &RankFigures::held_elements)},
        {"owned_dofs", max_over_mean(all, &RankFigures::owned_dofs)},
        {"nnz", max_over_mean(all, &RankFigures::nnz)},
        {"definition", "max over ranks / mean over ranks"}}},
      {"halo_bytes_per_iteration", sent},
      {"halo_transport", transport_name},
      {"sums_transport", sums_name},
      {"sum_s", max_over_ranks(all, &RankFigures::sum_s)},
      {"halo_exchange_s", max_over_ranks(all, &RankFigures::halo_exchange_s)},
      {"redundant_elements",
       double(std::accumulate(all.begin(), all.end(), std::int64_t(0),
                              [](std::int64_t s, const RankFigures& f) { return s + f.held_elements; })) /
               double(global.mesh.num_elements()) -
           1.0}};
  return out;
}
}  // namespace

json distributed_point(const Model& model, const Settings& settings, const PointRequest& req,
                       const Oracle& oracle) {
  const parallel::Comm& comm = *req.comm;
  // Refused alike on every rank, before any collective: one clear line, no abort.
  check_distributed(req);
  if (req.solve && settings.preconditioner == Preconditioner::block_jacobi && model.components > 1)
    throw InputError("solver.preconditioner block-jacobi is not distributed: under mpirun use jacobi");
  if (req.solve && name_of(settings.solver) == solver::Amg::name)
    throw InputError("solver amg is not distributed yet: under mpirun use cg or cg-single-reduction");
  if (std::size_t(comm.size()) > model.mesh.num_elements())
    throw InputError(fmt::format("partition: {} ranks for {} elements: use fewer ranks", comm.size(),
                                 model.mesh.num_elements()));

  json out;
  const bool empty_rank = parallel::or_abort_all(comm, [&] {
    const auto t0 = clock::now();
    std::vector<int> part_of(model.mesh.num_elements());
    if (comm.rank() == 0) part_of = parallel::partition_elements(model.mesh, comm.size(), req.partition);
    comm.broadcast_bytes(part_of.data(), part_of.size() * sizeof(int), 0);
    const double partition_s = since(t0);
    const auto t1 = clock::now();
    parallel::LocalPart part =
        parallel::local_part(model.mesh, model.dofs, part_of, parallel::node_owners(model.dofs, part_of),
                             comm.rank(), comm.size());
    const double distribute_s = comm.max(since(t1));
    if (comm.max(std::int64_t(part.owned == 0)) > 0) return true;  // known to every rank alike
    const Model local{std::move(part.mesh), std::move(part.dofs), model.reference,
                      model.components,     model.info,           {}};
    with_point_types(local, req, [&](auto exec, auto s, auto family) {
      out = distributed<decltype(exec), decltype(s), decltype(family)>(exec, comm, model, local, part,
                                                                       settings, req, oracle);
    });
    out["setup"]["partition_s"] = partition_s;
    out["setup"]["partition"] = parallel::name_of(req.partition);
    out["setup"]["distribute_s"] = distribute_s;
    return false;
  });
  if (empty_rank)
    throw InputError(
        fmt::format("partition: a rank owns no DOF node ({} elements for {} ranks): use fewer ranks",
                    model.mesh.num_elements(), comm.size()));
  return out;
}
}  // namespace kfem::pipeline::detail

namespace kfem::pipeline {
void check_distributed(const PointRequest& req) {
  if (req.solve_with != SolveOperator::csr)
    throw InputError("solver.operator " + name_of(req.solve_with) +
                     " is not distributed: under mpirun use csr");
  if (!facts_of(req.storage).distributed)
    throw InputError("storage " + name_of(req.storage) + " is not distributed: under mpirun use storage csr" +
                     (req.storage == StorageKind::acoo        ? " (race colored, atomic or scatter)"
                      : req.storage == StorageKind::csr_lower ? " (a full-storage mapping)"
                      : facts_of(req.storage).blocks          ? ""
                                                              : " (solver.operator csr)"));
  with_backend(req.backend, [&](auto exec) {
    try {
      parallel::resolve_transport<decltype(exec)>(req.halo, "parallel.halo");
      parallel::resolve_transport<decltype(exec)>(req.sums, "parallel.sums");
    } catch (const std::runtime_error& e) {
      throw InputError(e.what());
    }
  });
}
}  // namespace kfem::pipeline
