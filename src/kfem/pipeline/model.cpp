#include "kfem/pipeline/model.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>
#include <type_traits>

#include "kfem/core/backends.hpp"
#include "kfem/core/error.hpp"
#include "kfem/dofs/vtk_lagrange.hpp"
#include "kfem/io/vtu.hpp"
#include "kfem/mesh/box.hpp"
#include "kfem/mesh/components.hpp"
#include "kfem/mesh/gmsh.hpp"
#include "kfem/mesh/node_sets.hpp"
#include "kfem/mesh/refine.hpp"
#include "kfem/mesh/renumber.hpp"
#include "kfem/problems/capacitor.hpp"
#include "kfem/problems/dirichlet.hpp"
#include "kfem/problems/problem.hpp"
#include "kfem/report/context.hpp"
#include "kfem/report/timing.hpp"
#include "kfem/solve/solver.hpp"

namespace kfem::pipeline {
using nlohmann::json;
using clock = std::chrono::steady_clock;

namespace {
// The mesh, and the order its file's cells carry (2 for tet10, else 1).
Mesh make_mesh(const MeshSpec& spec, const Settings& deck, int& file_order) {
  file_order = 1;
  if (spec.capacitor) {
    CapacitorSpec base;
    base.box_width = deck.capacitor_width, base.box_height = deck.capacitor_height;
    return make_capacitor(
        capacitor_spec_for(spec.triangles > 0 ? spec.triangles : deck.capacitor_triangles, base));
  }
  if (!spec.box) {
    GmshMesh read = read_gmsh_with_order(spec.file);
    file_order = read.order;
    return std::move(read.mesh);
  }
  if (spec.cell == CellType::tri3)
    return make_tri_box(spec.box->nx, spec.box->ny, spec.box->lx, spec.box->ly);
  return make_box(*spec.box, spec.cell);
}

// Which (family, problem) pairs kfem solves, and the orders each family has.
void check_family(const Mesh& mesh, const Settings& deck, const std::string& where, int order) {
  const bool electro = deck.problem == "electrostatics";
  if (mesh.cell == CellType::tri3 && !electro)
    throw InputError(where +
                     ": problem elasticity is not supported on tri3 meshes (tri3 solves electrostatics)");
  if (mesh.cell != CellType::tri3 && electro)
    throw InputError(where + ": problem electrostatics is not supported on " + cell_name(mesh.cell) +
                     " meshes (electrostatics runs on tri3)");
  if (!lagrange::has_basis(mesh.cell) && order != 1)
    throw InputError(where + ": element.order " + std::to_string(order) + " on " + cell_name(mesh.cell) +
                     " (only prisms and tetrahedra have orders 2..7)");
  if (mesh.cell == CellType::tet4 && order > 2 && !deck.export_solution.empty())
    throw InputError(where + ": output.export_solution (--export-solution) of P" + std::to_string(order) +
                     " tetrahedra: VTU cells are written for P1 and P2 tetrahedra only");
}

}  // namespace

std::size_t device_free_bytes(const std::string& backend) {
  bool device = false;
  with_backend(backend, [&](auto exec) {
    using Mem = typename decltype(exec)::memory_space;
    device = !Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
  });
  if (!device) return 0;
  return device_free_memory().value_or(0);
}

void check_graph_size(const std::string& where, const GraphCounts& c, std::size_t device_free_bytes) {
  const double dofs = double(c.components) * double(c.dof_nodes);
  if (dofs > double(std::numeric_limits<ordinal_t>::max()))
    throw InputError(
        fmt::format("{}: {} x {} DOF nodes = {:.0f} DOFs, more than kfem's 32-bit DOF ids (ordinal_t) "
                    "address ({})",
                    where, c.components, c.dof_nodes, dofs, std::numeric_limits<ordinal_t>::max()));
  if (device_free_bytes == 0) return;
  // What build_dof_graph holds at most, with each node row at its smallest (the nodes of one
  // element): connectivity, incidence and neighbour sets (int32, per element), four per-node offset
  // arrays, the node pattern, the DOF row offsets and the DOF pattern. The values and the index come later.
  const double ne = double(c.elements), nn = double(c.dof_nodes), npe = c.nodes_per_element, C = c.components;
  const double bytes = 4 * ne * npe * (2 + npe) + 32 * nn + 4 * nn * npe + 8 * C * nn + 4 * C * C * nn * npe;
  if (bytes > double(device_free_bytes))
    throw InputError(
        fmt::format("{}: the DOF graph of {} elements and {} x {} DOFs ({} DOF nodes per element) "
                    "needs at least {:.3g} GiB of device memory, but {:.3g} GiB are free",
                    where, c.elements, c.components, c.dof_nodes, c.nodes_per_element, bytes / (1u << 30),
                    double(device_free_bytes) / (1u << 30)));
}

Model build_model(const MeshSpec& spec, const Settings& deck, std::optional<std::size_t> graph_device_bytes) {
  ScopedRegion r("kfem::setup::mesh");
  const auto t0 = clock::now();
  Model m;
  // A generator's family is known before anything is built: check it first.
  if (spec.box || spec.capacitor) {
    Mesh probe;
    probe.cell = spec.cell;
    check_family(probe, deck, deck.source, deck.order);
  }
  int file_order = 1;
  m.mesh = make_mesh(spec, deck, file_order);
  // A tet10 file asks for P2 unless the deck names an order above 1: P1 would drop its edge nodes.
  const int order = deck.order == 1 ? file_order : deck.order;
  check_family(m.mesh, deck, spec.name, order);
  double refine_s = 0;
  if (deck.refine > 0) {
    const auto tr = clock::now();
    m.mesh = refine_uniform(m.mesh, deck.refine);
    refine_s = std::chrono::duration<double>(clock::now() - tr).count();
  }
  if (deck.distort > 0) distort(m.mesh, deck.distort, deck.seed);
  if (deck.renumber != Renumbering::natural)
    m.mesh = renumber_nodes(m.mesh, node_permutation(m.mesh, deck.renumber, deck.seed));
  const double mesh_s = std::chrono::duration<double>(clock::now() - t0).count();
  const auto t1 = clock::now();
  m.components = problem_of(deck).components;
  switch (m.mesh.cell) {
    case CellType::tri3:
      m.dofs = vertex_dof_map(m.mesh), m.reference = fe::host_reference(fe::Tri3{});
      break;
    case CellType::hex8:
      m.dofs = vertex_dof_map(m.mesh), m.reference = fe::host_reference(fe::Hex8{});
      break;
    case CellType::prism6:
    case CellType::tet4:
      m.dofs = lagrange_dof_map(m.mesh, order);
      m.reference = fe::host_reference(fe::Lagrange{}, m.mesh.cell, order);
      break;
  }
  const double dofs_s = std::chrono::duration<double>(clock::now() - t1).count();
  const char* family = m.mesh.cell == CellType::prism6 ? "prism"
                       : m.mesh.cell == CellType::tet4 ? "tet"
                                                       : cell_name(m.mesh.cell);
  const std::string name = deck.refine > 0 ? spec.name + "+r" + std::to_string(deck.refine) : spec.name;
  m.info = {
      {"name", name},
      {"family", family},
      {"order", m.dofs.order},
      {"elements", m.mesh.num_elements()},
      {"vertices", m.mesh.num_nodes()},
      {"nodes", m.dofs.num_nodes},
      {"dofs", std::int64_t(m.components) * m.dofs.num_nodes},
      {"shape_functions", m.reference.nsh},
      {"quadrature_points", m.reference.nq},
      {"renumber", renumbering_name(deck.renumber)},
      {"distort", deck.distort},
      {"generate_s", mesh_s},
      {"dof_map_s", dofs_s},
      {"dof_numbering", m.dofs.order >= 2 ? "kfem: vertices (mesh order), then edge, face, interior nodes"
                                          : "natural: components * (node in $Nodes order) + component"}};
  if (deck.refine > 0)
    m.info["refine"] = {{"times", deck.refine}, {"seconds", refine_s}, {"includes", "in generate_s"}};
  if (spec.box) m.info["box"] = {spec.box->nx, spec.box->ny, spec.box->nz};
  if (graph_device_bytes)
    check_graph_size(
        name, {std::int64_t(m.mesh.num_elements()), m.dofs.num_nodes, m.dofs.nodes_per_element, m.components},
        *graph_device_bytes);
  return m;
}

int oracle_threads() {
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

Oracle make_oracle(const Model& model, const Settings& deck, bool with_matrix) {
  Oracle o;
  if (long(model.mesh.num_elements()) > deck.verify_limit) return o;
  ScopedRegion r("kfem::oracle");
  const auto t0 = clock::now();
  const auto material = Isotropic<double>::from_young(deck.young, deck.poisson);
  if (deck.verify == VerifyMethod::products) {
    o.x = check_vectors(model.dofs.num_nodes * model.components, 2, deck.seed + 0x6b66656d);
    const int threads = oracle_threads();
    switch (model.mesh.cell) {
      case CellType::tri3:
        o.products = reference_products(model.mesh, deck.permittivity, o.x, threads);
        break;
      case CellType::hex8:
        o.products = reference_products(model.mesh, material, o.x, threads);
        break;
      case CellType::prism6:
      case CellType::tet4:
        o.products = reference_products(model.mesh, model.dofs, material, o.x, threads);
        break;
    }
  }
  if (deck.verify == VerifyMethod::entries || with_matrix) switch (model.mesh.cell) {
      case CellType::tri3:
        o.matrix = assemble_reference_electrostatics(model.mesh, deck.permittivity);
        break;
      case CellType::hex8:
        o.matrix = assemble_reference_hex8(model.mesh, material);
        break;
      case CellType::prism6:
      case CellType::tet4:
        o.matrix = assemble_reference_elasticity(model.mesh, model.dofs, material);
        break;
    }
  o.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  return o;
}

const HostCsr<double>& Oracle::lower() const {
  if (!lower_) lower_ = lower_part(*matrix);
  return *lower_;
}

const problems::Problem& problem_of(const Settings& deck) {
  try {
    return problems::problem_for(deck.problem);
  } catch (const InputError& e) {
    throw InputError(deck.source + ": key 'problem': " + e.what());
  }
}

problems::Parameters problem_parameters(const Settings& deck) {
  problems::Parameters p;
  p.force = deck.force, p.young = deck.young, p.poisson = deck.poisson, p.permittivity = deck.permittivity;
  for (const auto& d : deck.dirichlet) p.dirichlet.push_back({d.name, d.values});
  p.source = deck.source;
  return p;
}

BoundarySetup boundary_setup(const Model& model, const Settings& deck) {
  // The cantilever's load always, its clamp unless bc.dirichlet replaces it; the capacitor's
  // plates by name.
  BoundarySetup bc =
      problems::boundary_setup(problem_of(deck), model.mesh, model.dofs, problem_parameters(deck));
  check_bodies_fixed(model, bc.fixed, model.info.value("name", std::string("mesh")));
  check_loaded(model, bc, deck);
  return bc;
}

void check_loaded(const Model& model, const BoundarySetup& bc, const Settings& deck) {
  // load.P is finite (check_parameters): a load that is not comes from the tip's area, whose
  // squared lengths overflow past coordinates of about 1e154.
  for (const double f : bc.rhs)
    if (!std::isfinite(f)) {
      double extent = 0;
      for (const auto& x : model.mesh.nodes)
        for (const double c : x) extent = std::max(extent, std::abs(c));
      throw InputError(
          fmt::format("{}: the nodal loads are not finite ({}): the tip face's area overflows at coordinates "
                      "up to {:.3g} (rescale the mesh)",
                      model.info.value("name", std::string("mesh")), std::isnan(f) ? "NaN" : "inf", extent));
    }
  // b = f on the free DOFs minus K times the prescribed values, and the values on the fixed ones:
  // without a load on a free DOF and with every value 0 it is zero, and so is the solution.
  for (const double v : bc.values)
    if (v != 0) return;
  for (std::size_t i = 0; i < bc.rhs.size(); ++i)
    if (bc.rhs[i] != 0 && !std::binary_search(bc.fixed.begin(), bc.fixed.end(), ordinal_t(i))) return;
  const std::string zero = "the load vector is zero (||b|| = 0): nothing to solve";
  if (deck.problem == "electrostatics")
    throw InputError(deck.source +
                     ": key 'bc.dirichlet': every prescribed potential is 0, so the right-hand side is zero "
                     "(||b|| = 0): nothing to solve");
  if (deck.force == 0)
    throw InputError(deck.source + ": key 'load.P': 0, and no prescribed displacement is nonzero: " + zero);
  throw InputError(fmt::format(
      "{}: key 'load.P': {:g} loads no free DOF (the nodal loads underflow, or bc.dirichlet fixes the loaded "
      "tip), and no prescribed displacement is nonzero: {}",
      deck.source, deck.force, zero));
}

void check_bodies_fixed(const Model& model, const std::vector<ordinal_t>& fixed, const std::string& where) {
  const MeshComponents bodies = mesh_components(model.mesh);
  if (bodies.count == 1 && !fixed.empty()) return;
  // DOF node -> body through the elements: higher-order DOF nodes are not mesh vertices.
  std::vector<ordinal_t> body_of(std::size_t(model.dofs.num_nodes), -1);
  for (std::size_t e = 0; e < model.dofs.num_elements(); ++e)
    for (int k = 0; k < model.dofs.nodes_per_element; ++k)
      body_of[model.dofs.element(e)[k]] = bodies.of_element[e];
  std::vector<char> held(std::size_t(bodies.count), 0);
  for (const ordinal_t d : fixed) {
    const ordinal_t b = body_of[std::size_t(d / model.components)];
    if (b >= 0) held[b] = 1;
  }
  const auto loose = std::find(held.begin(), held.end(), 0);
  if (loose == held.end()) return;
  const ordinal_t body = ordinal_t(loose - held.begin());
  const auto& of = bodies.of_element;
  const std::size_t first = std::size_t(std::find(of.begin(), of.end(), body) - of.begin());
  const auto size = std::count(of.begin(), of.end(), body);
  const auto& x = model.mesh.nodes[model.mesh.elements[first][0]];
  throw InputError(
      fmt::format("{}: {} {} (connected components); body {} ({} element{}, e.g. element {} at ({}, {}, {})) "
                  "has no Dirichlet condition — its system is singular",
                  where, bodies.count, bodies.count == 1 ? "body" : "bodies", body + 1, size,
                  size == 1 ? "" : "s", first, x[0], x[1], x[2]));
}

json ReferenceSolution::info() const {
  return {{"method", method},
          {"cg_iterations", iterations},
          {"cg_relative_residual", relative_residual},
          {"cg_converged", converged},
          {"cg_s", seconds},
          {"tolerance", tolerance}};
}

std::optional<ReferenceSolution> reference_solution(const Model&, const Settings& deck,
                                                    const BoundarySetup& bc, const Oracle& oracle) {
  if (!oracle.matrix) return std::nullopt;
  ScopedRegion r("kfem::reference_solution");
  using Exec = Kokkos::DefaultHostExecutionSpace;
  using Mem = Exec::memory_space;
  const Exec exec;
  const HostCsr<double>& K = *oracle.matrix;
  const auto copy = [](const auto& v, const char* label) {
    using T = typename std::decay_t<decltype(v)>::value_type;
    Kokkos::View<T*, Mem> d(std::string(label), v.size());
    std::copy(v.begin(), v.end(), d.data());
    return d;
  };
  CsrGraph<Mem> A;
  A.num_rows = K.num_rows;
  A.row_map = copy(K.row_map, "kfem::reference_row_map");
  A.cols = copy(K.cols, "kfem::reference_cols");
  const auto vals = copy(K.vals, "kfem::reference_values");
  const auto rhs = copy(bc.rhs, "kfem::reference_rhs");
  const Kokkos::View<const ordinal_t*, Mem> fixed = copy(bc.fixed, "kfem::reference_fixed");
  apply_dirichlet(exec, A, vals, rhs, fixed, copy(bc.values, "kfem::reference_fixed_values"));
  ReferenceSolution ref;
  ref.tolerance = std::min(1e-12, deck.tolerance);
  const Kokkos::View<double*, Mem> u("kfem::reference_u", A.num_rows);
  // Always CG (the registry's first solver), whichever solver the points use: the reference stays one.
  const SolveResult cg =
      solve_csr(exec, A, vals, false, rhs, u, SolverOptions{SolverId{}, ref.tolerance, deck.max_iterations});
  ref.u.assign(u.data(), u.data() + u.extent(0));
  ref.method =
      std::string(
          "oracle matrix (serial host assembly, double) + apply_dirichlet + Jacobi CG on the host (") +
      Exec::name() + "), double";
  ref.iterations = cg.iterations, ref.relative_residual = cg.relative_residual, ref.seconds = cg.seconds;
  ref.converged = cg.converged;
  return ref;
}

json solution_summary(const Model& model, const Settings& deck, const BoundarySetup& bc,
                      const std::vector<double>& u, const HostCsr<double>* K) {
  return problem_of(deck).readouts(model.mesh, bc, problem_parameters(deck), u, K);
}

void write_solution(const std::string& path, const Model& model, const Settings& deck,
                    const std::vector<double>& u) {
  const int C = model.components;
  const std::string field = problem_of(deck).field;
  if (model.dofs.order == 1) return write_vtu(path, model.mesh, field, C, u);
  // Prisms of order >= 2: one Lagrange wedge per element over the DOF nodes (VTK point order);
  // P2 tetrahedra: one quadratic tetrahedron each.
  if (model.mesh.cell == CellType::tet4 && model.dofs.order != 2)
    throw InputError(
        fmt::format("{}: the solution of P{} tetrahedra cannot be written as VTU (P1 and P2 can)", path,
                    model.dofs.order));
  const bool tet = model.mesh.cell == CellType::tet4;
  const std::vector<int> perm =
      tet ? vtk_quadratic_tetra_to_local() : vtk_lagrange_wedge_to_local(model.dofs.order);
  VtuCells cells{tet ? vtk_quadratic_tetra : vtk_lagrange_wedge, model.dofs.nodes_per_element, {}};
  cells.connectivity.reserve(model.dofs.element_nodes.size());
  for (std::size_t e = 0; e < model.dofs.num_elements(); ++e)
    for (int k : perm) cells.connectivity.push_back(model.dofs.element(e)[k]);
  write_vtu(path, model.dofs.positions, cells, {VtuField{field, C, u}});
}
}  // namespace kfem::pipeline
