// The pipeline's first stage: what a run works on, built from its settings. The mesh (generated or
// read, refined, distorted, renumbered), its family's DOF map and reference data, the family's
// oracle, and the problem's boundary set-up and reference solution. Problem set-ups themselves
// (cantilever, capacitor, named Dirichlet values) live in kfem/problems; this file chooses among them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kfem/assembly/reference.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/fe/family.hpp"
#include "kfem/pipeline/settings.hpp"
#include "kfem/pipeline/setup.hpp"
#include "kfem/problems/problem.hpp"

namespace kfem::pipeline {
struct Model {
  Mesh mesh;
  DofMap dofs;
  fe::HostReference reference;
  int components = 3;           // DOFs per DOF node: the run's problem's (3 cantilever, 1 capacitor)
  nlohmann::json info;          // what the report says about the mesh and DOFs
  pipeline::MeshOrders orders;  // the greedy colouring and Morton order, once per mesh
};

// Throws InputError (one line) for a family that does not support the problem or the order, and
// when check_graph_size rejects the model for a DOF graph in `graph_device_bytes` (free bytes of the
// device, 0 where unknown; nullopt: no DOF graph will be built, as in banas' stage bench).
Model build_model(const MeshSpec& spec, const Settings& settings,
                  std::optional<std::size_t> graph_device_bytes);
// Free memory of the backend when it is a device that can be asked (CUDA: device_free_memory), else 0.
// Kokkos 3.4 has no portable query, so other device backends go unchecked.
std::size_t device_free_bytes(const std::string& backend);

// What build_dof_graph will be given: elements, DOF nodes and the element's DOF-node count.
struct GraphCounts {
  std::int64_t elements = 0, dof_nodes = 0;
  int nodes_per_element = 0, components = 3;
};
// Checked before anything is allocated for the DOF graph: the DOF ids (components x DOF nodes) must
// fit ordinal_t, and where device_free_bytes > 0 (a device backend that can be queried) a lower
// bound of the bytes build_dof_graph holds at once must fit in them. Throws InputError naming the
// counts and the limit. offset_t needs no check: with ordinal_t counts the candidate and nonzero
// counts (at most components^2 x elements x nodes_per_element^2) stay below 2^51.
void check_graph_size(const std::string& where, const GraphCounts& counts, std::size_t device_free_bytes);

// The family's oracle on the host, once per mesh: every point's matrix is checked against it, by
// settings.verify: `products` (K x for check vectors, element by element on every host core) or
// `entries` (the assembled matrix). The matrix is also made when `with_matrix` (the bench's
// reference solution needs it). Nothing above settings.verify_limit elements.
struct Oracle {
  std::optional<HostCsr<double>> matrix;
  std::vector<std::vector<double>> x;         // the check vectors (products)
  std::optional<ReferenceProducts> products;  // K x for each of them, and diag(K)
  double seconds = 0;
  const HostCsr<double>& lower() const;  // the matrix's lower triangle (symmetric storage), made once
  bool empty() const { return !matrix && !products; }

 private:
  mutable std::optional<HostCsr<double>> lower_;  // a memo
};
Oracle make_oracle(const Model& model, const Settings& settings, bool with_matrix = false);
// Host threads the oracle's products use: every core (std::thread::hardware_concurrency).
int oracle_threads();

// The run's problem: the one the deck's `problem:` (its physics; elasticity when the deck has
// none) picks in src/kfem/problems' registry (problems::problem_for), and what the deck gives it.
// InputError "<deck>: key 'problem': unknown problem ..." for a name the registry does not know.
const problems::Problem& problem_of(const Settings& settings);
problems::Parameters problem_parameters(const Settings& settings);

// Boundary conditions and loads of the run's problem (host, DOF numbering of the model), and
// what to report about the solution: problems::boundary_setup.
using BoundarySetup = problems::BoundarySetup;
// problems::boundary_setup of the deck's problem (its loads and own conditions, or the deck's
// bc.dirichlet), then check_bodies_fixed and check_loaded: throws InputError when a body of the
// mesh (a connected component) has no fixed DOF (its system would be singular) or nothing loads it.
BoundarySetup boundary_setup(const Model& model, const Settings& settings);
// "<where>: N bodies (connected components); body K (E elements, e.g. element X at (x, y, z)) has no
// Dirichlet condition ..." for the first body (numbered from 1 in order of their first element)
// holding none of the fixed DOFs. A fixed node per body is all it asks: the rigid modes one fixed
// node leaves free (rotations about it) are not detected.
void check_bodies_fixed(const Model& model, const std::vector<ordinal_t>& fixed, const std::string& where);
// Throws InputError when a nodal load is not finite (a mesh too large for its tip area), or when no
// load reaches a free DOF and every prescribed value is 0: the right-hand side is zero, the solution
// too, and CG has nothing to solve.
void check_loaded(const Model& model, const BoundarySetup& bc, const Settings& settings);
// The run's problem solved once per mesh on the host, in double, from the oracle's matrix
// (apply_dirichlet + Jacobi CG, tolerance min(1e-12, solver.tolerance)): the solution bench points
// compare theirs with. Empty without an oracle (mesh above bench.verify_limit).
struct ReferenceSolution {
  std::vector<double> u;
  std::string method;
  int iterations = 0;
  double relative_residual = 0, seconds = 0, tolerance = 0;
  bool converged = false;
  nlohmann::json info() const;  // everything but u
};
std::optional<ReferenceSolution> reference_solution(const Model& model, const Settings& settings,
                                                    const BoundarySetup& bc, const Oracle& oracle);
// The read-outs of the deck's problem for a solution u (problems::Problem::readouts; K: the full
// assembled matrix before constraints, or null for symmetric storage).
nlohmann::json solution_summary(const Model& model, const Settings& settings, const BoundarySetup& bc,
                                const std::vector<double>& u, const HostCsr<double>* K);
// The solution as VTU point data in the mesh file's node order, named by the deck's problem
// ("displacement", "potential"; Lagrange wedges for prisms of order >= 2).
void write_solution(const std::string& path, const Model& model, const Settings& settings,
                    const std::vector<double>& u);
}  // namespace kfem::pipeline
