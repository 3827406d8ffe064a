// 3D test mesh for the Gmsh reader: a triangulated 2 x 1 rectangle extruded by 1 in 2 layers of
// 6-node prisms, with named faces and the volume as a physical group.
// Regenerate: gmsh -3 -format msh41 prism_layer.geo -o prism_layer.msh
SetFactory("Built-in");
h = 0.5;
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
out[] = Extrude {0, 0, 1} { Surface{1}; Layers{2}; Recombine; };
// out[0]: the top surface, out[1]: the volume, out[2..5]: the sides extruded from lines 1..4.
Physical Surface("bottom") = {1};
Physical Surface("top") = {out[0]};
Physical Surface("xmin") = {out[5]};
Physical Surface("xmax") = {out[3]};
Physical Volume("solid") = {out[1]};
