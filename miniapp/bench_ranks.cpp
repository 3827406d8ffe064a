#include "bench_ranks.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "kfem/core/error.hpp"
#include "kfem/parallel/abort.hpp"
#include "kfem/parallel/comm.hpp"
#include "kfem/report/context.hpp"
#include "points.hpp"

namespace kfem::app {
using nlohmann::json;

std::vector<int> rank_counts(const std::vector<int>& asked, int launched) {
  std::vector<int> out;
  if (asked.empty()) {
    for (int k = 1; k < launched; k *= 2) out.push_back(k);
    out.push_back(launched);
  } else {
    for (const int k : asked)
      if (k <= launched) out.push_back(k);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

MeshSpec stretched(const MeshSpec& base, int k) {
  if (!base.box)
    throw InputError("mesh '" + base.name + "': a scaled sweep needs a box (NXxNYxNZ, mesh1..mesh4)");
  BoxSpec b = *base.box;
  b.nx *= k, b.lx *= k;
  const std::string prefix = base.cell == CellType::prism6 ? "prism:" : "";
  MeshSpec out = parse_mesh_name(fmt::format("{}{}x{}x{}", prefix, b.nx, b.ny, b.nz));  // its range checks
  out.box = b;
  return out;
}

MeshSpec beam_of(long n) {
  const auto ny = std::max<long>(1, std::lround(std::cbrt(double(n) / 8.0)));
  const long nx = std::max<long>(1, std::lround(double(n) / double(ny * ny)));
  MeshSpec out = parse_mesh_name(fmt::format("{}x{}x{}", nx, ny, ny));
  out.box->lx = 2.0 * double(nx) / double(ny), out.box->ly = out.box->lz = 2.0;
  return out;
}

void check_strategies(const Deck& deck, const MeshSpec& spec, const std::vector<Strategy>& strategies) {
  MeshSpec tiny = spec;  // the names depend on the family only
  tiny.box = BoxSpec{1, 1, 1};
  const Model model = model_of(tiny, deck);
  for (const Strategy& s : strategies) check_distributed(request(deck, model, s.mapping, s.race, s.scalar));
}

json point_on_ranks(const parallel::Comm& world, int k, const MeshSpec& spec, const Deck& deck,
                    const Strategy& strategy, bool solve) {
  json out;
  if (const std::optional<parallel::Comm> part = world.first_ranks(k)) {
    out = or_abort_all(world, [&] {  // world: a failure on rank 0 alone must not leave the idle ranks waiting
      const Model model = model_of(spec, deck);
      PointRequest req = request(deck, model, strategy.mapping, strategy.race, strategy.scalar);
      req.comm = &*part;
      req.partition = partition_method(deck, spec);
      req.halo = transport_of(strategy.halo.empty() ? deck.halos.front() : strategy.halo);
      req.sums = transport_of(deck.sums);
      std::optional<BoundarySetup> boundary;
      if (solve) req.boundary = &boundary.emplace(boundary_setup(model, deck));
      req.solve = solve;
      const Oracle oracle = part->rank() == 0 ? oracle_of(model, deck) : Oracle{};
      json res = point_of(model, deck, req, oracle);
      if (part->rank() != 0) return json();
      res["mesh"] = model.info;
      res["ranks"] = k;
      return res;
    });
  }
  world.wait_idle();
  return out;
}

json results_header(const parallel::Comm& world, const Deck& deck, const std::string& kind) {
  const json ctx = run_context(world.rank() == 0);
  json mine = {{"host", parallel::host_name()},
               {"host_threads", ctx["kokkos"]["host_concurrency"]},
               {"device", ctx["device"].is_object() ? ctx["device"] : json()}};
  const std::string text = mine.dump();
  const auto all = world.gather(std::vector<char>(text.begin(), text.end()), 0);
  if (world.rank() != 0) return json();
  json ranks = json::array();
  for (std::size_t q = 0; q < all.size(); ++q) {
    json r = json::parse(std::string(all[q].begin(), all[q].end()));
    r["rank"] = q;
    ranks.push_back(r);
  }
  return {{"kfem_results", 1}, {"kind", kind},   {"deck", deck.source},
          {"context", ctx},    {"ranks", ranks}, {"points", json::array()}};
}
}  // namespace kfem::app
