// One-thread microbenchmark of Hex8Batch::elements (session 20, on the 2-core VM): synthetic
// distorted elements; `discard` (DISC=1) drops every add, `sink` adds into a cached array. Build:
// g++ -O3 -DNDEBUG -DPERTURB=1 -DHB=\"kfem/assembly/mapping/hex8_batch.hpp\" -march=x86-64-v4
//   -ffp-contract=off -fopenmp -std=c++17 -Isrc -isystem KOKKOS/include mb.cpp -LKOKKOS/lib -lkokkoscore -ldl
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>
#include <random>
#include "kfem/assembly/element_data.hpp"
#include HB
using namespace kfem;
template <class S> struct Disc { S* v; const Disc& access() const { return *this; }
  void operator()(slot_t, S x) const { if (x != x) v[0] = x; } };
template <class S> struct Sink { S* v; const Sink& access() const { return *this; }
  void operator()(slot_t s, S x) const { v[s] += x; } };
template <class S> void go() {
  constexpr int W = 64 / sizeof(S);
  using D = ElementData<S, Kokkos::LayoutLeft, Kokkos::HostSpace, false>;
  const int n = 1 << 16;
  D d; d.num_elements = n;
  d.coords = decltype(d.coords)("c", n); d.nodes = decltype(d.nodes)("n", n);
  d.row = decltype(d.row)("r", n); d.block = decltype(d.block)("b", n); d.stride = decltype(d.stride)("s", n);
  std::mt19937 rng(1); std::uniform_real_distribution<double> u(-0.1, 0.1);
  const int off[8][3] = {{0,0,0},{1,0,0},{1,1,0},{0,1,0},{0,0,1},{1,0,1},{1,1,1},{0,1,1}};
  for (int e = 0; e < n; ++e)
    for (int a = 0; a < 8; ++a) {
      for (int j = 0; j < 3; ++j) d.coords(e, 3 * a + j) = 0.03 * (off[a][j] + (a ? PERTURB * u(rng) : 0));
      d.row(e, a) = 1000 * (a + 8 * (e % 64)); d.stride(e, a) = 81;
      for (int b = 0; b < 8; ++b) d.block(e, 8 * a + b) = 3 * b;
    }
  std::vector<S> buf(1 << 20);
  Isotropic<S> m = Isotropic<S>::from_young(1e9, 0.3);
  auto run = [&](auto acc, const char* name) {
    for (int rep = 0; rep < 4; ++rep) {
      auto t0 = std::chrono::steady_clock::now();
      for (int e0 = 0; e0 < n; e0 += W) mapping::Hex8Batch::elements<W>(d, m, e0, W, acc);
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (rep) std::printf("%s: %.1f ns/element\n", name, s / n * 1e9);
    }
  };
  if (getenv("DISC")) run(Disc<S>{buf.data()}, "discard");
  run(Sink<S>{buf.data()}, "sink");
  double cs = 0; for (S x : buf) cs += x; std::printf("checksum %.17g\n", cs);
}
int main(int argc, char** argv) { Kokkos::ScopeGuard g(argc, argv); go<double>(); go<float>(); }
