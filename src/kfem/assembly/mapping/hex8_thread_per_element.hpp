// Work mapping `element`: one thread per element (kiran §3.4, the baseline). The thread keeps the
// whole 24x24 Ke in thread-local storage (local memory on a GPU) and scatters it at the end.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/core/types.hpp"
#include "kfem/fe/elasticity.hpp"

namespace kfem::mapping {
struct Hex8Element {
  using layout = Kokkos::LayoutLeft;  // consecutive threads read consecutive elements
  static constexpr const char* name = "element";
  static constexpr const char* help = "a thread per element, Ke in thread-local memory (kiran's baseline)";

  // tour: element-kernel
  template <class Exec, class Data, class Op, class Adder>
  void launch(const Exec& exec, const Data& d, const Op& op, ordinal_t begin, ordinal_t end,
              const Adder& add) const {
    using S = typename Data::scalar_type;
    const Isotropic<S> m = op.material;
    Kokkos::parallel_for(
        "kfem::assemble[element]", Kokkos::RangePolicy<Exec>(exec, begin, end), KOKKOS_LAMBDA(ordinal_t e) {
          S X[8][3];
          for (int a = 0; a < 8; ++a)
            for (int j = 0; j < 3; ++j) X[a][j] = d.coords(e, 3 * a + j);
          S Ke[8][8][3][3] = {};
          for (int q = 0; q < hex8::num_qp; ++q) {
            S J[3][3], Jinv[3][3], g[8][3];
            hex8::jacobian<S>(X, q, J);
            const S det = hex8::invert3<S>(J, Jinv);
            for (int a = 0; a < 8; ++a) hex8::gradient<S>(Jinv, q, a, g[a]);
            for (int a = 0; a < 8; ++a)
              for (int b = 0; b < 8; ++b) elasticity::add_block(m, det, g[a], g[b], Ke[a][b]);
          }
          const auto acc = add.access();
          for (int a = 0; a < 8; ++a)
            for (int b = 0; b < 8; ++b)
              for (int c = 0; c < 3; ++c)
                for (int k = 0; k < 3; ++k) acc(d.slot(e, 3 * a + c, 3 * b + k), Ke[a][b][c][k]);
        });
  }
  // tour: end element-kernel
};
}  // namespace kfem::mapping
