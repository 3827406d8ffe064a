// Problem set-ups by name: what a run solves on its mesh. A problem names the physics it solves
// (the operator of fe/operator.hpp, which also owns the per-block flop count), its components per
// DOF node, the name of its solution field, its boundary set-up (loads, its own Dirichlet
// conditions, named conditions replacing them) and its read-outs of a solution. Registered:
//   cantilever  elasticity      kiran §5.1 on hex8 and prism6 (any order): clamp at x = xmin,
//                               load.P spread over x = xmax; tip deflection + Timoshenko
//   capacitor   electrostatics  amorim §III on tri3: plate potentials by physical name only;
//                               field energy, potential difference, capacitance per depth
// A driver picks one with problem_for, by the physics its deck names (`problem: elasticity` ->
// cantilever, `electrostatics` -> capacitor) or by the problem's own name; nothing infers a
// problem from the number of components.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kfem/core/types.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/mesh/mesh.hpp"
#include "kfem/problems/boundary_conditions.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem::problems {
enum class Physics { elasticity, electrostatics };
// "elasticity" / "electrostatics": the name of the operator (fe::Elasticity::name, ...).
const char* name_of(Physics);
// DOFs per node of the physics' operator (fe::Elasticity::components, ...).
int components_of(Physics);
// Flops of the operator's block formula for one node pair (fe::Elasticity::block_flops, ...).
double block_flops(Physics, int dim);

// What a problem's set-up and read-outs take from a deck or a command.
struct Parameters {
  double force = 0;                           // cantilever: total tip load P (load.P), -z
  double young = 0, poisson = 0;              // elasticity: E, nu (the Timoshenko reference)
  double permittivity = 0;                    // electrostatics: eps (the ideal capacitance)
  std::vector<DirichletCondition> dirichlet;  // named conditions: replace the problem's own
  std::string source;                         // names the deck or command in errors (unknown names)
};

// Boundary conditions and loads of a problem on a mesh (host, the DofMap's DOF numbering:
// DOF = components * DOF node + component).
struct BoundarySetup {
  std::string name;              // what solves report as "problem": "cantilever", "capacitor", ...
  std::vector<ordinal_t> fixed;  // sorted DOFs
  std::vector<double> values;    // their prescribed values
  std::vector<double> rhs;       // loads, one per DOF
  std::vector<ordinal_t> tip;    // cantilever: DOF nodes on x = xmax
};

struct Problem {
  const char* name;           // "cantilever", "capacitor"
  Physics physics;            // the operator it assembles
  int components;             // DOFs per DOF node (components_of(physics))
  const char* field;          // its solution's name in a VTU file: "displacement", "potential"
  const char* named_name;     // BoundarySetup::name when named conditions replace the problem's own
  bool readouts_need_matrix;  // the read-outs use K, the assembled matrix before conditions
  // The problem's loads (rhs, tip) and its own Dirichlet conditions (none for the capacitor, whose
  // plates come by name); boundary_setup adds the named ones.
  BoundarySetup (*loads)(const Mesh&, const DofMap&, const Parameters&);
  // The read-outs of a solution u (keys in SI units or the deck's). K: the full matrix before
  // conditions, or null (symmetric storage, or not gathered): read-outs that need it are left out.
  nlohmann::json (*readouts)(const Mesh&, const BoundarySetup&, const Parameters&,
                             const std::vector<double>& u, const HostCsr<double>* K);
};

// Every registered problem, in registry order (the first of a physics is what its name picks).
const std::vector<Problem>& registry();

// The problem a name picks: a physics name ("elasticity", "electrostatics", what a deck's
// `problem:` says) picks its problem, a problem's own name ("cantilever", "capacitor") itself.
// Throws InputError "unknown problem 'NAME' (known: ...)" listing both kinds of names.
const Problem& problem_for(const std::string& name);

// The run's conditions in one place: the problem's loads and own conditions, replaced by
// p.dirichlet when it names any (fixed_dofs_by_name: unknown or empty names throw InputError
// naming p.source, values need problem.components entries; the name becomes problem.named_name).
// rhs has components x DOF nodes entries. Throws what the problem's loads throw (cantilever: an
// empty or tri3 mesh, no face on x = xmax) before any name is resolved.
BoundarySetup boundary_setup(const Problem& problem, const Mesh& mesh, const DofMap& dofs,
                             const Parameters& p);
}  // namespace kfem::problems
