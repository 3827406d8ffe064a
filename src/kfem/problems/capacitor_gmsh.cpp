// make_capacitor through the Gmsh C++ API (Gmsh 4.8: errors are thrown as std::string). Built as
// the module libkfem_gmsh.so (src/CMakeLists.txt, KFEM_WITH_GMSH=ON), host compiler only, so no
// other kfem file needs gmsh.h; capacitor_gmsh_module.cpp opens it at the first capacitor.
#include <fmt/format.h>
#include <gmsh.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "kfem/core/error.hpp"
#include "kfem/problems/capacitor_mesher.hpp"

// Gmsh's initialize sets the process-wide OpenMP thread count to its General.NumThreads (1),
// which would silently serialise later plain `omp parallel` regions. libgmsh links the OpenMP
// runtime, so these resolve; weak so that a Gmsh without OpenMP still links (they are then null).
extern "C" int omp_get_max_threads() __attribute__((weak));
extern "C" void omp_set_num_threads(int) __attribute__((weak));

namespace kfem {
namespace {
// One Gmsh session: initialised quiet, finalised (and the OpenMP thread count restored) on exit.
class GmshSession {
 public:
  explicit GmshSession(bool verbose) : omp_threads_(omp_get_max_threads ? omp_get_max_threads() : 0) {
    gmsh::initialize(0, nullptr, /*readConfigFiles=*/false);
    gmsh::option::setNumber("General.Terminal", verbose ? 1 : 0);
  }
  ~GmshSession() {
    try {
      gmsh::finalize();
    } catch (...) {  // nothing useful to do with a failure while unwinding
    }
    if (omp_set_num_threads && omp_threads_ > 0) omp_set_num_threads(omp_threads_);
  }
  GmshSession(const GmshSession&) = delete;
  GmshSession& operator=(const GmshSession&) = delete;

 private:
  int omp_threads_;
};

// A closed counter-clockwise rectangle in the built-in kernel; returns its 4 lines.
std::vector<int> rectangle(double x0, double y0, double x1, double y1) {
  namespace geo = gmsh::model::geo;
  const int p[4] = {geo::addPoint(x0, y0, 0), geo::addPoint(x1, y0, 0), geo::addPoint(x1, y1, 0),
                    geo::addPoint(x0, y1, 0)};
  std::vector<int> lines;
  for (int i = 0; i < 4; ++i) lines.push_back(geo::addLine(p[i], p[(i + 1) % 4]));
  return lines;
}

// Size field of one plate: border_ratio * size inside its rectangle (a hole: never meshed),
// growing linearly with the exact distance to it up to size at border_width.
int plate_field(const CapacitorSpec& s, double y0, double y1) {
  namespace field = gmsh::model::mesh::field;
  const int f = field::add("Box");
  field::setNumber(f, "VIn", s.border_ratio * s.size);
  field::setNumber(f, "VOut", s.size);
  field::setNumber(f, "XMin", -s.plate_length / 2);
  field::setNumber(f, "XMax", s.plate_length / 2);
  field::setNumber(f, "YMin", y0);
  field::setNumber(f, "YMax", y1);
  field::setNumber(f, "ZMin", -1);
  field::setNumber(f, "ZMax", 1);
  field::setNumber(f, "Thickness", s.border_width);
  return f;
}

Mesh extract_mesh() {
  std::vector<std::size_t> node_tags;
  std::vector<double> coords, parametric;
  gmsh::model::mesh::getNodes(node_tags, coords, parametric, -1, -1, false, false);
  std::vector<std::size_t> tri_tags, tri_nodes;
  gmsh::model::mesh::getElementsByType(2, tri_tags, tri_nodes);
  if (tri_tags.empty()) throw InputError("capacitor: Gmsh produced no triangles");
  if (tri_tags.size() > std::size_t(std::numeric_limits<ordinal_t>::max()) ||
      node_tags.size() > std::size_t(std::numeric_limits<ordinal_t>::max()))
    throw InputError("capacitor: mesh too large for kfem's 32-bit ids");

  // Gmsh tags are dense after meshing, so a flat tag -> index table is cheap.
  const std::size_t max_tag = *std::max_element(node_tags.begin(), node_tags.end());
  std::vector<ordinal_t> index(max_tag + 1, -1);
  std::vector<char> used(node_tags.size(), 0);
  for (std::size_t i = 0; i < node_tags.size(); ++i) index[node_tags[i]] = ordinal_t(i);
  for (std::size_t t : tri_nodes) {
    if (t > max_tag || index[t] < 0)
      throw InputError(fmt::format("capacitor: Gmsh triangle uses unknown node {}", t));
    used[index[t]] = 1;
  }
  Mesh mesh;
  mesh.cell = CellType::tri3;
  std::vector<ordinal_t> renumber(node_tags.size(), -1);  // Gmsh order restricted to used nodes
  for (std::size_t i = 0; i < node_tags.size(); ++i)
    if (used[i]) {
      renumber[i] = ordinal_t(mesh.nodes.size());
      mesh.nodes.push_back({coords[3 * i], coords[3 * i + 1], 0.0});
    }
  const auto node = [&](std::size_t tag) { return renumber[index[tag]]; };

  mesh.elements.resize(tri_tags.size());
  for (std::size_t e = 0; e < tri_tags.size(); ++e) {
    auto& el = mesh.elements[e];
    el.fill(-1);
    for (int k = 0; k < 3; ++k) el[k] = node(tri_nodes[3 * e + k]);
    const auto& a = mesh.nodes[el[0]];
    const auto& b = mesh.nodes[el[1]];
    const auto& c = mesh.nodes[el[2]];
    // Gmsh orients triangles by the surface normal, which a geo-kernel surface may have as -z.
    if ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) < 0) std::swap(el[1], el[2]);
  }

  gmsh::vectorpair groups;
  gmsh::model::getPhysicalGroups(groups, 1);
  for (const auto& [dim, tag] : groups) {
    std::string name;
    gmsh::model::getPhysicalName(dim, tag, name);
    std::vector<std::size_t> tags;
    std::vector<double> xyz;
    gmsh::model::mesh::getNodesForPhysicalGroup(dim, tag, tags, xyz);
    auto& set = mesh.node_sets[name];
    for (std::size_t t : tags)
      if (t <= max_tag && index[t] >= 0 && node(t) >= 0) set.push_back(node(t));
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
  }
  auto& air = mesh.cell_sets["air"];
  air.resize(mesh.elements.size());
  for (std::size_t e = 0; e < air.size(); ++e) air[e] = ordinal_t(e);
  return mesh;
}

Mesh generate(const CapacitorSpec& s) {
  GmshSession session(s.verbose);
  gmsh::model::add("capacitor");
  const double w = s.box_width / 2, h = s.box_height / 2, l = s.plate_length / 2, g = s.gap / 2;
  const auto outer = rectangle(-w, -h, w, h);
  const auto top = rectangle(-l, g, l, g + s.plate_thickness);
  const auto bottom = rectangle(-l, -g - s.plate_thickness, l, -g);
  namespace geo = gmsh::model::geo;
  const int air =
      geo::addPlaneSurface({geo::addCurveLoop(outer), geo::addCurveLoop(top), geo::addCurveLoop(bottom)});
  geo::synchronize();
  const auto physical = [](int dim, const std::vector<int>& tags, const std::string& name) {
    gmsh::model::setPhysicalName(dim, gmsh::model::addPhysicalGroup(dim, tags), name);
  };
  physical(1, top, "top_plate");
  physical(1, bottom, "bottom_plate");
  physical(1, outer, "outer");
  physical(2, {air}, "air");

  namespace field = gmsh::model::mesh::field;
  const int fields[2] = {plate_field(s, g, g + s.plate_thickness),
                         plate_field(s, -g - s.plate_thickness, -g)};
  const int size = field::add("Min");
  field::setNumbers(size, "FieldsList", {double(fields[0]), double(fields[1])});
  field::setAsBackgroundMesh(size);
  // The field alone sets the size (also along the curves): no point sizes, no curvature, no
  // extension of boundary sizes inwards.
  gmsh::option::setNumber("Mesh.MeshSizeFromPoints", 0);
  gmsh::option::setNumber("Mesh.MeshSizeFromCurvature", 0);
  gmsh::option::setNumber("Mesh.MeshSizeExtendFromBoundary", 0);
  gmsh::option::setNumber("Mesh.Algorithm", s.algorithm);
  if (s.threads > 0) gmsh::option::setNumber("General.NumThreads", s.threads);
  gmsh::model::mesh::generate(2);
  for (int r = 0; r < s.refine; ++r) gmsh::model::mesh::refine();
  if (!s.msh_path.empty()) gmsh::write(s.msh_path);
  return extract_mesh();
}
}  // namespace
}  // namespace kfem

// The module's one entry point, looked up by name (capacitor_gmsh_module.cpp): out = the mesh of an
// already checked spec; every failure a one-line kfem::InputError.
extern "C" void kfem_gmsh_mesh_capacitor(const kfem::CapacitorSpec& spec, kfem::Mesh& out) {
  using kfem::InputError;
  try {
    out = kfem::generate(spec);
  } catch (const InputError&) {
    throw;
  } catch (const std::string& what) {  // Gmsh 4.8
    throw InputError("capacitor: Gmsh: " + what);
  } catch (const std::exception& e) {  // newer Gmsh, std::bad_alloc
    throw InputError(std::string("capacitor: Gmsh: ") + e.what());
  } catch (...) {
    throw InputError("capacitor: Gmsh failed (unknown error)");
  }
}
