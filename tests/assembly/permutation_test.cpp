// Renumbering the nodes permutes the matrix and changes nothing else: K'(3p(n)+c, 3p(m)+d) equals
// K(3n+c, 3m+d) to the last bit for random and RCM orders (the oracle's sums run in the same order).
#include <gtest/gtest.h>

#include <map>

#include "assembly/fixture.hpp"

namespace kfem::test {
namespace {
std::map<std::pair<ordinal_t, ordinal_t>, double> entries(const HostCsr<double>& A) {
  std::map<std::pair<ordinal_t, ordinal_t>, double> m;
  for (ordinal_t i = 0; i < A.num_rows; ++i)
    for (offset_t k = A.row_map[i]; k < A.row_map[i + 1]; ++k) m[{i, A.cols[k]}] = A.vals[k];
  return m;
}

TEST(Renumbering, PermutesTheMatrixOnly) {
  Mesh mesh = make_box(BoxSpec{4, 3, 2, 4.0, 2.0, 1.5});
  distort(mesh, 0.15, 5);
  const auto K = entries(assemble_reference_hex8(mesh, steel()));
  for (Renumbering r : {Renumbering::random, Renumbering::rcm}) {
    const std::vector<ordinal_t> p = node_permutation(mesh, r, 9);
    const auto Kp = entries(assemble_reference_hex8(renumber_nodes(mesh, p), steel()));
    ASSERT_EQ(K.size(), Kp.size());
    for (const auto& [ij, v] : K) {
      const ordinal_t i = 3 * p[ij.first / 3] + ij.first % 3, j = 3 * p[ij.second / 3] + ij.second % 3;
      const auto it = Kp.find({i, j});
      ASSERT_NE(it, Kp.end()) << "entry (" << ij.first << ", " << ij.second << ") lost";
      EXPECT_EQ(it->second, v) << "entry (" << ij.first << ", " << ij.second << ")";
    }
  }
}
}  // namespace
}  // namespace kfem::test
