// The pipeline's verification stage: a point's assembled matrix against its family's oracle (the
// plain serial host assembly in double, model.hpp's Oracle), entry by entry and pattern for pattern.
#pragma once
#include <nlohmann/json.hpp>
#include <type_traits>

#include "kfem/assembly/reference.hpp"
#include "kfem/pipeline/model.hpp"

namespace kfem::pipeline {
// The largest relative difference a scalar's assembly may show: its rounding over a few hundred adds.
template <class S>
inline constexpr double verify_tolerance = std::is_same_v<S, float> ? 1e-5 : 1e-12;

// The report's "verification" object: status passed | FAILED, the differences, the tolerance and the
// oracle's seconds; status skipped (and why) without an oracle or a matrix on the host. Lower
// storage is compared with the oracle's lower triangle.
template <class S>
nlohmann::json verification(const HostCsr<S>* got, const Oracle& oracle, bool lower) {
  if (!oracle.matrix || !got) return {{"status", "skipped"}, {"reason", "mesh above bench.verify_limit"}};
  const double tol = verify_tolerance<S>;
  const MatrixDiff d = compare(*got, lower ? oracle.lower() : *oracle.matrix);
  return {{"status", d.same_pattern && d.max_rel <= tol ? "passed" : "FAILED"},
          {"max_abs", d.max_abs},
          {"max_rel", d.max_rel},
          {"max_entry_rel", d.max_entry_rel},
          {"same_pattern", d.same_pattern},
          {"tolerance", tol},
          {"oracle_s", oracle.seconds}};
}
}  // namespace kfem::pipeline
