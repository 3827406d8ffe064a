// Runtime choice of execution space and scalar type: a name to a type, over core/exec_spaces.hpp's
// one list of backends.
#pragma once
#include <Kokkos_Core.hpp>
#include <cctype>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>

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

// A backend, named once (backend_named) and carried as this value: `automatic` is Kokkos' default
// execution space ("default"); the others are the spaces kfem knows, whether or not this build runs
// them (with_backend refuses those it does not).
enum class Backend { automatic, serial, openmp, cuda, hip };
inline constexpr const char* backend_names[] = {"default", "serial", "openmp", "cuda", "hip"};
inline const char* name_of(Backend b) {
  return backend_names[int(b)];
}

// The backend of a space this build enables.
template <class Space>
Backend backend_of() {
  const std::string name = backend_name<Space>();
  for (int i = 1; i < int(std::size(backend_names)); ++i)
    if (name == backend_names[i]) return Backend(i);
  throw std::logic_error("kfem: no Backend value for Kokkos space " + name);
}

// The backends this build runs, as users type them ("default, serial, openmp").
inline std::string enabled_backend_names() {
  std::string out = "default";
#define KFEM_LIST_BACKEND(S) out += ", " + backend_name<S>();
  KFEM_FOR_EACH_EXEC_SPACE(KFEM_LIST_BACKEND)
#undef KFEM_LIST_BACKEND
  return out;
}

// f(Space()) for the backend b; InputError where this build does not run it.
template <class F>
void with_backend(Backend b, F&& f) {
  if (b == Backend::automatic) return f(Kokkos::DefaultExecutionSpace());
#define KFEM_TRY_BACKEND(S) \
  if (b == backend_of<S>()) return f(S());
  KFEM_FOR_EACH_EXEC_SPACE(KFEM_TRY_BACKEND)
#undef KFEM_TRY_BACKEND
  throw InputError(std::string("backend '") + name_of(b) +
                   "' is not enabled in this build (it runs: " + enabled_backend_names() + ")");
}

// The backend named `name`, checked once against this build: InputError for a name kfem does not
// know or a backend the build does not run.
inline Backend backend_named(const std::string& name) {
  for (int i = 0; i < int(std::size(backend_names)); ++i)
    if (name == backend_names[i]) {
      with_backend(Backend(i), [](auto) {});  // refuses one this build does not run
      return Backend(i);
    }
  throw InputError("backend '" + name +
                   "' is not enabled in this build (it runs: " + enabled_backend_names() + ")");
}

template <class F>
void with_backend(const std::string& name, F&& f) {
  with_backend(backend_named(name), std::forward<F>(f));
}

// Whether the backend b is a device: its memory is not the host's (on_host), whatever its name
// ("cuda", "hip", or "default" in a GPU build). The one answer to the question, for per-backend
// defaults, the tuner's sample and its cache key. InputError as with_backend for a backend the
// build does not run.
inline bool is_device_backend(Backend b) {
  bool device = false;
  with_backend(b, [&](auto exec) { device = !on_host<decltype(exec)>; });
  return device;
}
inline bool is_device_backend(const std::string& name) {
  return is_device_backend(backend_named(name));
}

// The scalar a point assembles in, named once (scalar_named).
enum class Scalar { f64, f32 };
inline const char* name_of(Scalar s) {
  return s == Scalar::f32 ? "float" : "double";
}
inline int bytes_of(Scalar s) {
  return s == Scalar::f32 ? 4 : 8;
}
inline Scalar scalar_named(const std::string& name) {
  if (name == "double") return Scalar::f64;
  if (name == "float") return Scalar::f32;
  throw InputError("scalar '" + name + "': expected float or double");
}
template <class F>
void with_scalar(Scalar s, F&& f) {
  if (s == Scalar::f32) return f(float());
  return f(double());
}
template <class F>
void with_scalar(const std::string& name, F&& f) {
  with_scalar(scalar_named(name), std::forward<F>(f));
}
}  // namespace kfem
