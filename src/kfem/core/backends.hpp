// Runtime choice of execution space and scalar type: a name to a type, over core/exec_spaces.hpp's
// one list of backends.
#pragma once
#include <Kokkos_Core.hpp>
#include <cctype>
#include <string>

#include "kfem/core/error.hpp"
#include "kfem/core/exec_spaces.hpp"

namespace kfem {
// A space's name as the CLI spells it: Kokkos' name in lower case ("serial", "openmp", "cuda").
template <class Space>
std::string backend_name() {
  std::string s = Space::name();
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

template <class F>
void with_backend(const std::string& name, F&& f) {
  if (name == "default") return f(Kokkos::DefaultExecutionSpace());
#define KFEM_TRY_BACKEND(S) \
  if (name == backend_name<S>()) return f(S());
  KFEM_FOR_EACH_EXEC_SPACE(KFEM_TRY_BACKEND)
#undef KFEM_TRY_BACKEND
  std::string built;
#define KFEM_LIST_BACKEND(S) built += (built.empty() ? "" : ", ") + backend_name<S>();
  KFEM_FOR_EACH_EXEC_SPACE(KFEM_LIST_BACKEND)
#undef KFEM_LIST_BACKEND
  throw InputError("backend '" + name + "' is not enabled in this build (it runs: default, " + built + ")");
}

// Whether the backend `name` (as with_backend takes it) is a device: its memory is not the host's
// (on_host), whatever its name ("cuda", "hip", or "default" in a GPU build). The one answer to the
// question, for per-backend defaults, the tuner's sample and its cache key. InputError as
// with_backend for a backend the build does not run.
inline bool is_device_backend(const std::string& name) {
  bool device = false;
  with_backend(name, [&](auto exec) { device = !on_host<decltype(exec)>; });
  return device;
}

template <class F>
void with_scalar(const std::string& name, F&& f) {
  if (name == "double") return f(double());
  if (name == "float") return f(float());
  throw InputError("scalar '" + name + "': expected float or double");
}
}  // namespace kfem
