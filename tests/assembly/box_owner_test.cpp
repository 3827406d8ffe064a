// Mapping box-owner (hex8_box_owner.hpp) and the grid it reads (mesh/box_grid.hpp): the grid found
// behind a renumbered, shuffled box; other meshes refused with the reason; the values equal to the
// oracle and bitwise the same for every tile and z range (each value's adds run in one order).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>

#include "assembly/fixture.hpp"
#include "backends.hpp"
#include "kfem/assembly/assembler.hpp"
#include "kfem/assembly/mapping/hex8_box_owner.hpp"
#include "kfem/fe/hex8.hpp"
#include "kfem/mesh/box_grid.hpp"
#include "kfem/mesh/box_grid_device.hpp"

namespace kfem::test {
namespace {
TEST(BoxGrid, FindsTheCellsAndPointsOfARenumberedShuffledBox) {
  const Mesh mesh = distorted_beam(5, 3, 2);
  const BoxGrid g = box_grid(mesh);
  ASSERT_EQ(g.nx, 5);
  ASSERT_EQ(g.ny, 3);
  ASSERT_EQ(g.nz, 2);
  std::vector<int> seen(mesh.num_elements(), 0);
  for (ordinal_t k = 0; k < g.nz; ++k)
    for (ordinal_t j = 0; j < g.ny; ++j)
      for (ordinal_t i = 0; i < g.nx; ++i) {
        const ordinal_t e = g.element[i + g.nx * (j + g.ny * k)];
        ++seen[e];
        for (int a = 0; a < 8; ++a) {
          const int di = hex8::corner(a, 0), dj = hex8::corner(a, 1), dk = hex8::corner(a, 2);
          EXPECT_EQ(mesh.elements[e][a], g.node[(i + di) + (g.nx + 1) * ((j + dj) + (g.ny + 1) * (k + dk))]);
        }
      }
  for (int s : seen) EXPECT_EQ(s, 1);
}

TEST(BoxGrid, RefusesMeshesThatAreNotABox) {
  Mesh missing = make_box(BoxSpec{3, 2, 2, 3.0, 2.0, 2.0});
  missing.elements.erase(missing.elements.begin() + 4);  // a hole: 11 cells
  EXPECT_THROW(box_grid(missing), InputError);
  Mesh turned = make_box(BoxSpec{3, 2, 2, 3.0, 2.0, 2.0});
  auto& el = turned.elements[7];  // one cell turned about z: its corners no longer match the grid
  el = {el[1], el[2], el[3], el[0], el[5], el[6], el[7], el[4]};
  EXPECT_THROW(box_grid(turned), InputError);
  EXPECT_THROW(box_grid(make_prism_box(BoxSpec{2, 2, 2, 1.0, 1.0, 1.0})), InputError);
  try {
    box_grid(missing);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a structured box mesh"), std::string::npos) << e.what();
  }
}

template <class Space>
class BoxOwner : public ::testing::Test {};
TYPED_TEST_SUITE(BoxOwner, ExecSpaces, SpaceName);

// The grid found on the execution space equals the host walk's, without asking for the host mesh;
// a mesh that is not a box gets the host walk's InputError. `fell_back`: the host mesh was asked for.
template <class Exec>
BoxGrid grid_on(const Exec& exec, const Mesh& mesh, bool& fell_back) {
  const auto d = to_device(exec, mesh);
  fell_back = false;
  const auto g = box_grid(exec, d.conn, d.num_nodes, [&] {
    fell_back = true;
    return mesh;
  });
  BoxGrid h{g.nx, g.ny, g.nz, {}, {}};
  const auto cells = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.element);
  const auto points = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.node);
  h.element.assign(cells.data(), cells.data() + cells.extent(0));
  h.node.assign(points.data(), points.data() + points.extent(0));
  return h;
}
TYPED_TEST(BoxOwner, FindsTheHostWalksGridOnTheSpace) {
  const TypeParam exec;
  for (const Mesh& mesh : {distorted_beam(5, 3, 2), distorted_beam(1, 1, 1), distorted_beam(7, 1, 4)}) {
    bool fell_back = true;
    const BoxGrid want = box_grid(mesh), got = grid_on(exec, mesh, fell_back);
    EXPECT_FALSE(fell_back);
    EXPECT_EQ(got.nx, want.nx);
    EXPECT_EQ(got.ny, want.ny);
    EXPECT_EQ(got.nz, want.nz);
    EXPECT_EQ(got.element, want.element);
    EXPECT_EQ(got.node, want.node);
  }
}
TYPED_TEST(BoxOwner, GridOnTheSpaceRefusesWhatTheHostWalkRefuses) {
  const TypeParam exec;
  Mesh missing = make_box(BoxSpec{3, 2, 2, 3.0, 2.0, 2.0});
  missing.elements.erase(missing.elements.begin() + 4);
  Mesh turned = make_box(BoxSpec{3, 2, 2, 3.0, 2.0, 2.0});
  auto& el = turned.elements[7];
  el = {el[1], el[2], el[3], el[0], el[5], el[6], el[7], el[4]};
  Mesh twice = make_box(BoxSpec{3, 2, 2, 3.0, 2.0, 2.0});  // one element listed twice, one missing
  twice.elements[5] = twice.elements[6];
  Mesh ring = make_box(BoxSpec{4, 1, 1, 4.0, 1.0, 1.0});  // the last cell's x neighbour is the first: a cycle
  const ordinal_t back[4][2] = {{1, 0}, {2, 3}, {6, 7}, {5, 4}};  // its +x face is element 0's -x face
  for (const auto& b : back) ring.elements[3][b[0]] = ring.elements[0][b[1]];
  for (const Mesh* m : {&missing, &turned, &twice, &ring}) {
    std::string host, device;
    bool fell_back = false;
    try {
      box_grid(*m);
    } catch (const InputError& e) {
      host = e.what();
    }
    try {
      grid_on(exec, *m, fell_back);
    } catch (const InputError& e) {
      device = e.what();
    }
    EXPECT_TRUE(fell_back);  // the space's passes saw the fault themselves
    EXPECT_FALSE(host.empty());
    EXPECT_EQ(device, host);
  }
}

template <class Exec, class S, bool Lower>
void check_tiles(const Exec& exec) {
  const Mesh mesh = distorted_beam(5, 4, 5);
  const HostCsr<double> ref = assemble_reference_hex8(mesh, steel());
  const Problem<Exec> p = make_problem(exec, mesh);
  const Isotropic<S> m{S(steel().lambda), S(steel().mu)};
  Kokkos::View<S*, typename Exec::memory_space> values("values", Lower ? p.lower.nnz() : p.graph.dof.nnz());
  std::vector<S> first;
  // Tiles past the 6 x 5 node columns leave teams empty; {0, 0} is the default (7 x 3 where it
  // fits: host backends, and CUDA where the kernel may opt in to Hopper's shared memory).
  using BO = mapping::Hex8BoxOwner<Lower>;
  const mapping::BoxTile chosen = BO{}.template tile_for<S>(exec);
  EXPECT_TRUE((chosen.x == 7 && chosen.y == 3) || (chosen.x == 3 && chosen.y == 3));
  if (lanes::in_turn<Exec>) {
    EXPECT_EQ(chosen.x, 7);
  }
  for (const mapping::BoxTile tile :
       {mapping::BoxTile{1, 1}, {2, 2}, {3, 3}, {5, 5}, {7, 7}, {7, 3}, {2, 5}, {0, 0}})
    for (int planes : {1, 2, 32}) {
      if (tile.x > 0 && BO::template team_bytes<S, Exec>(tile) > BO::scratch_limit(exec)) continue;
      SCOPED_TRACE(::testing::Message() << "tile " << tile.x << " x " << tile.y << " planes " << planes);
      BO bo;
      bo.tile = tile, bo.planes = planes;
      OwnerAssembler<Exec, fe::Elasticity<S>, BO, S> a(exec, p, {m}, bo);
      EXPECT_EQ(a.lower(), Lower);
      expect_owner_values(exec, p, a, values, Lower ? lower_part(ref) : ref, first);
    }
}
TYPED_TEST(BoxOwner, EveryTileAndRangeMatchesTheOracleBitwiseAlike) {
  check_tiles<TypeParam, double, false>(TypeParam());
  check_tiles<TypeParam, float, false>(TypeParam());
}
// symbox-owner: the same tiles writing the lower triangle into lower-triangular storage.
TYPED_TEST(BoxOwner, LowerStorageMatchesTheOraclesLowerTriangle) {
  check_tiles<TypeParam, double, true>(TypeParam());
  check_tiles<TypeParam, float, true>(TypeParam());
}

TYPED_TEST(BoxOwner, RefusesANonBoxMeshByName) {
  using Exec = TypeParam;
  Mesh mesh = make_box(BoxSpec{3, 2, 2, 3.0, 2.0, 2.0});
  mesh.elements.pop_back();
  const Problem<Exec> p = make_problem(Exec(), mesh);
  try {
    OwnerAssembler<Exec, fe::Elasticity<double>, mapping::Hex8BoxOwner<false>, double> a(Exec(), p,
                                                                                         {steel()});
    ADD_FAILURE() << "a mesh with a missing cell was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("mapping box-owner: not a structured box mesh"), std::string::npos)
        << e.what();
  }
}
// The lane helpers' GPU forms against their plain ones, on exec: lanes::small_quotient (a float
// quotient on a GPU) for every n, d < 1024, and monomial_coefficients (a butterfly of lane exchanges
// on a GPU) against hex8::monomial_coefficient for 64 random elements. Returns the mismatches and
// the largest difference.
template <class Exec>
std::pair<int, double> lane_helper_errors(const Exec& exec) {
  int bad = 0;
  Kokkos::parallel_reduce(
      "kfem::test::small_quotient", Kokkos::RangePolicy<Exec>(exec, 0, 1024 * 1023),
      KOKKOS_LAMBDA(int i, int& b) {
        const int n = i % 1024, d = 1 + i / 1024;
        if (lanes::small_quotient(n, d) != n / d) ++b;
      },
      bad);
  constexpr int ne = 64;
  Kokkos::View<double* [24], Kokkos::LayoutRight, Kokkos::HostSpace> x("x", ne);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int e = 0; e < ne; ++e)
    for (int k = 0; k < 24; ++k) x(e, k) = u(rng);
  using Mem = typename Exec::memory_space;
  const auto X = Kokkos::create_mirror_view_and_copy(Mem(), x);
  Kokkos::View<double* [24], Kokkos::LayoutRight, Mem> C("C", ne);
  using Policy = Kokkos::TeamPolicy<Exec>;
  Kokkos::parallel_for(
      "kfem::test::monomials",
      Policy(exec, ne, 1, lanes::vector_length<Exec>())
          .set_scratch_size(0, Kokkos::PerTeam(24 * sizeof(double))),
      KOKKOS_LAMBDA(const typename Policy::member_type& t) {
        const int e = t.league_rank();
        double* const c = static_cast<double*>(t.team_scratch(0).get_shmem(24 * sizeof(double)));
        mapping::monomial_coefficients(t, &X(e, 0), c);
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, 24), [&](int k) { C(e, k) = c[k]; });
      });
  const auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
  double worst = 0;
  for (int e = 0; e < ne; ++e)
    for (int k = 3; k < 24; ++k)  // c_0 (k < 3) is not used by the Jacobian
      worst = std::max(worst, std::abs(c(e, k) - hex8::monomial_coefficient<double>(&x(e, 0), k / 3, k % 3)));
  return {bad, worst};
}

TYPED_TEST(BoxOwner, LaneHelpersEqualTheirPlainForms) {
  const auto [bad, worst] = lane_helper_errors(TypeParam());
  EXPECT_EQ(bad, 0);
  EXPECT_LT(worst, 1e-15);  // sums of 8 values of size 1: a few roundings
}

}  // namespace
}  // namespace kfem::test
