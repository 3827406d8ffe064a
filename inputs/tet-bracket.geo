// A small real part for kfem's tetrahedra: a 10 x 2 x 2 beam (x along the span) with a
// cylindrical hole of radius 0.5 through it (axis along z at x = 5, y = 1), meshed into linear
// tetrahedra (tet4) by Gmsh's 3D Delaunay: 6,396 tets and 1,680 nodes with the default size
// (Debian's gmsh 4.8.4). Mesh it with
//   gmsh -3 inputs/tet-bracket.geo -format msh41 -o tet-bracket.msh
// For tet10 from Gmsh add -order 2; kfem reads a tet10 file's corners only and numbers its own
// P2 nodes (element.order / --order 2), so the order-1 file serves both orders.
// Physical groups (kfem node and cell sets): "clamp" (the face x = 0), "tip" (the face x = 10),
// "bracket" (the volume). Deterministic: fixed 2D/3D algorithms, seed and a single thread
// (Debian's gmsh 4.8.4 gives the same file on every run).
SetFactory("OpenCASCADE");
DefineConstant[
  size = {0.35, Name "size"},     // target tetrahedron edge length (the hole's curvature refines it)
  radius = {0.5, Name "radius"}
];
Box(1) = {0, 0, 0, 10, 2, 2};
Cylinder(2) = {5, 1, 0, 0, 0, 2, radius};
BooleanDifference(3) = { Volume{1}; Delete; }{ Volume{2}; Delete; };
eps = 1e-6;
clamp[] = Surface In BoundingBox {-eps, -eps, -eps, eps, 2 + eps, 2 + eps};
tip[] = Surface In BoundingBox {10 - eps, -eps, -eps, 10 + eps, 2 + eps, 2 + eps};
Physical Surface("clamp") = clamp[];
Physical Surface("tip") = tip[];
Physical Volume("bracket") = {3};
Mesh.MeshSizeMin = 0;
Mesh.MeshSizeMax = size;
Mesh.MeshSizeFromCurvature = 16;   // elements per 2 pi along the hole
Mesh.Algorithm = 6;                // 2D: Frontal-Delaunay
Mesh.Algorithm3D = 1;              // 3D: Delaunay
Mesh.RandomSeed = 1;
General.NumThreads = 1;
Mesh.ElementOrder = 1;             // the deck / CLI chooses kfem's order; gmsh -order 2 gives tet10
