// Work mapping `sym300` (sanfui): only the 300 entries of Ke's lower triangle are computed, one
// thread each, and assembled into lower-triangular CSR storage. Thread k finds its entry (m, n),
// n <= m, from k alone: m = floor((sqrt(8k + 1) - 1) / 2), n = k - m(m+1)/2 (sanfui eqs. 1-2).
// ElementsPerTeam > 1 packs several elements into one block: 300 threads are 9 warps and 12 lanes
// of a tenth (20 lanes idle); 600 threads are 18 warps and 24 lanes of a 19th (8 idle).
#pragma once
#include "kfem/assembly/mapping/hex8_warp_common.hpp"

namespace kfem::mapping {
template <int ElementsPerTeam = 1>
struct Hex8Sym300 {
  using layout = Kokkos::LayoutRight;
  static constexpr const char* name = ElementsPerTeam == 1 ? "sym300" : "sym300x2";
  static_assert(ElementsPerTeam == 1 || ElementsPerTeam == 2, "a new ElementsPerTeam needs its name");
  static constexpr const char* help = ElementsPerTeam == 1
                                          ? "lower triangle: a thread per entry of its 300 (sanfui)"
                                          : "sym300 with 2 elements per team";
  static constexpr bool lower = true;
  static constexpr int entries = 300;

  template <class Exec, class Data, class Op, class Adder>
  void launch(const Exec& exec, const Data& d, const Op& op, ordinal_t begin, ordinal_t end,
              const Adder& add) const {
    using S = typename Data::scalar_type;
    const Isotropic<S> m = op.material;
    using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
    constexpr int E = ElementsPerTeam;
    constexpr int per_element = 24 + 72 + 72 + 8 + 192;  // X, J, J^-1, det, gradients
    const auto body = KOKKOS_LAMBDA(const Member& t) {
      using Kokkos::TeamThreadRange;
      const ordinal_t first = begin + t.league_rank() * E;
      const int count = static_cast<int>(first + E <= end ? E : end - first);
      S* base = static_cast<S*>(t.team_scratch(0).get_shmem(sizeof(S) * E * per_element));
      const auto X = [&](int s) { return base + s * per_element; };
      const auto J = [&](int s) { return X(s) + 24; };
      const auto Jinv = [&](int s) { return X(s) + 96; };
      const auto D = [&](int s) { return X(s) + 168; };
      const auto G = [&](int s) { return X(s) + 176; };
      // Each phase spreads (element, item) pairs over the team; a barrier separates phases.
      const auto phase = [&](int items, auto&& f) {
        Kokkos::parallel_for(TeamThreadRange(t, count * items), [&](int k) { f(k / items, k % items); });
        t.team_barrier();
      };
      phase(24, [&](int s, int i) { X(s)[i] = d.coords(first + s, i); });
      phase(72, [&](int s, int k) { J(s)[k] = hex8::qp_jacobian_entry(X(s), k); });
      phase(8, [&](int s, int q) { D(s)[q] = hex8::qp_determinant(J(s), q); });
      phase(72, [&](int s, int k) { Jinv(s)[k] = hex8::qp_inverse_entry(J(s), D(s), k); });
      phase(64, [&](int s, int k) {  // k = 8q + a
        hex8::gradient<S>(reinterpret_cast<const S(*)[3]>(Jinv(s) + 9 * (k / 8)), k / 8, k % 8, G(s) + 3 * k);
      });
      const auto acc = add.access();
      Kokkos::parallel_for(TeamThreadRange(t, count * entries), [&](int k) {
        const int s = k / entries;
        int r, c;
        lower_entry(k % entries, r, c);
        S v = 0;
        for (int q = 0; q < hex8::num_qp; ++q)
          v += elasticity::entry(m, D(s)[q], G(s) + 3 * (8 * q + r / 3), G(s) + 3 * (8 * q + c / 3), r % 3,
                                 c % 3);
        acc(d.slot(first + s, r, c), v);
      });
    };
    const int team = lanes::in_turn<Exec> ? 1 : E * entries;
    Kokkos::TeamPolicy<Exec> policy(exec, (end - begin + E - 1) / E, team);
    Kokkos::parallel_for("kfem::assemble[sym300]",
                         policy.set_scratch_size(0, Kokkos::PerTeam(sizeof(S) * E * per_element)), body);
  }
};
}  // namespace kfem::mapping
