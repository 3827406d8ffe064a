// A mixed hexahedron + prism mesh: the 2 x 2 cross-section (the yz plane at x = 0) of a 10 x 2 x 2
// beam (x along the span), its half y < 1 meshed into structured quadrangles and its half y > 1 into
// triangles, extruded along x in recombined layers: quadrangles give hexahedra (Gmsh type 5),
// triangles prisms (type 6). Mesh it with
//   gmsh -3 inputs/mixed-extrusion.geo -format msh41 -o mixed-extrusion.msh
// Physical groups: "clamp" (the face x = 0), "tip" (the face x = 10), "beam" (both volumes).
// The input of issue 78's mixed meshes: until kfem assembles several cell types in one mesh it
// refuses this one (one line naming both types); tests/reference/calculix.py solves it.
// Deterministic (structured layers, fixed 2D algorithm and seed): Debian's gmsh 4.8.4 gives
// 512 hexahedra and 1,120 prisms, 1,377 nodes, with the default size.
DefineConstant[
  size = {0.25, Name "size"},        // triangle size on the y > 1 half, quadrangle size on the other
  layers = {16, Name "layers"}       // element layers along x
];
n = Round(2 / size);  // quadrangles along z (and 1 / size along y)
// Cross-section points (x = 0): corners of the two halves.
Point(1) = {0, 0, 0}; Point(2) = {0, 1, 0}; Point(3) = {0, 2, 0};
Point(4) = {0, 2, 2}; Point(5) = {0, 1, 2}; Point(6) = {0, 0, 2};
Line(1) = {1, 2}; Line(2) = {2, 5}; Line(3) = {5, 6}; Line(4) = {6, 1};  // the y < 1 half
Line(5) = {2, 3}; Line(6) = {3, 4}; Line(7) = {4, 5};                    // the y > 1 half (shares 2)
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Curve Loop(2) = {5, 6, 7, -2};
Plane Surface(2) = {2};
Transfinite Curve{1, 3} = Round(1 / size) + 1;
Transfinite Curve{2, 4} = n + 1;
Transfinite Surface{1};
Recombine Surface{1};                 // quadrangles on surface 1 only; surface 2 stays triangles
MeshSize{3, 4} = size;
// Both halves in one extrusion, so their common lateral face is one surface with one mesh.
// ex[]: top of 1, volume of 1, its 4 laterals, top of 2, volume of 2, its 4 laterals.
ex[] = Extrude {10, 0, 0} { Surface{1, 2}; Layers{layers}; Recombine; };
Physical Surface("clamp") = {1, 2};
Physical Surface("tip") = {ex[0], ex[6]};
Physical Volume("beam") = {ex[1], ex[7]};
Mesh.Algorithm = 6;     // 2D: Frontal-Delaunay (the triangles of surface 2)
Mesh.RandomSeed = 1;
General.NumThreads = 1;
Mesh.ElementOrder = 1;
