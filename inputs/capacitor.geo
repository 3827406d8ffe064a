// The amorim §III capacitor for machines where kfem is built without Gmsh (KFEM_WITH_GMSH=OFF):
// the same geometry, size field, physical groups and mesh as kfem::make_capacitor
// (src/kfem/problems/capacitor.hpp; keep the two in step). Lengths in inches. Mesh it with
//   gmsh inputs/capacitor.geo -setnumber size 0.05 -setnumber refine 0 -save -o capacitor.msh
// (-save, not -2: -2 would mesh the refined surface again). Triangles ~ 72 / size^2 * 4^refine
// with the default box; make_capacitor's capacitor_spec_for picks size and refine for a count.
DefineConstant[
  box_width = {4.0, Name "box_width"}, box_height = {2.0, Name "box_height"},
  plate_length = {2.0, Name "plate_length"}, plate_thickness = {1/64, Name "plate_thickness"}, gap = {1/32, Name "gap"},
  size = {0.05, Name "size"}, border_ratio = {0.125, Name "border_ratio"}, border_width = {0.5, Name "border_width"},
  refine = {0, Name "refine"}
];
w = box_width / 2; h = box_height / 2; l = plate_length / 2; g = gap / 2; t = plate_thickness;
// Rectangles k = 0 (box), 1 (top plate), 2 (bottom plate): points 4k+1..4k+4, lines likewise,
// counter-clockwise.
xs[] = {-w, w, -l, l, -l, l};
ys[] = {-h, h, g, g + t, -g - t, -g};
For k In {0 : 2}
  Point(4 * k + 1) = {xs[2 * k], ys[2 * k], 0};
  Point(4 * k + 2) = {xs[2 * k + 1], ys[2 * k], 0};
  Point(4 * k + 3) = {xs[2 * k + 1], ys[2 * k + 1], 0};
  Point(4 * k + 4) = {xs[2 * k], ys[2 * k + 1], 0};
  For i In {0 : 3}
    Line(4 * k + i + 1) = {4 * k + i + 1, 4 * k + (i + 1) % 4 + 1};
  EndFor
EndFor
outer[] = {1 : 4}; top[] = {5 : 8}; bottom[] = {9 : 12};
Curve Loop(1) = outer[]; Curve Loop(2) = top[]; Curve Loop(3) = bottom[];
Plane Surface(1) = {1, 2, 3};
Physical Curve("top_plate") = top[];
Physical Curve("bottom_plate") = bottom[];
Physical Curve("outer") = outer[];
Physical Surface("air") = {1};
Field[1] = Box; Field[1].VIn = border_ratio * size; Field[1].VOut = size; Field[1].XMin = -l; Field[1].XMax = l;
Field[1].YMin = g; Field[1].YMax = g + t; Field[1].ZMin = -1; Field[1].ZMax = 1; Field[1].Thickness = border_width;
Field[2] = Box; Field[2].VIn = border_ratio * size; Field[2].VOut = size; Field[2].XMin = -l; Field[2].XMax = l;
Field[2].YMin = -g - t; Field[2].YMax = -g; Field[2].ZMin = -1; Field[2].ZMax = 1; Field[2].Thickness = border_width;
// Element size border_ratio * size on the plates, growing linearly with the exact distance to
// the nearer plate up to size at border_width.
Field[3] = Min; Field[3].FieldsList = {1, 2};
Background Field = 3;
Mesh.MeshSizeFromPoints = 0; Mesh.MeshSizeFromCurvature = 0; Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.Algorithm = 5;  // Delaunay: the fastest 2D algorithm here
Mesh 2;
For r In {1 : refine}
  RefineMesh;
EndFor
