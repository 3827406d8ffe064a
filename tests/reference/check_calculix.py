#!/usr/bin/env python3
"""kfem's displacements on a real Gmsh part against CalculiX's (calculix.py), node by node.

usage: check_calculix.py KFEM GEO DECK WORKDIR [--order P]...

Meshes GEO with the gmsh command (MSH 4.1), solves DECK on that mesh with `KFEM run` at each order
(default 1 and 2), exporting the solution as VTU, solves the same problem with CalculiX
(calculix.py --deck DECK MESH --order P), and compares the displacements of every mesh vertex,
matched by coordinates. Both codes build the same discrete problem (same elements, exact rules),
so they must agree to the precision CalculiX prints (7 significant digits) plus kfem's CG
tolerance: max |u_kfem - u_ccx| <= 1e-6 max |u_ccx| at every order, or the check fails (exit 1).
A second, failing comparison (kfem's P1 against CalculiX's P2, which differ by discretisation
error) shows that the check can fail."""
import json
import pathlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = pathlib.Path(__file__).resolve().parent
TOLERANCE = 1e-6


def run(cmd):
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"check_calculix: {' '.join(map(str, cmd))} failed (exit {done.returncode}):\n"
                 f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return done.stdout


def read_vtu(path):
    """Points and the 3-component point field 'displacement' of kfem's ASCII VTU."""
    root = ET.parse(path).getroot()

    def triples(array):
        values = [float(v) for v in array.text.split()] if array is not None else []
        return [values[i:i + 3] for i in range(0, len(values), 3)]

    points = triples(root.find(".//Points/DataArray"))
    field = triples(root.find(".//PointData/DataArray[@Name='displacement']"))
    if not points or len(points) != len(field):
        sys.exit(f"check_calculix: {path}: no points with a 'displacement' field")
    return points, field


def key(x):
    return tuple(round(c, 9) for c in x)


def compare(vtu, ccx_json):
    points, u = read_vtu(vtu)
    at = {key(x): v for x, v in zip(points, u)}
    ref = json.load(open(ccx_json))
    worst, scale, missing = 0.0, 0.0, 0
    for x, v in zip(ref["nodes"], ref["u"]):
        mine = at.get(key(x))
        if mine is None:
            missing += 1
            continue
        worst = max(worst, max(abs(a - b) for a, b in zip(mine, v)))
        scale = max(scale, max(abs(b) for b in v))
    if missing:
        sys.exit(f"check_calculix: {missing} of CalculiX's nodes are not points of {vtu}")
    return worst, scale, len(ref["nodes"])


def main():
    args = sys.argv[1:]
    orders = []
    while "--order" in args:
        i = args.index("--order")
        orders.append(int(args[i + 1]))
        del args[i:i + 2]
    if len(args) != 4:
        sys.exit(__doc__)
    kfem, geo, deck, work = args
    orders = orders or [1, 2]
    work = pathlib.Path(work)
    work.mkdir(parents=True, exist_ok=True)
    mesh = work / (pathlib.Path(geo).stem + ".msh")
    run(["gmsh", "-3", geo, "-format", "msh41", "-o", mesh])
    failed = False
    for p in orders:
        vtu, ref = work / f"kfem-p{p}.vtu", work / f"ccx-p{p}.json"
        out = run([kfem, "run", deck, "--mesh", mesh, "--order", p, "--export-solution", vtu,
                   "--report", work / f"kfem-p{p}.json"])
        if not re.search(r"verification\s+passed", out):
            sys.exit(f"check_calculix: kfem's assembly did not verify at order {p}:\n{out}")
        run([sys.executable, HERE / "calculix.py", "--deck", deck, mesh, "--order", p, "-o", ref])
        worst, scale, n = compare(vtu, ref)
        ok = worst <= TOLERANCE * scale
        failed |= not ok
        print(f"order {p}: {n} vertices, max |u_kfem - u_ccx| = {worst:.3e} = {worst / scale:.2e} max |u| "
              f"(limit {TOLERANCE:g}): {'ok' if ok else 'FAILED'}")
    if 1 in orders and 2 in orders:  # the check can fail: P1 against P2 differ by far more
        worst, scale, _ = compare(work / "kfem-p1.vtu", work / "ccx-p2.json")
        print(f"control: kfem P1 against CalculiX P2 differ by {worst / scale:.2e} max |u| "
              f"({'above' if worst > TOLERANCE * scale else 'NOT above'} the limit, as it must be)")
        failed |= worst <= TOLERANCE * scale
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
