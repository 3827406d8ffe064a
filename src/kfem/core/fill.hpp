// Zeroing a large array at memory bandwidth, on any backend.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kfem {
namespace fill_detail {
// Kernels in headers are named functors, not KOKKOS_LAMBDAs: nvcc's host wrapper of an extended
// lambda breaks when several translation units instantiate the same one (the linker keeps one
// unit's wrapper, whose function pointers only that unit sets).
template <class View, class Index>
struct Zero {
  View v;
  Index n, stride;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    for (Index k = i; k < n; k += stride) v(k) = typename View::non_const_value_type(0);
  }
};
}  // namespace fill_detail

// v = 0 on exec.
// - CUDA, a contiguous view: cudaMemsetAsync on exec's stream (every type kfem zeroes is 0 in all
//   bits): faster than the kernel below.
// - CUDA, a strided view: Kokkos 3.4's deep_copy(exec, v, 0) gives every entry its own thread, in
//   64-thread blocks: half a billion values become millions of blocks, and block scheduling, not
//   DRAM, sets the pace. Here each thread zeroes 16 entries
//   one stride apart: a warp's stores stay contiguous, and there are 16x fewer blocks.
// - Host backends: that kernel gives each CPU thread 16 scattered store streams, and Kokkos' own
//   fill writes contiguous runs.
template <class Exec, class View>
void fill_zero(const Exec& exec, const View& v) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) {
    static_assert(std::is_arithmetic_v<typename View::non_const_value_type>);
    if (v.span_is_contiguous()) {
      const std::size_t bytes = v.span() * sizeof(typename View::value_type);
      if (bytes > 0 && cudaMemsetAsync(v.data(), 0, bytes, exec.cuda_stream()) != cudaSuccess)
        throw std::runtime_error("fill_zero: cudaMemsetAsync of " + v.label() + " failed");
      return;
    }
  }
#endif
  if constexpr (Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible) {
    Kokkos::deep_copy(exec, v, typename View::non_const_value_type(0));
  } else {
    using Index = std::int64_t;
    constexpr Index per_thread = 16;
    const Index n = static_cast<Index>(v.extent(0));
    const Index stride = (n + per_thread - 1) / per_thread;
    Kokkos::parallel_for("kfem::fill_zero",
                         Kokkos::RangePolicy<Exec, Kokkos::IndexType<Index>>(exec, 0, stride),
                         fill_detail::Zero<View, Index>{v, n, stride});
  }
}
}  // namespace kfem
