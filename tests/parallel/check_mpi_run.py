#!/usr/bin/env python3
"""`kfem run` under mpirun against the same run on one rank (issue 19's acceptance, in CI).

  check_mpi_run.py KFEM MPIEXEC RANKS WORKDIR [kfem run arguments...]

Runs `KFEM run ARGS` alone and `MPIEXEC -np RANKS KFEM run ARGS`, each exporting the matrix, the
solution and the report, and checks: both exit 0; the gathered matrix has the single run's pattern
and entries to 1e-12 of its largest; the solution agrees to 1e-10 of its largest entry; the
summary's read-out lines (tip deflection, capacitance) are the same text; the report names RANKS
ranks. Standard library only.
"""
import json
import os
import re
import shutil
import subprocess
import sys


def read_mtx(path):
    entries = {}
    with open(path) as f:
        lines = [l for l in f if not l.startswith("%")]
    for l in lines[1:]:
        i, j, v = l.split()
        entries[(int(i), int(j))] = float(v)
    return lines[0].split(), entries


def read_solution(path):
    text = open(path).read()
    m = re.search(r'<DataArray[^>]*Name="(displacement|potential)"[^>]*>(.*?)</DataArray>', text, re.S)
    if not m:
        sys.exit(f"{path}: no displacement or potential")
    return [float(x) for x in m.group(2).split()]


def run(cmd, log):
    with open(log, "w") as out:
        rc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT).returncode
    text = open(log).read()
    if rc != 0:
        sys.exit(f"exit {rc}: {' '.join(cmd)}\n{text}")
    return text


def main():
    kfem, mpiexec, ranks, work = sys.argv[1:5]
    args = sys.argv[5:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    outs = {}
    for tag, prefix in (("one", []), ("many", [mpiexec, "--allow-run-as-root", "--oversubscribe", "-np", ranks])):
        files = [f"{work}/{tag}.{ext}" for ext in ("mtx", "vtu", "json")]
        cmd = prefix + [kfem, "run", *args, "--export-matrix", files[0], "--export-solution", files[1],
                        "--report", files[2]]
        outs[tag] = (run(cmd, f"{work}/{tag}.log"), *files)

    (log1, mtx1, vtu1, rep1), (logn, mtxn, vtun, repn) = outs["one"], outs["many"]
    size1, k1 = read_mtx(mtx1)
    sizen, kn = read_mtx(mtxn)
    if size1 != sizen or k1.keys() != kn.keys():
        sys.exit(f"matrix pattern differs: {size1} vs {sizen}")
    scale = max(abs(v) for v in k1.values())
    diff = max(abs(k1[k] - kn[k]) for k in k1)
    if diff > 1e-12 * scale:
        sys.exit(f"matrix differs: max |diff| {diff:.3e} > 1e-12 x {scale:.3e}")

    u1, un = read_solution(vtu1), read_solution(vtun)
    uscale = max(abs(x) for x in u1)
    udiff = max(abs(a - b) for a, b in zip(u1, un)) if len(u1) == len(un) else float("inf")
    if not udiff <= 1e-10 * uscale:
        sys.exit(f"solution differs: max |diff| {udiff:.3e} > 1e-10 x {uscale:.3e}")

    readouts = [re.findall(r"^  (?:tip deflection|capacitance) .*$", log, re.M) for log in (log1, logn)]
    if not readouts[0] or readouts[0] != readouts[1]:
        sys.exit(f"read-out lines differ:\n{readouts[0]}\n{readouts[1]}")
    dist = json.load(open(repn))["point"].get("distributed", {})
    if dist.get("ranks") != int(ranks):
        sys.exit(f"report: ranks {dist.get('ranks')}, expected {ranks}")
    print(f"{ranks} ranks: matrix max |diff| {diff / scale:.2e} (relative), solution {udiff / uscale:.2e}; "
          f"{readouts[1][0].strip()}")


if __name__ == "__main__":
    main()
