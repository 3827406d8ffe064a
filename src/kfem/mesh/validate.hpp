// Geometric sanity checks for hex meshes: every element must map the reference cube one-to-one
// (det J > 0 at its corners and Gauss points) and every coordinate must be finite.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include "kfem/mesh/hex_mesh.hpp"

namespace kfem {
// Throws InputError "<source>: node N has a non-finite coordinate (...)" for the first such node,
// else "<source>: element E (nodes ...): <what>" for the first element that references a node out
// of range or whose Jacobian is inverted, degenerate or not finite at any corner or Gauss point.
// "Degenerate" means det J <= 1e-12 * (product of J's row lengths): a size- and aspect-ratio-free
// threshold that also catches flat elements whose det J rounding left slightly positive.
void check_elements(const HexMesh&, const std::string& source);

// Why element e is geometrically invalid ("det J = -0.125 at corner 0 (inverted element)"),
// or nullopt when it is fine. Expects in-range node ids. Readers use it to name the element by
// its file tag and line instead of its index.
std::optional<std::string> element_defect(const HexMesh&, std::size_t e);

// Volume of element e by 2x2x2 Gauss quadrature of det J (exact for parallelepipeds).
double element_volume(const HexMesh&, std::size_t e);
}  // namespace kfem
