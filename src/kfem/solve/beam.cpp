// Timoshenko cantilever tip deflection.
#include "kfem/solve/beam.hpp"

namespace kfem {
double timoshenko_tip_deflection(double P, double L, double b, double h, double E, double nu) {
  const double I = b * h * h * h / 12.0;
  const double A = b * h;
  const double G = E / (2.0 * (1.0 + nu));
  const double kappa = 10.0 * (1.0 + nu) / (12.0 + 11.0 * nu);
  return P * L * L * L / (3.0 * E * I) + P * L / (kappa * G * A);
}
}  // namespace kfem
