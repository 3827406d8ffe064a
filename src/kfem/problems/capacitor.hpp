// The amorim §III model problem: two parallel plates (2 in long, 1/64 in thick, 1/32 in apart,
// 48 V across them) in a rectangular air box, meshed with tri3 by Gmsh and refined at the plate
// borders (amorim Fig. 1). Lengths are in inches; only ratios matter in 2D electrostatics, so the
// capacitance per unit depth comes out in the units of the permittivity (F/m for eps0 in F/m).
// This header needs neither Gmsh nor Kokkos: make_capacitor lives in capacitor_gmsh.cpp (built
// with KFEM_WITH_GMSH=ON) or in capacitor_no_gmsh.cpp (a stub that throws).
#pragma once
#include <string>
#include <vector>

#include "kfem/mesh/mesh.hpp"
#include "kfem/problems/boundary_conditions.hpp"

namespace kfem {
inline constexpr double vacuum_permittivity = 8.8541878128e-12;  // F/m

// Geometry is centred on the origin: plates along x, the gap straddling y = 0.
//
// Mesh size (the knob): the target element size is `size` farther than `border_width` from both
// plates and `border_ratio * size` on the plate outlines, growing linearly with the distance to
// the nearer plate in between (one Gmsh Box field per plate: exact distance to the rectangle).
// The whole size field scales with `size`, so the triangle count goes as 1 / size^2; each of the
// `refine` uniform refinements then splits every triangle into 4. With the defaults:
//   triangles ~= 72 / size^2 * 4^refine      (size = 0.05 -> ~2.9e4, 0.025 -> ~1.2e5)
// capacitor_triangles() evaluates this estimate for any spec and capacitor_spec_for() inverts it;
// target_triangles > 0 makes make_capacitor do that itself (the deck knob: 1e4 ... 1e7 and more).
// Gmsh's 2D Delaunay costs ~20-30 us per triangle and grows superlinearly, a refinement ~3 us per
// triangle made, so large meshes come from a coarse base mesh plus refinements (what
// capacitor_spec_for does: base mesh <= 1e5 triangles). Measured (2-core VM): 1e5 triangles 3 s,
// 1e6 8 s, 1e7 56 s and 2.5 GB.
struct CapacitorSpec {
  double box_width = 4.0, box_height = 2.0;  // the air box (truncated domain)
  double plate_length = 2.0, plate_thickness = 1.0 / 64, gap = 1.0 / 32;
  double target_triangles = 0;  // > 0: overrides size and refine (capacitor_spec_for)
  double size = 0.05;           // element size far from the plates
  double border_ratio = 0.125;  // size on the plate outlines / size
  double border_width = 0.5;    // distance from a plate over which the size grows back to `size`
  int refine = 0;               // uniform refinements after meshing (x4 triangles each), 0..8
  int algorithm = 5;            // Gmsh Mesh.Algorithm: 5 Delaunay (fastest here), 6 Frontal-Delaunay
  int threads = 0;              // Gmsh General.NumThreads; 0 keeps Gmsh's default
  bool verbose = false;         // Gmsh's own log on the terminal
  std::string msh_path;         // if not empty, also write the mesh there (format from the extension)
};

// Throws InputError naming the first inconsistent field (plates not inside the box, non-positive
// lengths, border_ratio outside (0, 1], refine outside 0..8).
void check_capacitor_spec(const CapacitorSpec&);

// Meshes the capacitor (after capacitor_spec_for when target_triangles > 0): cell tri3,
// counter-clockwise; nodes in Gmsh's order (entity by entity, as in the .msh, so read_gmsh of
// msh_path gives the same mesh) restricted to the nodes triangles use; node_sets "top_plate",
// "bottom_plate" (the plate outlines) and "outer" (the box boundary); cell_sets {"air": all
// triangles}. Gmsh is initialised and finalised inside (not reentrant: one call at a time per
// process, and none while the process uses Gmsh otherwise). Errors (bad spec, Gmsh failure,
// unwritable msh_path, a build without Gmsh) throw a one-line InputError.
Mesh make_capacitor(const CapacitorSpec&);

// Whether this build can run make_capacitor (KFEM_WITH_GMSH=ON).
bool gmsh_available();

// Estimated triangle count of make_capacitor(spec): 2.63 x the integral of 1 / size(x)^2 over the
// air (2.36 for Mesh.Algorithm 6), times 4^refine. Within ~3% from 1e4 triangles up (coarser
// meshes, where the plates' geometry sets the size, have more).
double capacitor_triangles(const CapacitorSpec&);

// `base` with size and refine chosen so that make_capacitor gives about `triangles` triangles
// (and target_triangles = 0): refine is the fewest refinements that keep the Gmsh-generated base
// mesh at <= 1e5 triangles. Throws InputError for triangles < 100.
CapacitorSpec capacitor_spec_for(double triangles, CapacitorSpec base = {});

// The plate potentials for a difference V: top +V/2, bottom -V/2, outer box grounded (0). The
// problem is then antisymmetric, the box carries no net charge and C = 2 W / V^2 is the plate
// pair's capacitance (with the box's influence on the fringe field).
std::vector<DirichletCondition> capacitor_conditions(double V = 48.0);

// Ideal parallel-plate capacitance per unit depth, eps L / d (no fringing): the FE value exceeds it.
inline double ideal_capacitance_per_depth(double eps, const CapacitorSpec& s = {}) {
  return eps * s.plate_length / s.gap;
}
}  // namespace kfem
