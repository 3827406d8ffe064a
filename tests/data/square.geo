// 2D test mesh for the Gmsh reader: a 2 x 1 rectangle of triangles with named boundary curves.
// Regenerate: gmsh -2 -format msh41 square.geo -o square.msh
SetFactory("Built-in");
h = 0.35;
Point(1) = {0, 0, 0, h};
Point(2) = {2, 0, 0, h};
Point(3) = {2, 1, 0, h};
Point(4) = {0, 1, 0, h};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Physical Curve("bottom") = {1};
Physical Curve("right") = {2};
Physical Curve("top") = {3};
Physical Curve("left") = {4};
Physical Point("origin") = {1};
Physical Surface("plate") = {1};
