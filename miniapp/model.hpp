// The driver's names for the pipeline's model stage (kfem/pipeline/model.hpp): the mesh, DOF map
// and reference data of a run, its oracle, and its problem's conditions and read-outs.
#pragma once
#include "kfem/pipeline/model.hpp"

namespace kfem::app {
using pipeline::boundary_setup;
using pipeline::BoundarySetup;
using pipeline::build_model;
using pipeline::check_bodies_fixed;
using pipeline::check_graph_size;
using pipeline::check_loaded;
using pipeline::device_free_bytes;
using pipeline::GraphCounts;
using pipeline::make_oracle;
using pipeline::Model;
using pipeline::Oracle;
using pipeline::problem_of;
using pipeline::problem_parameters;
using pipeline::reference_solution;
using pipeline::ReferenceSolution;
using pipeline::solution_summary;
using pipeline::write_solution;
}  // namespace kfem::app
