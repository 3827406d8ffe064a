#!/usr/bin/python3
"""Independent reference displacements for kfem's elasticity, computed by CalculiX (Debian's ccx).

Reads a Gmsh mesh (any format Gmsh opens; kfem's are MSH 4.1 ASCII) through the gmsh Python API,
writes a CalculiX input deck, runs ccx (SPOOLES, a direct solver) in a temporary directory and
writes the displacements of the mesh's corner nodes as JSON:

    {"nodes": [[x, y, z], ...], "u": [[ux, uy, uz], ...], "tags": [...], "meta": {...}}

(nodes in increasing Gmsh node tag; "tags" are those Gmsh tags; "meta" says how it was made).

Elements: tetrahedra as C3D4 (order 1) or C3D10 (order 2, mid-edge nodes at the midpoints of the
straight edges: kfem's P2 geometry, whatever the file's own high-order nodes), hexahedra as C3D8
(2 x 2 x 2 Gauss, like kfem's hex8) and prisms as C3D8 collapsed onto the wedge (nodes 1 2 3 3
4 5 6 6: the same functions as the linear wedge, integrated exactly on right prisms like kfem's
6-point rule) or, with --prism-element C3D6, as ccx's own wedge (2 integration points, not exact
for the stiffness, so not kfem's discrete solution). Order 2 is for tetrahedral meshes only.

Conditions, by Gmsh physical group name (the node sets kfem's bc.dirichlet names):
  --clamp NAME                 every component 0 on the group's nodes
  --dirichlet NAME=UX,UY,UZ    prescribed components; a component written 'free' (or '-') is left
                               free. Later conditions win on the DOFs they prescribe (kfem: a DOF
                               on several sets takes the last condition's value).
  --force NAME=FX,FY,FZ        a total force spread over the group's surface elements as a uniform
                               traction (consistent nodal loads: the integral of each node's shape
                               function over the faces, normalised so they sum to the total).
At order 2 a set also holds the mid-edge nodes of the edges whose two ends it holds (kfem's rule).

Or take everything from a kfem deck (--deck: mesh.size, element.order, material.E/nu,
bc.dirichlet, load.P); --order, --E and --nu override it, --clamp/--dirichlet replace its
bc.dirichlet and --force its load.P. A deck's load.P is kfem's
cantilever load: total force P in -z on the boundary faces on the plane x = xmax; without
bc.dirichlet the plane x = xmin is clamped.

    tests/reference/calculix.py tet-bracket.msh --order 2 --E 200e9 --nu 0.3 \
        --clamp clamp --dirichlet tip=0,0,-0.01 -o tet-bracket-p2-ccx.json
    tests/reference/calculix.py --deck inputs/tet-bracket.yaml -o tet-bracket-ccx.json
    tests/reference/calculix.py --selftest

Precision: ccx prints displacements with 7 significant digits (the .dat file's E13.6; the .frd
has 6), so the JSON holds the direct solution rounded to 7 digits. Python 3 standard library,
numpy and gmsh (Debian python3-gmsh); PyYAML (python3-yaml) only for --deck.
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

# Gmsh 3D cells by their number of primary (corner) nodes.
CELL_BY_CORNERS = {4: "tet", 8: "hex", 6: "prism"}
# Corner swaps that reverse a cell's orientation (Gmsh and CalculiX share the corner order of all
# three: tet 1-2-3 counter-clockwise seen from 4; prism bottom 1-2-3, top 4-5-6; hex bottom 1-4,
# top 5-8).
FLIP = {"tet": [0, 2, 1, 3], "prism": [0, 2, 1, 3, 5, 4], "hex": [0, 3, 2, 1, 4, 7, 6, 5]}
# The three edges from corner 0 of each cell that span its positive orientation.
AXES = {"tet": (1, 2, 3), "prism": (1, 2, 3), "hex": (1, 3, 4)}
# CalculiX C3D10 (ccx shape10tet.f): corners 1-4, then mid-edge nodes of 1-2, 2-3, 3-1, 1-4,
# 2-4, 3-4 (0-based below).
C3D10_EDGES = [(0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)]
# Faces of each cell (corner indices), for the boundary faces of a deck's cantilever load.
FACES = {
    "tet": [(0, 2, 1), (0, 1, 3), (1, 2, 3), (0, 3, 2)],
    "prism": [(0, 2, 1), (3, 4, 5), (0, 1, 4, 3), (1, 2, 5, 4), (2, 0, 3, 5)],
    "hex": [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)],
}


class Failure(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# The mesh
# ---------------------------------------------------------------------------------------------
class Mesh:
    """Corner nodes, linear cells and physical groups of a Gmsh mesh."""

    def __init__(self):
        self.coords = {}          # Gmsh node tag -> np.array([x, y, z]) (corner nodes only)
        self.cells = []           # (kind, [corner tags]) in the file's order
        self.node_sets = {}       # physical name -> set of corner tags
        self.faces = {}           # physical name -> [corner tags of each surface element]
        self.flipped = 0          # cells whose orientation was reversed to make it positive


_GMSH = []


def gmsh_session():
    """The gmsh module, initialised once (gmsh 4.8 has no isInitialized)."""
    import gmsh
    if not _GMSH:
        gmsh.initialize(readConfigFiles=False)
        gmsh.option.setNumber("General.Terminal", 0)
        _GMSH.append(gmsh)
    return gmsh


def read_current_model(gmsh):
    """The mesh of the Gmsh model now loaded."""
    mesh = Mesh()
    tags, xyz, _ = gmsh.model.mesh.getNodes()
    all_coords = dict(zip((int(t) for t in tags), np.asarray(xyz).reshape(-1, 3)))
    corner_tags = set()
    types, _, node_tags = gmsh.model.mesh.getElements(3)
    for t, nodes in zip(types, node_tags):
        name, _, _, n, _, corners = gmsh.model.mesh.getElementProperties(t)
        kind = CELL_BY_CORNERS.get(corners)
        if kind is None:
            raise Failure(f"unsupported 3D element type {t} ({name}): tetrahedra, hexahedra or prisms only")
        rows = np.asarray(nodes, dtype=np.int64).reshape(-1, n)[:, :corners]
        for row in rows:
            cell = [int(v) for v in row]
            corner_tags.update(cell)
            mesh.cells.append((kind, cell))
    if not mesh.cells:
        raise Failure("no 3D cells (tetrahedra, hexahedra or prisms) in the mesh")
    mesh.coords = {t: np.array(all_coords[t], dtype=float) for t in sorted(corner_tags)}
    for i, (kind, cell) in enumerate(mesh.cells):
        x = [mesh.coords[t] for t in cell]
        a, b, c = AXES[kind]
        if np.linalg.det(np.array([x[a] - x[0], x[b] - x[0], x[c] - x[0]])) < 0:
            mesh.cells[i] = (kind, [cell[k] for k in FLIP[kind]])
            mesh.flipped += 1
    for dim, ptag in gmsh.model.getPhysicalGroups():
        name = gmsh.model.getPhysicalName(dim, ptag) or str(ptag)
        nodes, _ = gmsh.model.mesh.getNodesForPhysicalGroup(dim, ptag)
        mesh.node_sets.setdefault(name, set()).update(int(t) for t in nodes if int(t) in corner_tags)
        if dim == 2:
            for entity in gmsh.model.getEntitiesForPhysicalGroup(dim, ptag):
                etypes, _, enodes = gmsh.model.mesh.getElements(2, entity)
                for t, nodes2 in zip(etypes, enodes):
                    _, _, _, n, _, corners = gmsh.model.mesh.getElementProperties(t)
                    for row in np.asarray(nodes2, dtype=np.int64).reshape(-1, n)[:, :corners]:
                        mesh.faces.setdefault(name, []).append([int(v) for v in row])
    return mesh


def read_mesh(path):
    if not os.path.isfile(path):
        raise Failure(f"{path}: no such mesh file")
    gmsh = gmsh_session()
    gmsh.clear()
    gmsh.open(path)
    try:
        return read_current_model(gmsh)
    finally:
        gmsh.clear()


# ---------------------------------------------------------------------------------------------
# The CalculiX model: DOF nodes (corners, plus mid-edge nodes at order 2), elements, conditions
# ---------------------------------------------------------------------------------------------
class Model:
    def __init__(self, mesh, order, prism_element):
        if order not in (1, 2):
            raise Failure(f"order {order}: 1 or 2")
        if order == 2 and any(kind != "tet" for kind, _ in mesh.cells):
            raise Failure("order 2 is for tetrahedral meshes only (C3D10)")
        if prism_element not in ("C3D8", "C3D6"):
            raise Failure(f"--prism-element {prism_element}: C3D8 (collapsed) or C3D6")
        self.mesh, self.order = mesh, order
        self.coords = dict(mesh.coords)
        self.mid = {}  # sorted corner pair -> mid-edge node id
        next_id = max(self.coords) + 1
        self.elements = {}  # ccx type -> [node ids]
        for kind, cell in mesh.cells:
            if kind == "tet" and order == 2:
                ids = list(cell)
                for a, b in C3D10_EDGES:
                    key = (min(cell[a], cell[b]), max(cell[a], cell[b]))
                    if key not in self.mid:
                        self.mid[key] = next_id
                        self.coords[next_id] = 0.5 * (self.coords[key[0]] + self.coords[key[1]])
                        next_id += 1
                    ids.append(self.mid[key])
                self.elements.setdefault("C3D10", []).append(ids)
            elif kind == "tet":
                self.elements.setdefault("C3D4", []).append(list(cell))
            elif kind == "hex":
                self.elements.setdefault("C3D8", []).append(list(cell))
            elif prism_element == "C3D6":
                self.elements.setdefault("C3D6", []).append(list(cell))
            else:  # the wedge as a collapsed brick: faces 1-2-3-3 and 4-5-6-6
                c = cell
                self.elements.setdefault("C3D8", []).append([c[0], c[1], c[2], c[2], c[3], c[4], c[5], c[5]])

    def dof_nodes(self, corners):
        """The DOF nodes on a set of corner nodes: the corners, and at order 2 the mid-edge nodes
        of the edges with both ends in the set."""
        out = set(corners)
        for (a, b), m in self.mid.items():
            if a in corners and b in corners:
                out.add(m)
        return out

    def named(self, name):
        sets = self.mesh.node_sets
        if name not in sets:
            raise Failure(f"no physical group '{name}' in the mesh (it has: {', '.join(sorted(sets)) or 'none'})")
        if not sets[name]:
            raise Failure(f"physical group '{name}' holds no node of a 3D cell")
        return sets[name]

    def face_loads(self, faces, total):
        """Consistent nodal loads of a uniform traction over `faces` (lists of corner tags),
        scaled to the total force `total`."""
        weight = {}
        g = 1.0 / math.sqrt(3.0)
        for f in faces:
            x = [self.coords[t] for t in f]
            if len(f) == 3:
                area = 0.5 * np.linalg.norm(np.cross(x[1] - x[0], x[2] - x[0]))
                if self.order == 1:
                    for t in f:
                        weight[t] = weight.get(t, 0.0) + area / 3.0
                else:  # the 6-node triangle: corners 0, mid-edge nodes area / 3
                    for a, b in ((0, 1), (1, 2), (2, 0)):
                        m = self.mid[(min(f[a], f[b]), max(f[a], f[b]))]
                        weight[m] = weight.get(m, 0.0) + area / 3.0
            elif len(f) == 4:  # bilinear quadrangle, 2 x 2 Gauss
                for s in (-g, g):
                    for r in (-g, g):
                        n = 0.25 * np.array([(1 - s) * (1 - r), (1 + s) * (1 - r), (1 + s) * (1 + r), (1 - s) * (1 + r)])
                        ds = 0.25 * ((1 - r) * (x[1] - x[0]) + (1 + r) * (x[2] - x[3]))
                        dr = 0.25 * ((1 - s) * (x[3] - x[0]) + (1 + s) * (x[2] - x[1]))
                        jac = np.linalg.norm(np.cross(ds, dr))
                        for k, t in enumerate(f):
                            weight[t] = weight.get(t, 0.0) + n[k] * jac
            else:
                raise Failure(f"surface element with {len(f)} corners")
        s = sum(weight.values())
        if not s > 0:
            raise Failure("the loaded faces have no area")
        return {t: [w / s * c for c in total] for t, w in weight.items()}

    def plane_faces(self, axis, at_max):
        """Boundary faces of the cells on the plane x_axis = min or max (kfem's cantilever)."""
        xyz = np.array(list(self.mesh.coords.values()))
        lo, hi = xyz.min(0), xyz.max(0)
        tol = 1e-9 * np.linalg.norm(hi - lo)
        value = hi[axis] if at_max else lo[axis]
        on = {t for t, x in self.mesh.coords.items() if abs(x[axis] - value) <= tol}
        count = {}
        for kind, cell in self.mesh.cells:
            for face in FACES[kind]:
                f = [cell[k] for k in face]
                key = tuple(sorted(f))
                count[key] = (count[key][0] + 1, f) if key in count else (1, f)
        faces = [f for n, f in count.values() if n == 1 and all(t in on for t in f)]
        return on, faces


def parse_vector(text, what, allow_free):
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 3:
        raise Failure(f"{what}: expected three components, got '{text}'")
    out = []
    for p in parts:
        if allow_free and p.lower() in ("free", "-"):
            out.append(None)
            continue
        try:
            v = float(p)
        except ValueError:
            raise Failure(f"{what}: '{p}' is not a number" + (" or 'free'" if allow_free else "")) from None
        if not math.isfinite(v):
            raise Failure(f"{what}: '{p}' is not finite")
        out.append(v)
    return out


def name_value(text, what):
    if "=" not in text:
        raise Failure(f"{what} '{text}': expected NAME=X,Y,Z")
    name, value = text.rsplit("=", 1)
    return name, value


# ---------------------------------------------------------------------------------------------
# CalculiX
# ---------------------------------------------------------------------------------------------
def nset_name(name, used):
    base = "N_" + re.sub(r"[^A-Za-z0-9_]", "_", name)[:70]
    out, k = base, 1
    while out.upper() in used:
        k += 1
        out = f"{base}_{k}"
    used.add(out.upper())
    return out


def write_inp(path, model, young, poisson, fixed, loads, sets):
    """fixed: {(node, dof 1..3): value}; loads: {node: [fx, fy, fz]}; sets: {name: node ids}."""
    lines = ["*HEADING", "kfem reference (tests/reference/calculix.py)", "*NODE, NSET=NALL"]
    for t in sorted(model.coords):
        x = model.coords[t]
        lines.append(f"{t}, {x[0]!r}, {x[1]!r}, {x[2]!r}")
    eid = 0
    for etype in sorted(model.elements):
        lines.append(f"*ELEMENT, TYPE={etype}, ELSET=E_{etype}")
        for nodes in model.elements[etype]:
            eid += 1
            entries = [str(eid)] + [str(n) for n in nodes]
            # at most 8 entries a line; a trailing comma continues the element on the next one
            rows = [entries[i:i + 8] for i in range(0, len(entries), 8)]
            lines += [", ".join(r) + ("," if i + 1 < len(rows) else "") for i, r in enumerate(rows)]
    used = {"NALL"}
    for name, nodes in sets.items():
        lines.append(f"*NSET, NSET={nset_name(name, used)}")
        ids = sorted(nodes)
        lines += [", ".join(str(n) for n in ids[i:i + 16]) for i in range(0, len(ids), 16)]
    lines += ["*MATERIAL, NAME=MAT", "*ELASTIC", f"{young!r}, {poisson!r}"]
    for etype in sorted(model.elements):
        lines.append(f"*SOLID SECTION, ELSET=E_{etype}, MATERIAL=MAT")
    lines += ["*STEP", "*STATIC, SOLVER=SPOOLES", "*BOUNDARY"]
    for (n, dof), v in sorted(fixed.items()):
        lines.append(f"{n}, {dof}, {dof}, {v!r}")
    if loads:
        lines.append("*CLOAD")
        for n in sorted(loads):
            for dof in range(3):
                if loads[n][dof] != 0:
                    lines.append(f"{n}, {dof + 1}, {loads[n][dof]!r}")
    lines += ["*NODE PRINT, NSET=NALL", "U", "*NODE FILE", "U", "*END STEP", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def ccx_version(ccx):
    try:
        out = subprocess.run([ccx, "-v"], capture_output=True, text=True, timeout=60).stdout
    except OSError:
        return "unknown"
    m = re.search(r"Version\s+(\S+)", out)
    return m.group(1) if m else "unknown"


def run_ccx(ccx, workdir, job="job"):
    env = dict(os.environ)
    for k in ("OMP_NUM_THREADS", "CCX_NPROC_EQUATION_SOLVER", "CCX_NPROC_STIFFNESS", "CCX_NPROC_RESULTS",
              "NUMBER_OF_CPUS"):
        env.setdefault(k, "1")
    proc = subprocess.run([ccx, "-i", job], cwd=workdir, capture_output=True, text=True, env=env)
    log = proc.stdout + proc.stderr
    with open(os.path.join(workdir, job + ".log"), "w") as f:
        f.write(log)
    errors = [l.strip() for l in log.splitlines() if "*ERROR" in l]
    dat = os.path.join(workdir, job + ".dat")
    if proc.returncode != 0 or errors or not os.path.isfile(dat):
        raise Failure(f"ccx failed (exit {proc.returncode}): " + ("; ".join(errors[:5]) or log[-2000:]))
    u = {}
    reading = False
    with open(dat) as f:
        for line in f:
            if line.strip().startswith("displacements"):
                reading = True
                continue
            if reading:
                parts = line.split()
                if len(parts) == 4:
                    u[int(parts[0])] = [float(p) for p in parts[1:]]
                elif parts:
                    reading = False
    if not u:
        raise Failure(f"no displacements in {dat}")
    return u


def solve(mesh, order, young, poisson, dirichlet, forces, prism_element="C3D8", ccx="ccx", keep=None,
          plane_load=None, clamp_xmin=False):
    """Run CalculiX. dirichlet: [(name, [v or None] * 3)] in order; forces: [(name, [fx, fy, fz])];
    plane_load: total force vector on the x = xmax boundary faces (a deck's load.P); clamp_xmin: the
    cantilever's clamp (a deck without bc.dirichlet). Returns (model, {node id: [ux, uy, uz]})."""
    if not (young > 0 and math.isfinite(young)):
        raise Failure(f"E = {young}: need a finite E > 0")
    if not -1 < poisson < 0.5:
        raise Failure(f"nu = {poisson}: need -1 < nu < 0.5")
    model = Model(mesh, order, prism_element)
    fixed, sets = {}, {}
    if clamp_xmin:
        on, _ = model.plane_faces(0, False)
        for n in model.dof_nodes(on):
            for dof in (1, 2, 3):
                fixed[(n, dof)] = 0.0
        sets["xmin"] = model.dof_nodes(on)
    for name, values in dirichlet:
        nodes = model.dof_nodes(model.named(name))
        sets[name] = nodes
        for n in nodes:
            for dof, v in enumerate(values, start=1):
                if v is not None:
                    fixed[(n, dof)] = v
    if not fixed:
        raise Failure("no Dirichlet condition: the body is free (give --clamp or --dirichlet)")
    loads = {}
    for name, total in forces:
        model.named(name)
        faces = mesh.faces.get(name)
        if not faces:
            raise Failure(f"--force {name}: the group has no surface elements (a physical surface is needed)")
        for n, f in model.face_loads(faces, total).items():
            loads[n] = [a + b for a, b in zip(loads.get(n, [0.0] * 3), f)]
    if plane_load is not None and any(plane_load):
        _, faces = model.plane_faces(0, True)
        if not faces:
            raise Failure("load.P: no boundary face lies on the plane x = xmax")
        for n, f in model.face_loads(faces, plane_load).items():
            loads[n] = [a + b for a, b in zip(loads.get(n, [0.0] * 3), f)]
    if not loads and not any(v != 0 for v in fixed.values()):
        raise Failure("no load and every prescribed value is 0: the solution is zero")
    workdir = keep or tempfile.mkdtemp(prefix="kfem-ccx-")
    os.makedirs(workdir, exist_ok=True)
    try:
        write_inp(os.path.join(workdir, "job.inp"), model, young, poisson, fixed, loads, sets)
        u = run_ccx(ccx, workdir)
    finally:
        if not keep:
            shutil.rmtree(workdir, ignore_errors=True)
    missing = [n for n in model.coords if n not in u]
    if missing:
        raise Failure(f"ccx printed no displacement for {len(missing)} nodes (e.g. {missing[:5]})")
    model.fixed, model.loads = fixed, loads
    return model, u


def result_json(model, u, meta):
    tags = sorted(model.mesh.coords)
    return {
        "nodes": [[float(c) for c in model.mesh.coords[t]] for t in tags],
        "u": [u[t] for t in tags],
        "tags": tags,
        "meta": meta,
    }


# ---------------------------------------------------------------------------------------------
# kfem decks
# ---------------------------------------------------------------------------------------------
def read_deck(path):
    import yaml
    with open(path) as f:
        root = yaml.safe_load(f) or {}
    first = lambda v: v[0] if isinstance(v, list) else v
    mesh = root.get("mesh") or {}
    size = first(mesh.get("size", mesh.get("sizes", "16x2x2")))
    if not (isinstance(size, str) and size.endswith(".msh")):
        raise Failure(f"{path}: mesh.size '{size}': the runner reads .msh files only")
    material = root.get("material") or {}
    bc = (root.get("bc") or {}).get("dirichlet") or {}
    dirichlet = []
    for name, v in bc.items():
        values = v if isinstance(v, list) else [v]
        if len(values) != 3:
            raise Failure(f"{path}: bc.dirichlet.{name}: elasticity needs [ux, uy, uz]")
        dirichlet.append((str(name), [float(x) for x in values]))
    if root.get("problem", "elasticity") != "elasticity":
        raise Failure(f"{path}: problem '{root.get('problem')}': the runner is for elasticity")
    return {
        "mesh": size,
        "order": int(first((root.get("element") or {}).get("order", 1))),
        "E": float(material.get("E", 200e9)),
        "nu": float(material.get("nu", 0.333)),
        "dirichlet": dirichlet,
        "P": float((root.get("load") or {}).get("P", 1.0e6)),
    }


# ---------------------------------------------------------------------------------------------
# Self-test: homogeneous uniaxial stress in a unit cube, which every element here reproduces
# exactly, so CalculiX must return it up to its printing (7 significant digits).
# ---------------------------------------------------------------------------------------------
def print_unit(v):
    """A unit in the last (7th significant) digit of v as ccx prints it (E13.6)."""
    a = abs(v)
    return 10.0 ** (math.floor(math.log10(a)) - 6) if a > 1e-300 else 0.0


def cube_mesh(kind, size):
    """A unit cube: 'tet' (OpenCASCADE box, Delaunay tetrahedra) or 'mixed' (a half-recombined
    face extruded in recombined layers: hexahedra and prisms). Physical surfaces x0, x1, y0, z0."""
    gmsh = gmsh_session()
    gmsh.clear()
    gmsh.model.add("cube")
    gmsh.option.setNumber("Mesh.RandomSeed", 1)
    gmsh.option.setNumber("General.NumThreads", 1)
    if kind == "tet":
        gmsh.model.occ.addBox(0, 0, 0, 1, 1, 1)
        gmsh.model.occ.synchronize()
        gmsh.option.setNumber("Mesh.Algorithm3D", 1)
    else:
        geo = gmsh.model.geo
        p = [geo.addPoint(0, y, z) for y, z in ((0, 0), (0.5, 0), (1, 0), (1, 1), (0.5, 1), (0, 1))]
        l = [geo.addLine(p[i], p[(i + 1) % 6]) for i in range(6)]
        mid = geo.addLine(p[1], p[4])
        s1 = geo.addPlaneSurface([geo.addCurveLoop([l[0], mid, l[4], l[5]])])
        s2 = geo.addPlaneSurface([geo.addCurveLoop([l[1], l[2], l[3], -mid])])
        geo.mesh.setTransfiniteCurve(l[0], 3)
        geo.mesh.setTransfiniteCurve(l[4], 3)
        geo.mesh.setTransfiniteCurve(mid, 5)
        geo.mesh.setTransfiniteCurve(l[5], 5)
        geo.mesh.setTransfiniteSurface(s1)
        geo.mesh.setRecombine(2, s1)
        geo.extrude([(2, s1), (2, s2)], 1, 0, 0, numElements=[4], recombine=True)
        geo.synchronize()
    gmsh.model.mesh.setSize(gmsh.model.getEntities(0), size)
    eps = 1e-7
    boxes = {"x0": (-eps, -eps, -eps, eps, 1 + eps, 1 + eps), "x1": (1 - eps, -eps, -eps, 1 + eps, 1 + eps, 1 + eps),
             "y0": (-eps, -eps, -eps, 1 + eps, eps, 1 + eps), "z0": (-eps, -eps, -eps, 1 + eps, 1 + eps, eps)}
    for name, box in boxes.items():
        surfaces = [t for _, t in gmsh.model.getEntitiesInBoundingBox(*box, dim=2)]
        gmsh.model.setPhysicalName(2, gmsh.model.addPhysicalGroup(2, surfaces), name)
    volumes = [t for _, t in gmsh.model.getEntities(3)]
    gmsh.model.setPhysicalName(3, gmsh.model.addPhysicalGroup(3, volumes), "cube")
    gmsh.model.mesh.generate(3)
    mesh = read_current_model(gmsh)
    gmsh.clear()
    return mesh


def textbook(model, young, nu):
    """The same discrete problem solved without CalculiX: element matrices B^T D B by textbook
    shape functions and exact rules (tet4 1 point, tet10 4 points, hex8 2 x 2 x 2 Gauss, the linear
    wedge a degree-2 triangle rule x 2 Gauss points: kfem's rules), a dense solve. For small meshes."""
    lam, mu = young * nu / ((1 + nu) * (1 - 2 * nu)), young / (2 * (1 + nu))
    D = np.zeros((6, 6))
    D[:3, :3] = lam
    D[range(3), range(3)] += 2 * mu
    D[range(3, 6), range(3, 6)] = mu
    g = 1 / math.sqrt(3)
    dL = np.array([[-1.0, -1, -1], [1, 0, 0], [0, 1, 0], [0, 0, 1]])

    def tet10(p):
        L = [1 - sum(p), p[0], p[1], p[2]]
        rows = [(4 * L[i] - 1) * dL[i] for i in range(4)]
        rows += [4 * (L[i] * dL[j] + L[j] * dL[i]) for i, j in C3D10_EDGES]
        return np.array(rows)

    def hex8(p):
        s = np.array([[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1], [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1.0]])
        return np.array([[s[a, 0] * (1 + s[a, 1] * p[1]) * (1 + s[a, 2] * p[2]),
                          s[a, 1] * (1 + s[a, 0] * p[0]) * (1 + s[a, 2] * p[2]),
                          s[a, 2] * (1 + s[a, 0] * p[0]) * (1 + s[a, 1] * p[1])] for a in range(8)]) / 8

    def wedge(p):
        xi, et, ze = p
        a = 1 - xi - et
        return 0.5 * np.array([[-(1 - ze), -(1 - ze), -a], [1 - ze, 0, -xi], [0, 1 - ze, -et],
                               [-(1 + ze), -(1 + ze), a], [1 + ze, 0, xi], [0, 1 + ze, et]])

    a5, b5 = (5 + 3 * math.sqrt(5)) / 20, (5 - math.sqrt(5)) / 20
    rules = {
        "tet4": (lambda p: dL, [((0.25, 0.25, 0.25), 1 / 6)]),
        "tet10": (tet10, [(tuple(a5 if k == i else b5 for k in range(3)), 1 / 24) for i in range(3)]
                  + [((b5, b5, b5), 1 / 24)]),
        "hex": (hex8, [((x, y, z), 1.0) for x in (-g, g) for y in (-g, g) for z in (-g, g)]),
        "prism": (wedge, [((x, y, z), 1 / 6) for x, y in ((1 / 6, 1 / 6), (2 / 3, 1 / 6), (1 / 6, 2 / 3)) for z in (-g, g)]),
    }
    ids = sorted(model.coords)
    at = {t: i for i, t in enumerate(ids)}
    K = np.zeros((3 * len(ids), 3 * len(ids)))
    for kind, cell in model.mesh.cells:
        nodes = list(cell)
        if kind == "tet" and model.order == 2:
            nodes += [model.mid[(min(cell[a], cell[b]), max(cell[a], cell[b]))] for a, b in C3D10_EDGES]
            kind = "tet10"
        elif kind == "tet":
            kind = "tet4"
        shape, rule = rules[kind]
        x = np.array([model.coords[t] for t in nodes])
        ke = np.zeros((3 * len(nodes),) * 2)
        for p, w in rule:
            dN = shape(p)
            J = x.T @ dN  # isoparametric (affine for tetrahedra with mid-edge nodes at midpoints)
            grad = dN @ np.linalg.inv(J)
            B = np.zeros((6, 3 * len(nodes)))
            for k, (gx, gy, gz) in enumerate(grad):
                B[0, 3 * k], B[1, 3 * k + 1], B[2, 3 * k + 2] = gx, gy, gz
                B[3, 3 * k], B[3, 3 * k + 1] = gy, gx
                B[4, 3 * k + 1], B[4, 3 * k + 2] = gz, gy
                B[5, 3 * k], B[5, 3 * k + 2] = gz, gx
            ke += B.T @ D @ B * (np.linalg.det(J) * w)
        dofs = np.array([[3 * at[t] + c for c in range(3)] for t in nodes]).ravel()
        K[np.ix_(dofs, dofs)] += ke
    f = np.zeros(len(K))
    for n, v in model.loads.items():
        f[3 * at[n]: 3 * at[n] + 3] += v
    fixed = np.array(sorted(3 * at[n] + dof - 1 for n, dof in model.fixed))
    values = np.array([model.fixed[(ids[d // 3], d % 3 + 1)] for d in fixed])
    free = np.setdiff1d(np.arange(len(K)), fixed)
    u = np.zeros(len(K))
    u[fixed] = values
    u[free] = np.linalg.solve(K[np.ix_(free, free)], f[free] - K[np.ix_(free, fixed)] @ values)
    return {t: u[3 * i: 3 * i + 3] for i, t in enumerate(ids)}


def selftest(ccx):
    young, nu, stretch = 200e9, 0.3, 1e-3
    # symmetry planes x = 0, y = 0, z = 0 and u_x = 1e-3 on x = 1: uniaxial stress, exactly
    # u = (1e-3 x, -nu 1e-3 y, -nu 1e-3 z)
    symmetry = [("x0", [0.0, None, None]), ("y0", [None, 0.0, None]), ("z0", [None, None, 0.0])]
    pulled = symmetry + [("x1", [stretch, None, None])]
    force = young * stretch  # the same stretch by a total force on x = 1 (area 1): sigma_xx = E * 1e-3

    def exact(x):
        return [stretch * x[0], -nu * stretch * x[1], -nu * stretch * x[2]]

    cases = [
        ("C3D4, u_x prescribed", "tet", 1, "C3D8", pulled, []),
        ("C3D10, u_x prescribed", "tet", 2, "C3D8", pulled, []),
        ("C3D4, force", "tet", 1, "C3D8", symmetry, [("x1", [force, 0.0, 0.0])]),
        ("C3D10, force", "tet", 2, "C3D8", symmetry, [("x1", [force, 0.0, 0.0])]),
        ("C3D8 + collapsed C3D8 prisms, u_x prescribed", "mixed", 1, "C3D8", pulled, []),
        ("C3D8 + C3D6, force", "mixed", 1, "C3D6", symmetry, [("x1", [force, 0.0, 0.0])]),
    ]
    meshes = {"tet": cube_mesh("tet", 0.2), "mixed": cube_mesh("mixed", 0.25)}
    print(f"calculix.py selftest: ccx {ccx_version(ccx)}, unit cube, E = {young:g}, nu = {nu}, "
          f"uniaxial stretch {stretch:g} (symmetry planes x = 0, y = 0, z = 0)")
    for kind, mesh in meshes.items():
        counts = {}
        for k, _ in mesh.cells:
            counts[k] = counts.get(k, 0) + 1
        print(f"  mesh '{kind}': {len(mesh.coords)} corner nodes, "
              + ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
              + (f", {mesh.flipped} reoriented" if mesh.flipped else ""))
    failed = 0
    for label, kind, order, prism, dirichlet, forces in cases:
        try:
            model, u = solve(meshes[kind], order, young, nu, dirichlet, forces, prism_element=prism, ccx=ccx)
        except Failure as e:
            failed += 1
            print(f"  FAIL {label}: {e}")
            continue
        worst, worst_units = 0.0, 0.0
        for n, x in model.coords.items():
            for got, want in zip(u[n], exact(x)):
                err = abs(got - want)
                worst = max(worst, err)
                # in units of the printed last digit; the exact solution is off by rounding only,
                # at most half a unit (+ 1e-12 of the field for the direct solver's round-off)
                unit = print_unit(max(abs(got), abs(want)))
                worst_units = max(worst_units, max(err - 1e-12 * stretch, 0.0) / unit if unit else 0.0)
        ok = worst_units <= 0.5 + 1e-6
        failed += not ok
        types = ", ".join(f"{len(v)} {k}" for k, v in sorted(model.elements.items()))
        print(f"  {'ok  ' if ok else 'FAIL'} {label}: {len(model.coords)} nodes ({types}); "
              f"max |u - exact| = {worst:.3e} = {worst_units:.3f} units of the 7th digit (limit 0.5)")

    # Bending (x = 0 clamped, x = 1 moved by (0, 0, -1e-3), or pushed down by a total force):
    # no element is exact, so ccx must agree with the same discretisation solved by textbook
    # element matrices and exact rules (kfem's), up to ccx's printing.
    coarse = cube_mesh("tet", 0.5)
    bend = [("x0", [0.0, 0.0, 0.0]), ("x1", [0.0, 0.0, -stretch])]
    print(f"  bending, against a textbook assembly with exact rules (dense numpy solve); coarse tet mesh "
          f"{len(coarse.coords)} corner nodes, {len(coarse.cells)} tet")
    cases = [
        ("C3D4, u_z prescribed", coarse, 1, "C3D8", bend, [], True),
        ("C3D10, u_z prescribed", coarse, 2, "C3D8", bend, [], True),
        ("C3D10, force", coarse, 2, "C3D8", bend[:1], [("x1", [0.0, 0.0, -1e6])], True),
        ("C3D8 + collapsed C3D8 prisms, u_z prescribed", meshes["mixed"], 1, "C3D8", bend, [], True),
        ("C3D8 + C3D6 (2-point wedge, expected to differ)", meshes["mixed"], 1, "C3D6", bend, [], False),
    ]
    for label, mesh, order, prism, dirichlet, forces, must_match in cases:
        try:
            model, u = solve(mesh, order, young, nu, dirichlet, forces, prism_element=prism, ccx=ccx)
        except Failure as e:
            failed += 1
            print(f"  FAIL {label}: {e}")
            continue
        ref = textbook(model, young, nu)
        scale = max(abs(v) for r in ref.values() for v in r)
        worst, worst_units = 0.0, 0.0
        for n in model.coords:
            for got, want in zip(u[n], ref[n]):
                err = abs(got - want)
                worst = max(worst, err)
                unit = print_unit(max(abs(got), abs(want)))
                worst_units = max(worst_units, max(err - 1e-10 * scale, 0.0) / unit if unit else 0.0)
        matches = worst_units <= 0.5 + 1e-6
        ok = matches == must_match
        failed += not ok
        print(f"  {'ok  ' if ok else 'FAIL'} {label}: max |u - textbook| / max |u| = {worst / scale:.2e}, "
              f"{worst_units:.3g} units of the 7th digit (limit 0.5)")
    print("selftest " + ("passed" if not failed else f"FAILED ({failed} cases)"))
    return 0 if not failed else 1


# ---------------------------------------------------------------------------------------------
def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Reference displacements for kfem by CalculiX (ccx): Gmsh mesh in, JSON out.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Conditions name Gmsh physical groups. Example:\n"
               "  calculix.py beam.msh --order 2 --E 200e9 --nu 0.3 --clamp clamp "
               "--dirichlet tip=0,0,-0.01 -o ref.json")
    ap.add_argument("mesh", nargs="?", help="Gmsh mesh (.msh); from --deck's mesh.size when omitted")
    ap.add_argument("--deck", help="kfem deck (YAML): mesh.size, element.order, material, bc.dirichlet, load.P")
    ap.add_argument("--order", type=int, help="1 (C3D4) or 2 (C3D10, tetrahedra only); default 1")
    ap.add_argument("--E", type=float, dest="young", help="Young's modulus (default 200e9)")
    ap.add_argument("--nu", type=float, help="Poisson's ratio (default 0.333, kfem's)")
    ap.add_argument("--clamp", action="append", default=[], metavar="NAME", help="all components 0 on NAME")
    ap.add_argument("--dirichlet", action="append", default=[], metavar="NAME=UX,UY,UZ",
                    help="prescribed displacement on NAME; 'free' leaves a component free")
    ap.add_argument("--force", action="append", default=[], metavar="NAME=FX,FY,FZ",
                    help="total force on the surface group NAME, as a uniform traction")
    ap.add_argument("--prism-element", default="C3D8", choices=["C3D8", "C3D6"],
                    help="prisms as collapsed C3D8 (default: exact integration on right prisms) or C3D6")
    ap.add_argument("-o", "--output", help="JSON output (default: stdout)")
    ap.add_argument("--keep", metavar="DIR", help="write job.inp, job.dat, job.frd, job.log into DIR and keep them")
    ap.add_argument("--ccx", default=shutil.which("ccx") or "/usr/bin/ccx", help="the ccx executable")
    ap.add_argument("--selftest", action="store_true", help="check ccx against exact uniaxial solutions")
    args = ap.parse_args(argv)
    try:
        if args.selftest:
            return selftest(args.ccx)
        deck = read_deck(args.deck) if args.deck else None
        path = args.mesh or (deck and deck["mesh"])
        if not path:
            ap.error("give a mesh or --deck")
        order = args.order or (deck["order"] if deck else 1)
        young = args.young if args.young is not None else (deck["E"] if deck else 200e9)
        nu = args.nu if args.nu is not None else (deck["nu"] if deck else 0.333)
        dirichlet = [(name, [0.0, 0.0, 0.0]) for name in args.clamp]
        for text in args.dirichlet:
            name, value = name_value(text, "--dirichlet")
            dirichlet.append((name, parse_vector(value, f"--dirichlet {name}", True)))
        forces = []
        for text in args.force:
            name, value = name_value(text, "--force")
            forces.append((name, parse_vector(value, f"--force {name}", False)))
        plane_load, clamp_xmin = None, False
        if deck and not dirichlet:
            dirichlet = deck["dirichlet"]
            clamp_xmin = not dirichlet
        if deck and not forces:
            plane_load = [0.0, 0.0, -deck["P"]]
        mesh = read_mesh(path)
        model, u = solve(mesh, order, young, nu, dirichlet, forces, prism_element=args.prism_element,
                         ccx=args.ccx, keep=args.keep, plane_load=plane_load, clamp_xmin=clamp_xmin)
        meta = {
            "mesh": path, "deck": args.deck, "order": order, "E": young, "nu": nu,
            "dirichlet": [[n, v] for n, v in dirichlet], "forces": [[n, v] for n, v in forces],
            "cantilever_load": plane_load, "clamp_xmin": clamp_xmin,
            "elements": {k: len(v) for k, v in sorted(model.elements.items())},
            "reoriented_cells": mesh.flipped, "ccx_nodes": len(model.coords),
            "solver": f"CalculiX ccx {ccx_version(args.ccx)}, *STATIC SOLVER=SPOOLES",
            "precision": "7 significant digits (ccx .dat, E13.6)",
        }
        text = json.dumps(result_json(model, u, meta))
        if args.output:
            with open(args.output, "w") as f:
                f.write(text + "\n")
        else:
            print(text)
        return 0
    except Failure as e:
        print(f"calculix.py: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
