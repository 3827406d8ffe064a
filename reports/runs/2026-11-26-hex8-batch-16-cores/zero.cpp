// Zeroing 4 GiB (mesh4's 4.12 GB of double values) on a host backend: ba513f7's strided fill_zero
// (16 entries one stride apart per index, the CUDA layout), kfem::fill_zero (Kokkos' fill on host
// backends), per-thread std::memset, and Kokkos::deep_copy. Session 20, device-call4.sh.
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include "kfem/core/fill.hpp"
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  const long n = (argc > 1 ? atol(argv[1]) : 1L << 27);
  Kokkos::View<double*> v("v", n);
  auto t = [&](const char* name, auto f) {
    for (int r = 0; r < 4; ++r) {
      Kokkos::fence(); auto t0 = std::chrono::steady_clock::now(); f(); Kokkos::fence();
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (r) std::printf("%s %.1f ms %.1f GB/s\n", name, s * 1e3, n * 8 / s / 1e9);
    }
  };
  t("strided (ba513f7's fill_zero)", [&] {
    const long stride = (n + 15) / 16;
    Kokkos::parallel_for(stride, KOKKOS_LAMBDA(long i) { for (long k = i; k < n; k += stride) v(k) = 0; });
  });
  t("fill_zero", [&] { kfem::fill_zero(Kokkos::DefaultExecutionSpace(), v); });
  t("memset chunks", [&] {
    const long chunks = 4 * Kokkos::DefaultExecutionSpace().concurrency();
    Kokkos::parallel_for(chunks, KOKKOS_LAMBDA(long c) {
      const long b = n * c / chunks, e = n * (c + 1) / chunks;
      std::memset(v.data() + b, 0, (e - b) * sizeof(double));
    });
  });
  t("deep_copy", [&] { Kokkos::deep_copy(v, 0.0); });
  t("deep_copy exec", [&] { Kokkos::deep_copy(Kokkos::DefaultExecutionSpace(), v, 0.0); });
}
