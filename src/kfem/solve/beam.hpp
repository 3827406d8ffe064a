// Analytic reference for the cantilever: Timoshenko beam theory (bending + shear deflection).
#pragma once

namespace kfem {
// Tip deflection magnitude of a cantilever of length L with a b x h rectangular section under an
// end load P: P L^3 / (3 E I) + P L / (kappa G A), I = b h^3 / 12, A = b h, G = E / (2 (1 + nu)),
// kappa = 10 (1 + nu) / (12 + 11 nu) (Cowper's shear coefficient for a rectangle).
// Positive for positive P, i.e. the distance the tip moves in the direction of the load.
double timoshenko_tip_deflection(double P, double L, double b, double h, double E, double nu);
}  // namespace kfem
