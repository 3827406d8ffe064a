// Capacitor spec checks, the triangle-count model and the plate potentials (no Gmsh needed).
#include "kfem/problems/capacitor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kfem/core/error.hpp"
#include "kfem/problems/capacitor_mesher.hpp"

namespace kfem {
namespace {
// Triangles per unit of int (1 / size^2) dA, fitted to Gmsh 4.8 on the default geometry over
// sizes 0.025..0.1 and border ratios 0.05..0.25 (spread +-1%).
double triangles_per_unit(int algorithm) {
  return algorithm == 6 ? 2.36 : 2.63;
}

// Cell edges of a 1D midpoint grid over [lo, hi]: the breakpoints are kept, and each piece is
// split into cells of at most `fine` where it overlaps [band_lo, band_hi] (the refined zone, where
// the integrand varies), else left whole (the integrand is constant there).
std::vector<double> grid(double lo, double hi, std::vector<double> breaks, double band_lo, double band_hi,
                         double fine) {
  breaks.push_back(lo);
  breaks.push_back(hi);
  for (double& b : breaks) b = std::clamp(b, lo, hi);
  std::sort(breaks.begin(), breaks.end());
  breaks.erase(std::unique(breaks.begin(), breaks.end()), breaks.end());
  std::vector<double> edges{breaks.front()};
  for (std::size_t i = 1; i < breaks.size(); ++i) {
    const double a = breaks[i - 1], b = breaks[i];
    const bool in_band = b > band_lo && a < band_hi;
    const int cells = in_band ? std::max(1, int(std::ceil((b - a) / fine))) : 1;
    for (int c = 1; c <= cells; ++c) edges.push_back(a + (b - a) * c / cells);
  }
  return edges;
}
}  // namespace

void check_capacitor_spec(const CapacitorSpec& s) {
  const auto positive = [](double v, const char* name) {
    if (!(v > 0) || !std::isfinite(v))
      throw InputError(fmt::format("capacitor: {} must be > 0 (got {})", name, v));
  };
  positive(s.box_width, "box_width");
  positive(s.box_height, "box_height");
  positive(s.plate_length, "plate_length");
  positive(s.plate_thickness, "plate_thickness");
  positive(s.gap, "gap");
  positive(s.size, "size");
  positive(s.border_width, "border_width");
  if (!(s.plate_length < s.box_width))
    throw InputError(
        fmt::format("capacitor: plate_length {} must be < box_width {}", s.plate_length, s.box_width));
  const double stack = 2 * s.plate_thickness + s.gap;
  if (!(stack < s.box_height))
    throw InputError(
        fmt::format("capacitor: plates and gap ({}) must fit in box_height {}", stack, s.box_height));
  if (!(s.border_ratio > 0 && s.border_ratio <= 1))
    throw InputError(fmt::format("capacitor: border_ratio must be in (0, 1] (got {})", s.border_ratio));
  if (s.refine < 0 || s.refine > 8)
    throw InputError(fmt::format("capacitor: refine must be in 0..8 (got {})", s.refine));
  if (s.algorithm != 1 && s.algorithm != 2 && s.algorithm != 5 && s.algorithm != 6)
    throw InputError(
        fmt::format("capacitor: Gmsh Mesh.Algorithm must be 1, 2, 5 or 6 (got {})", s.algorithm));
  if (s.threads < 0) throw InputError(fmt::format("capacitor: threads must be >= 0 (got {})", s.threads));
  const double estimate = capacitor_triangles(s);
  if (estimate > 0.5 * double(std::numeric_limits<ordinal_t>::max()))
    throw InputError(
        fmt::format("capacitor: about {:.3g} triangles is more than kfem's 32-bit ids hold", estimate));
}

double capacitor_triangles(const CapacitorSpec& s) {
  const double w = s.box_width / 2, h = s.box_height / 2, l = s.plate_length / 2, bw = s.border_width;
  const double y_top[2] = {s.gap / 2, s.gap / 2 + s.plate_thickness};
  const double y_bot[2] = {-s.gap / 2 - s.plate_thickness, -s.gap / 2};
  const double fine = std::min({s.plate_thickness, s.gap, bw}) / 4;
  const auto xs = grid(-w, w, {-l - bw, -l, l, l + bw}, -l - bw, l + bw, fine);
  const auto ys = grid(-h, h, {y_bot[0] - bw, y_bot[0], y_bot[1], y_top[0], y_top[1], y_top[1] + bw},
                       y_bot[0] - bw, y_top[1] + bw, fine);
  // size(x) / s.size: border_ratio on a plate, growing linearly to 1 at border_width.
  const auto ratio = [&](double x, double y, const double(&py)[2]) {
    const double dx = std::max({-l - x, x - l, 0.0}), dy = std::max({py[0] - y, y - py[1], 0.0});
    return s.border_ratio + (1 - s.border_ratio) * std::min(std::hypot(dx, dy) / bw, 1.0);
  };
  double integral = 0;  // int (s.size / size(x))^2 dA over the air
  for (std::size_t j = 0; j + 1 < ys.size(); ++j) {
    const double y = 0.5 * (ys[j] + ys[j + 1]), dy = ys[j + 1] - ys[j];
    for (std::size_t i = 0; i + 1 < xs.size(); ++i) {
      const double x = 0.5 * (xs[i] + xs[i + 1]), dx = xs[i + 1] - xs[i];
      const bool in_plate =
          std::abs(x) < l && ((y > y_top[0] && y < y_top[1]) || (y > y_bot[0] && y < y_bot[1]));
      if (in_plate) continue;
      const double r = std::min(ratio(x, y, y_top), ratio(x, y, y_bot));
      integral += dx * dy / (r * r);
    }
  }
  return triangles_per_unit(s.algorithm) * integral / (s.size * s.size) * std::pow(4.0, s.refine);
}

CapacitorSpec capacitor_spec_for(double triangles, CapacitorSpec base) {
  if (!(triangles >= 100) || !std::isfinite(triangles))
    throw InputError(fmt::format("capacitor: target triangle count must be >= 100 (got {})", triangles));
  constexpr double max_base = 1e5;  // Gmsh's Delaunay slows down superlinearly beyond this
  base.target_triangles = 0;
  base.refine = 0;
  base.size = 1.0;
  check_capacitor_spec(base);  // the geometry, before the count model relies on it
  while (triangles / std::pow(4.0, base.refine) > max_base) ++base.refine;
  const double at_unit_size = capacitor_triangles(base) / std::pow(4.0, base.refine);
  base.size = std::sqrt(at_unit_size / (triangles / std::pow(4.0, base.refine)));
  return base;
}

Mesh make_capacitor(const CapacitorSpec& spec) {
  const CapacitorSpec s = spec.target_triangles > 0 ? capacitor_spec_for(spec.target_triangles, spec) : spec;
  check_capacitor_spec(s);
  return capacitor_detail::mesh_with_gmsh(s);
}

std::vector<DirichletCondition> capacitor_conditions(double V) {
  return {{"top_plate", {0.5 * V}}, {"bottom_plate", {-0.5 * V}}, {"outer", {0.0}}};
}
}  // namespace kfem
