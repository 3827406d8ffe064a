// Runtime choice of execution space and scalar type: the one place that lists backends.
#pragma once
#include <Kokkos_Core.hpp>
#include <string>

#include "kfem/core/error.hpp"
#include "kfem/fe/family.hpp"

namespace kfem::app {
template <class F>
void with_backend(const std::string& name, F&& f) {
  if (name == "default") return f(Kokkos::DefaultExecutionSpace());
#if defined(KOKKOS_ENABLE_SERIAL)
  if (name == "serial") return f(Kokkos::Serial());
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  if (name == "openmp") return f(Kokkos::OpenMP());
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  if (name == "cuda") return f(Kokkos::Cuda());
#endif
  throw InputError("backend '" + name + "' is not enabled in this build (kfem info lists the enabled ones)");
}

// The family of a mesh's cells, as a tag type (the registry's FamilyRegistry).
template <class F>
void with_family(CellType cell, F&& f) {
  switch (cell) {
    case CellType::tri3: return f(fe::Tri3{});
    case CellType::hex8: return f(fe::Hex8{});
    case CellType::prism6: return f(fe::Prism{});
  }
}

template <class F>
void with_scalar(const std::string& name, F&& f) {
  if (name == "double") return f(double());
  if (name == "float") return f(float());
  throw InputError("scalar '" + name + "': expected float or double");
}
}  // namespace kfem::app
