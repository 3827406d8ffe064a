// The prism integration mappings (banas' REG/SHM x JAC/NOJAC and the GEMM formulation) on every enabled
// backend, on prisms and on tetrahedra (the same family, fe::Lagrange): every element matrix against the
// textbook oracle with the same quadrature, and the assembled CSR through every race handling and target
// against the global oracle. Orders 1..4 on host backends (the CI budget: a host team is one thread, so REG
// repeats the point loop N_sh^2 / 4 times), 1..7 on a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "assembly/fixture.hpp"
#include "backends.hpp"
#include "kfem/assembly/element_matrices.hpp"
#include "kfem/assembly/make_assembler.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/mesh/box.hpp"

namespace kfem::test {
namespace {
template <class Space>
class PrismIntegration : public ::testing::Test {};
TYPED_TEST_SUITE(PrismIntegration, ExecSpaces, SpaceName);

template <class S>
constexpr double tolerance() {
  return std::is_same<S, float>::value ? 1e-5 : 1e-12;
}

template <class Exec>
int max_order() {
  return lanes::in_turn<Exec> ? 4 : lagrange::max_order;
}

// The option variants of a mapping: as is, and with symmetric_blocks where it has the option;
// banas' four also with batches of 4 points (which the parameters never choose on a host backend:
// its one-thread team keeps the per-point loop; on a GPU they do for p <= 5).
template <class M>
std::vector<M> variants() {
  std::vector<M> v(1);
  if constexpr (MappingTraits<M>::has_symmetric_blocks) {
    v.emplace_back();
    v.back().symmetric_blocks = true;
    v.emplace_back();
    v.back().points = 4;
  }
  return v;
}
template <class M>
bool symmetric_blocks(const M& m) {
  if constexpr (MappingTraits<M>::has_symmetric_blocks) return m.symmetric_blocks;
  return false;
}
template <class M>
int points(const M& m) {
  if constexpr (MappingTraits<M>::has_symmetric_blocks) return m.points;
  return 0;
}

// Ke of every element by every prism mapping (and option variant) vs reference_lagrange_matrix;
// returns the variants run. With symmetric_blocks, Ke must also be exactly symmetric.
Mesh distorted_box(CellType cell, int p) {
  return cell == CellType::tet4 ? distorted_tet_box(p) : distorted_prism_box(p);
}

template <class Exec, class S>
int check_element_matrices(const Exec& exec, int p, CellType cell) {
  using Mem = typename Exec::memory_space;
  const Mesh mesh = distorted_box(cell, p);
  const DofMap dm = lagrange_dof_map(mesh, p);
  const Problem<Exec> prob = make_family_problem(exec, mesh, dm, 3);
  const auto ref = fe::to_device<fe::Lagrange, S>(exec, fe::host_reference(fe::Lagrange{}, cell, p));
  const fe::Elasticity<S> op{Isotropic<S>{S(steel().lambda), S(steel().mu)}};
  const lagrange::Basis& basis = lagrange::tabulate(cell, p);
  const ordinal_t ne = mesh.num_elements();
  const std::size_t n = 3 * std::size_t(basis.nsh);
  std::vector<std::vector<double>> want(ne);
  for (ordinal_t e = 0; e < ne; ++e) reference_lagrange_matrix(basis, cell_coords(mesh, e), steel(), want[e]);
  int run = 0;
  for_each_entry<PrismMappingRegistry>([&](auto mentry) {
    using M = typename decltype(mentry)::type;
    for (const M& mapping : variants<M>()) {
      SCOPED_TRACE(::testing::Message()
                   << M::name << " " << cell_name(cell) << " p=" << p << " symmetric_blocks "
                   << symmetric_blocks(mapping) << " points " << points(mapping));
      auto els = make_family_elements<fe::Lagrange, S, typename M::layout>(
          exec, prob.mesh.coords, prob.mesh.conn, prob.dofs, prob.natural, ref);
      if constexpr (MappingTraits<M>::host_geometry) prepare_host_jacobian(exec, els);
      Kokkos::View<S*, Mem> out("Ae", ne * n * n);
      Kokkos::deep_copy(out, S(-12345));  // poison: the mapping must write every entry (the adder stores)
      integrate_element_matrices(exec, mapping, els, op, 0, ne, out);
      exec.fence();
      const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
      double worst = 0;
      std::size_t asymmetric = 0;
      for (ordinal_t e = 0; e < ne; ++e) {
        double scale = 0;
        for (double v : want[e]) scale = std::max(scale, std::abs(v));
        for (std::size_t i = 0; i < n * n; ++i)
          worst = std::max(worst, std::abs(double(h(e * n * n + i)) - want[e][i]) / scale);
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t j = 0; j < i; ++j)
            asymmetric += h(e * n * n + i * n + j) != h(e * n * n + j * n + i);
      }
      EXPECT_LE(worst, tolerance<S>());
      if (symmetric_blocks(mapping)) {
        EXPECT_EQ(asymmetric, 0u);
      }
      ++run;
    }
  });
  return run;
}

// The global CSR through every race handling and target (orders 1 and 2).
template <class Exec, class S>
void check_assembled(const Exec& exec, int p, CellType cell) {
  const Mesh mesh = distorted_box(cell, p);
  const DofMap dm = lagrange_dof_map(mesh, p);
  Problem<Exec> prob = make_family_problem(exec, mesh, dm, 3);
  set_coloring(exec, prob, greedy_coloring(mesh));
  const auto ref = fe::to_device<fe::Lagrange, S>(exec, fe::host_reference(fe::Lagrange{}, cell, p));
  const fe::Elasticity<S> op{Isotropic<S>{S(steel().lambda), S(steel().mu)}};
  const HostCsr<double> oracle = assemble_reference_elasticity(mesh, dm, steel());
  Kokkos::View<S*, typename Exec::memory_space> values("values", prob.graph.dof.nnz());
  for_each_entry<PrismMappingRegistry>([&](auto mentry) {
    for_each_entry<RaceRegistry>([&](auto rentry) {
      for_each_entry<TargetRegistry>([&](auto tentry) {
        if (!pairs_with_kinds(mentry.kind, rentry.kind)) return;  // race none: owner computes only
        for (const bool sym : {false, true}) {
          if (sym && !has_symmetric_blocks_kind(mentry.kind)) continue;
          SCOPED_TRACE(::testing::Message()
                       << decltype(mentry)::type::name << " " << cell_name(cell) << " p=" << p << " race "
                       << int(rentry.kind) << " target " << int(tentry.kind) << " symmetric_blocks " << sym);
          const auto a = make_assembler<Exec, fe::Lagrange, S>(
              exec, prob, ref, op, AssemblerChoice{mentry.kind, rentry.kind, tentry.kind, 4, sym});
          Kokkos::deep_copy(values, S(-12345));
          a->assemble(values);
          exec.fence();
          const MatrixDiff d = compare(kfem::to_host(prob.graph.dof, values), oracle);
          EXPECT_TRUE(d.same_pattern);
          EXPECT_LE(d.max_rel, tolerance<S>());
        }
      });
    });
  });
}

constexpr int prism_mappings = std::tuple_size_v<PrismMappingRegistry>;
// Mappings with symmetric_blocks (banas' four) run three times.
constexpr int prism_variants = prism_mappings + 2 * 4;

constexpr CellType kCells[] = {CellType::prism6, CellType::tet4};

TYPED_TEST(PrismIntegration, ElementMatricesDouble) {
  for (const CellType cell : kCells)
    for (int p = 1; p <= max_order<TypeParam>(); ++p)
      EXPECT_EQ(prism_variants, (check_element_matrices<TypeParam, double>(TypeParam(), p, cell)));
}
TYPED_TEST(PrismIntegration, ElementMatricesFloat) {
  for (const CellType cell : kCells)
    for (int p = 1; p <= max_order<TypeParam>(); ++p)
      EXPECT_EQ(prism_variants, (check_element_matrices<TypeParam, float>(TypeParam(), p, cell)));
}
TYPED_TEST(PrismIntegration, AssembledDouble) {
  for (const CellType cell : kCells)
    for (int p = 1; p <= 2; ++p) check_assembled<TypeParam, double>(TypeParam(), p, cell);
}
TYPED_TEST(PrismIntegration, AssembledFloat) {
  for (const CellType cell : kCells)
    for (int p = 1; p <= 2; ++p) check_assembled<TypeParam, float>(TypeParam(), p, cell);
}

TEST(PrismIntegrationRegistry, ServesPrismsOnly) {
  EXPECT_EQ(5, prism_mappings);
  EXPECT_TRUE(serves<fe::Lagrange>(MappingKind::shm_jac));
  EXPECT_FALSE(serves<fe::Hex8>(MappingKind::reg_nojac));
  EXPECT_FALSE(serves<fe::Tri3>(MappingKind::reg_jac));
  EXPECT_TRUE(has_symmetric_blocks_kind(MappingKind::reg_nojac));
  EXPECT_FALSE(has_symmetric_blocks_kind(MappingKind::gemm));  // symmetric by construction
}

// Points per batch on a host backend: none (the per-point loop) unless `points` asks for batches;
// those hold at most nq points, NOJAC's too (min_batch rules only the parameters' own choice).
TEST(PrismIntegrationRegistry, PointsPerBatch) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  using Nojac = mapping::BanasBlocks<mapping::Accumulate::registers, mapping::Jacobian::host>;
  using Jac = mapping::BanasBlocks<mapping::Accumulate::shared, mapping::Jacobian::device>;
  const auto points = [](const mapping::BanasParameters& k) { return k.batched ? k.points : -k.points; };
  EXPECT_EQ(-1, points(Nojac::parameters<Host, double, 3>(18, 21, 6, 100, 1)));
  EXPECT_EQ(-1, points(Jac::parameters<Host, double, 3>(18, 21, 6, 100, 1, true)));
  EXPECT_EQ(4, points(Nojac::parameters<Host, double, 3>(18, 21, 6, 100, 1, false, 4)));
  EXPECT_EQ(2, points(Nojac::parameters<Host, double, 3>(18, 2, 6, 100, 1, false, 4)));
  EXPECT_EQ(-1, points(Jac::parameters<Host, double, 3>(18, 21, 6, 100, 1, true, 1)));
  // The per-point loop needs one buffer and no second copy of w det J.
  EXPECT_EQ(6 * 3 + 10 + 18 * 3, (Nojac::batch_scalars<3>(18, 6, 1, false)));
  EXPECT_EQ(6 * 3 + 2 * 4 * (11 + 18 * 3), (Nojac::batch_scalars<3>(18, 6, 4, true)));
}

// The lower-triangle block numbering covers every b <= a once, in order.
TEST(PrismIntegrationRegistry, SymmetricBlockNumbering) {
  using M = mapping::BanasBlocks<mapping::Accumulate::shared, mapping::Jacobian::device>;
  for (const int n : {1, 2, 6, 18, 288}) {
    long blk = 0;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b <= a; ++b, ++blk) {
        int ga = -1, gb = -1;
        M::block_of(blk, n, true, ga, gb);
        ASSERT_EQ(ga, a) << "n " << n << " block " << blk;
        ASSERT_EQ(gb, b) << "n " << n << " block " << blk;
      }
    EXPECT_EQ(blk, M::block_count(n, true));
  }
}
}  // namespace
}  // namespace kfem::test
