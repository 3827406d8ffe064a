// Geometric sanity checks for every cell family: each element must map its reference cell
// one-to-one (det J > 0 where it is sampled) and every coordinate must be finite.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "kfem/mesh/mesh.hpp"

namespace kfem {
// Throws InputError "<source>: node N has a non-finite coordinate (...)" for the first such node,
// else "<source>: element E (nodes ...): <what>" for the first element that references a node out
// of range, has an unused slot (past nodes_per_element()) other than -1, or is inverted,
// degenerate or not finite. Per family:
//   hex8    det J at the 8 corners and the 2x2x2 Gauss points;
//   prism6  det J at the 6 corners and the 6 Gauss points (3-point triangle rule x 2 in z) of the
//           linear prism on {x, y >= 0, x + y <= 1, 0 <= z <= 1} (Gmsh's vertex order);
//   tet4    det J = (v1-v0).((v2-v0)x(v3-v0)) (constant; six times the signed volume): positive
//           when vertices 0 1 2 turn counter-clockwise seen from vertex 3 (Gmsh's orientation);
//   tri3    the signed area in the xy plane (z is ignored): counter-clockwise is valid.
// "Degenerate" is size- and aspect-ratio-free: det J <= 1e-12 * (product of J's row lengths); for
// tetrahedra det J <= 1e-12 * (product of the three edge lengths at a corner) at every corner, i.e.
// the largest polar sine of a corner is below 1e-12 (the corner with the smallest product decides,
// so needles pass and flat tetrahedra fail); for triangles 2 * area <= 1e-12 * (largest product of
// two edge lengths), i.e. some angle has sin < 1e-12 (a product of all three edges would not scale
// like an area). This also catches flat elements whose det J rounding left slightly positive.
// Last, it throws "<source>: elements A and B have the same nodes (...)" for the pair that
// find_duplicate_elements returns.
void check_elements(const Mesh&, const std::string& source);

// Two elements with the same vertex set, in any order (a cell listed twice would be assembled
// twice): of all such pairs (A, B), A < B, the one with the smallest B, then the smallest A; or
// nullopt. Expects in-range node ids. O(n log n) for n elements, linear in practice: elements are
// bucketed by their smallest vertex, and only each bucket's sorted vertex lists are compared.
std::optional<std::pair<std::size_t, std::size_t>> find_duplicate_elements(const Mesh&);

// Why element e is geometrically invalid ("det J = -0.125 at corner 0 (inverted element)",
// "det J = -1 (inverted element: vertices 0 1 2 turn clockwise seen from vertex 3)", "signed area =
// -0.5 (inverted element: clockwise in the xy plane)"), or nullopt when it is fine. Expects
// in-range node ids. Readers use it to name the element by its file tag and line.
std::optional<std::string> element_defect(const Mesh&, std::size_t e);

// Signed measure of element e: volume (hex8: 2x2x2 Gauss, exact for parallelepipeds; prism6:
// 3-point triangle rule x 2-point Gauss in z, exact for every linear prism; tet4: det J / 6, exact)
// or area (tri3).
double element_volume(const Mesh&, std::size_t e);
}  // namespace kfem
