// The capacitor mesher of builds with Gmsh: libkfem_gmsh.so (capacitor_gmsh.cpp, linked with Gmsh)
// opened at the first capacitor, not linked into every kfem program. Gmsh brings ~100 libraries
// (OpenCASCADE, FLTK, image codecs) whose loading cost every kfem process and every test 0.12 s on
// a 2-core VM, most of which never mesh a capacitor.
#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "kfem/core/error.hpp"
#include "kfem/problems/capacitor_mesher.hpp"

namespace kfem {
namespace {
using Entry = void (*)(const CapacitorSpec&, Mesh&);

struct Module {
  void* handle = nullptr;  // open to the end: the entry point and Gmsh live in it
  Entry entry = nullptr;
  std::string error;
};

// Opened once per process and kept. KFEM_GMSH_MODULE names another file (a moved build).
const Module& module() {
  static const Module m = [] {
    Module m;
    const char* env = std::getenv("KFEM_GMSH_MODULE");
    const std::string path = env && *env ? env : KFEM_GMSH_MODULE_PATH;
    m.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!m.handle) {
      const char* why = dlerror();
      m.error = why ? why : "cannot open " + path;
      return m;
    }
    m.entry = reinterpret_cast<Entry>(dlsym(m.handle, "kfem_gmsh_mesh_capacitor"));
    if (!m.entry) m.error = path + " has no kfem_gmsh_mesh_capacitor";
    return m;
  }();
  return m;
}
}  // namespace

bool gmsh_available() {
  return module().entry != nullptr;
}

Mesh capacitor_detail::mesh_with_gmsh(const CapacitorSpec& spec) {
  const Module& m = module();
  if (!m.entry)
    throw InputError("capacitor: the Gmsh mesher could not be loaded (" + m.error +
                     "; KFEM_GMSH_MODULE names libkfem_gmsh.so where the build moved)");
  Mesh out;
  m.entry(spec, out);
  return out;
}
}  // namespace kfem
