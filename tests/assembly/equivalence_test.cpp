// Every hex8 fast path (work mapping x race handling x scalar) of the registry, on every enabled
// backend, against the serial double oracle on a distorted, renumbered, shuffled mesh. The generic
// mappings are checked on every family by family_equivalence_test.cpp.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "assembly/fixture.hpp"
#include "backends.hpp"
#include "kfem/assembly/make_assembler.hpp"
#include "kfem/sparsity/bsr.hpp"

namespace kfem::test {
namespace {
template <class Space>
class Equivalence : public ::testing::Test {};
TYPED_TEST_SUITE(Equivalence, ExecSpaces, SpaceName);

template <class S>
constexpr double tolerance() {
  return std::is_same<S, float>::value ? 1e-5 : 1e-12;
}

template <class Exec, class S>
void check_all(const Exec& exec) {
  const Mesh mesh = distorted_beam();
  const HostCsr<double> ref = assemble_reference_hex8(mesh, steel());
  const HostCsr<double> ref_lower = lower_part(ref);
  Problem<Exec> p = make_problem(exec, mesh);
  set_coloring(exec, p, greedy_coloring(mesh));
  const fe::Elasticity<S> op{Isotropic<S>{S(steel().lambda), S(steel().mu)}};
  const auto href = fe::to_device<fe::Hex8, S>(exec, fe::host_reference(fe::Hex8{}));  // unused by fast paths
  Kokkos::View<S*, typename Exec::memory_space> full("values", p.graph.dof.nnz()),
      lower("lower", p.lower.nnz());
  int combinations = 0, fast_paths = 0;
  for_each_entry<FastPathRegistry>([&](auto mentry) {
    {
      ++fast_paths;
      for_each_entry<RaceRegistry>([&](auto rentry) {
        using R = typename decltype(rentry)::type;
        SCOPED_TRACE(::testing::Message() << "mapping " << int(mentry.kind) << " race " << int(rentry.kind));
        if (!pairs_with_kinds(mentry.kind, rentry.kind)) {  // owner x a race handling, element x none
          const AssemblerChoice mismatched{mentry.kind, rentry.kind};
          EXPECT_THROW((make_assembler<Exec, fe::Hex8, S>(exec, p, href, op, mismatched)), InputError);
          return;
        }
        // through the registry lookup the driver uses (kernels compiled once, make_assembler_hex8_*.cpp)
        const auto made =
            make_assembler<Exec, fe::Hex8, S>(exec, p, href, op, AssemblerChoice{mentry.kind, rentry.kind});
        AssemblerBase<Exec, S>& a = *made;
        const auto& values = a.lower() ? lower : full;  // symmetric mappings fill the lower triangle
        Kokkos::deep_copy(values, S(-12345));           // poison: assemble must zero what it owns
        a.assemble(values);
        exec.fence();
        const HostCsr<S> got = to_host(p, values, a.lower());
        const MatrixDiff d = compare(got, a.lower() ? ref_lower : ref);
        EXPECT_TRUE(d.same_pattern);
        EXPECT_LE(d.max_rel, tolerance<S>());
        if (R::needs_coloring ||
            single_writer<R>::value) {  // coloured and owner-computes: bitwise reproducible
          a.assemble(values);
          exec.fence();
          const HostCsr<S> again = to_host(p, values, a.lower());
          EXPECT_EQ(0, std::memcmp(got.vals.data(), again.vals.data(), sizeof(S) * got.vals.size()));
        }
        ++combinations;
      });
    }
  });
  EXPECT_EQ(fast_paths, 20);
  // 16 element-centric mappings x (colored, atomic, scatter) + owner, batch-owner, box-owner,
  // symbox-owner x none
  EXPECT_EQ(combinations, 16 * 3 + 4);
}

// The elements in Morton order (set_launch_order): every element-centric fast path with atomics
// still matches the oracle, and its element data follow that order.
template <class Exec>
void check_launch_order(const Exec& exec) {
  const Mesh mesh = distorted_beam();
  const HostCsr<double> ref = assemble_reference_hex8(mesh, steel());
  Problem<Exec> p = make_problem(exec, mesh);
  EXPECT_THROW(set_launch_order(exec, p, std::vector<ordinal_t>(3, 0)), std::invalid_argument);
  const std::vector<ordinal_t> morton = morton_order(mesh);
  set_launch_order(exec, p, morton);
  const fe::Elasticity<double> op{Isotropic<double>{steel().lambda, steel().mu}};
  const auto href = fe::to_device<fe::Hex8, double>(exec, fe::host_reference(fe::Hex8{}));
  const HostCsr<double> ref_lower = lower_part(ref);
  Kokkos::View<double*, typename Exec::memory_space> full("values", p.graph.dof.nnz()),
      lower("lower", p.lower.nnz());
  int checked = 0;
  for_each_entry<FastPathRegistry>([&](auto mentry) {
    if (!pairs_with_kinds(mentry.kind, RaceKind::atomic)) return;  // owner computes: no launch order
    SCOPED_TRACE(::testing::Message() << "mapping " << int(mentry.kind));
    const auto a = make_assembler<Exec, fe::Hex8, double>(exec, p, href, op,
                                                          AssemblerChoice{mentry.kind, RaceKind::atomic});
    const auto& v = a->lower() ? lower : full;
    Kokkos::deep_copy(v, -12345.0);
    a->assemble(v);
    exec.fence();
    EXPECT_LE(compare(to_host(p, v, a->lower()), a->lower() ? ref_lower : ref).max_rel, 1e-12);
    ++checked;
  });
  EXPECT_EQ(checked, 16);  // the element-centric fast paths
  const ElementAssembler<Exec, fe::Hex8, fe::Elasticity<double>, mapping::Hex8Pairs<false>, race::Atomic,
                         inputs::Hex8, double>
      pairs(exec, p, href, op);
  const auto nodes = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pairs.inputs().nodes);
  bool moved = false;
  for (std::size_t i = 0; i < morton.size(); ++i) {
    moved |= morton[i] != ordinal_t(i);
    for (int a = 0; a < 8; ++a) ASSERT_EQ(nodes(i, a), mesh.elements[morton[i]][a]) << "position " << i;
  }
  EXPECT_TRUE(moved);  // the test mesh's Morton order is not its natural one
}

// Block storage (storage bsr, and bsr-lower for the lower mappings that write it): every hex8 fast
// path that writes blocks (the element-centric full-storage ones, sympairs, box-owner, symbox-owner) x
// every race it pairs with, the blocks expanded into the DOF pattern's CSR values (or its lower
// triangle) entry by entry against the oracle; the others refuse blocks in one line. The generic mappings'
// blocks are checked on every family by family_equivalence_test.cpp.
template <class Exec, class S>
void check_blocks(const Exec& exec) {
  using Mem = typename Exec::memory_space;
  const Mesh mesh = distorted_beam();
  const HostCsr<double> ref = assemble_reference_hex8(mesh, steel());
  Problem<Exec> p = make_problem(exec, mesh);
  p.node_lower = lower_triangle(exec, p.graph.node);
  set_coloring(exec, p, greedy_coloring(mesh));
  const fe::Elasticity<S> op{Isotropic<S>{S(steel().lambda), S(steel().mu)}};
  const auto href = fe::to_device<fe::Hex8, S>(exec, fe::host_reference(fe::Hex8{}));
  const int C = p.graph.components;
  ASSERT_EQ(C, 3);
  Kokkos::View<S*, Mem> blocks("blocks", p.graph.node.nnz() * C * C), full("full", p.graph.dof.nnz());
  int written = 0, refused = 0;
  for_each_entry<FastPathRegistry>([&](auto mentry) {
    using M = typename decltype(mentry)::type;
    for_each_entry<RaceRegistry>([&](auto rentry) {
      if (!pairs_with_kinds(mentry.kind, rentry.kind)) return;
      SCOPED_TRACE(::testing::Message() << "mapping " << M::name << " race " << decltype(rentry)::name());
      AssemblerChoice choice{mentry.kind, rentry.kind};
      choice.blocks = true;
      constexpr bool lower = MappingTraits<M>::lower;
      if (!MappingTraits<M>::writes_blocks) {
        EXPECT_THROW((make_assembler<Exec, fe::Hex8, S>(exec, p, href, op, choice)), InputError);
        ++refused;
        return;
      }
      const auto a = make_assembler<Exec, fe::Hex8, S>(exec, p, href, op, choice);
      ASSERT_EQ(a->lower(), lower);
      Kokkos::deep_copy(blocks, S(-12345));  // poison: assemble must zero every block
      a->assemble(blocks);
      Kokkos::deep_copy(full, std::numeric_limits<S>::quiet_NaN());
      expand_blocks<Exec, S>(exec, p.block_pattern(lower), lower ? p.lower : p.graph.dof, C, blocks, full,
                             lower);
      exec.fence();
      const MatrixDiff d = compare(to_host(p, full, lower), lower ? lower_part(ref) : ref);
      EXPECT_TRUE(d.same_pattern);
      EXPECT_LE(d.max_rel, tolerance<S>());
      ++written;
    });
  });
  // 16 element-centric fast paths (4 of them lower: sym300, sym300x2, sympairs, sympairs-mma; sympairs
  // writes lower blocks) x 3 races; owner, batch-owner, box-owner, symbox-owner x none (box-owner and
  // symbox-owner write blocks)
  EXPECT_EQ(written, 13 * 3 + 2);
  EXPECT_EQ(refused, 3 * 3 + 2);
}

TYPED_TEST(Equivalence, BlockStorageMatchesOracle) {
  check_blocks<TypeParam, double>(TypeParam());
  check_blocks<TypeParam, float>(TypeParam());
}

TYPED_TEST(Equivalence, MortonLaunchOrderMatchesOracle) {
  check_launch_order(TypeParam());
}
TYPED_TEST(Equivalence, DoubleMatchesOracle) {
  check_all<TypeParam, double>(TypeParam());
}
TYPED_TEST(Equivalence, FloatMatchesOracle) {
  check_all<TypeParam, float>(TypeParam());
}
}  // namespace
}  // namespace kfem::test
