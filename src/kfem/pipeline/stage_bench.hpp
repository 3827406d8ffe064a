// banas' stage bench (bench.stages): the element matrices Ae of every prism of the mesh integrated
// on the device in launches as large as memory allows and brought back to the host, each stage
// timed per element as banas Tables 5-7 do (input preparation, device memory initialisation,
// host-to-device, kernel, device-to-host), with the kernel parameters of Tables 3-4, the paper's
// flop model next to the flops the kernel executes, and GFLOP/s. Sampled Ae are checked against
// the host reference with the same quadrature before a time is kept.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "kfem/pipeline/model.hpp"
#include "kfem/pipeline/point.hpp"

namespace kfem::pipeline {
// Reference Ke (double, reference_lagrange_matrix) of a few elements spread over the mesh.
struct StageOracle {
  std::vector<ordinal_t> elements;
  std::vector<std::vector<double>> matrices;
  double seconds = 0;
};
StageOracle make_stage_oracle(const Model& model, const Settings& settings);

// One point: req.mapping must be a generic mapping that serves prisms; throws InputError otherwise.
nlohmann::json run_stages_point(const Model& model, const Settings& settings, const PointRequest& req,
                                const StageOracle& oracle);

// banas' flop model of one element: 63 flops per 3 x 3 block and quadrature point (§5.3; Table 5's
// counts are this within 4 % at p = 2 and 0.1 % at p = 7).
double paper_flops_per_element(const Model& model);
}  // namespace kfem::pipeline
