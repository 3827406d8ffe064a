#!/usr/bin/env python3
"""Reads kfem's exports with standard tools (scipy for MatrixMarket, meshio for Gmsh 4.1 and VTU).
usage: check_exports.py KFEM WORKDIR"""
import os
import subprocess
import sys

import meshio
import numpy as np
import scipy.io

kfem, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)


def run(mapping, tag):
    files = {k: os.path.join(work, f"{tag}.{k}") for k in ("mtx", "msh", "vtu", "json")}
    subprocess.run([kfem, "run", "--mesh", "6x2x2", "--renumber", "random", "--mapping", mapping, "--race", "atomic",
                    "--export-matrix", files["mtx"], "--export-mesh", files["msh"], "--export-solution", files["vtu"],
                    "--report", files["json"]], check=True, stdout=subprocess.DEVNULL)
    return files


full, sym = run("element", "full"), run("sym300", "sym")
mesh = meshio.read(full["msh"])
nodes, hexes = len(mesh.points), sum(len(c.data) for c in mesh.cells if c.type == "hexahedron")
assert (nodes, hexes) == (7 * 3 * 3, 6 * 2 * 2), (nodes, hexes)

A = scipy.io.mmread(full["mtx"]).tocsr()
assert A.shape == (3 * nodes, 3 * nodes), A.shape
assert abs(A - A.T).max() <= 1e-9 * abs(A).max(), "full export is not symmetric"
L = scipy.io.mmread(sym["mtx"]).tocsr()  # 'symmetric' header: scipy expands the lower triangle
assert abs(L - A).max() <= 1e-9 * abs(A).max(), "symmetric export differs from the full one"
# rigid translation in x: no force anywhere (the global matrix is assembled before constraints)
u = np.zeros(3 * nodes)
u[0::3] = 1.0
assert abs(A @ u).max() <= 1e-9 * abs(A).max()

vtu = meshio.read(full["vtu"])
d = vtu.point_data["displacement"]
assert d.shape == (nodes, 3) and len(vtu.points) == nodes
assert d[:, 2].min() < 0, "the beam should bend downwards"
print(f"exports read back: {nodes} nodes, {hexes} hexahedra, matrix {A.shape[0]}x{A.shape[1]} nnz {A.nnz}")
