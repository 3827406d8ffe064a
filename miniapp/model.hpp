// The driver's names for the library pipeline: the model stage (kfem/pipeline/model.hpp: the mesh,
// DOF map and reference data of a run, its oracle, its problem's conditions and read-outs), a
// point's request and run (point.hpp), the stage bench (stage_bench.hpp), device memory (memory.hpp).
#pragma once
#include "kfem/parallel/abort.hpp"
#include "kfem/pipeline/memory.hpp"
#include "kfem/pipeline/model.hpp"
#include "kfem/pipeline/point.hpp"
#include "kfem/pipeline/stage_bench.hpp"

namespace kfem::app {
using parallel::or_abort_all;
using pipeline::boundary_setup;
using pipeline::BoundarySetup;
using pipeline::build_model;
using pipeline::check_acoo_mapping;
using pipeline::check_bodies_fixed;
using pipeline::check_distributed;
using pipeline::check_graph_size;
using pipeline::check_loaded;
using pipeline::device_free_bytes;
using pipeline::GraphCounts;
using pipeline::hex8_capacity_lines;
using pipeline::make_oracle;
using pipeline::make_stage_oracle;
using pipeline::Model;
using pipeline::model_bytes;
using pipeline::model_flops_per_element;
using pipeline::Oracle;
using pipeline::paper_flops_per_element;
using pipeline::PointRequest;
using pipeline::problem_of;
using pipeline::problem_parameters;
using pipeline::reference_solution;
using pipeline::ReferenceSolution;
using pipeline::run_point;
using pipeline::run_stages_point;
using pipeline::solution_summary;
using pipeline::StageOracle;
using pipeline::storage_for;
using pipeline::StorageKind;
using pipeline::write_solution;
}  // namespace kfem::app
