#!/usr/bin/env python3
"""CG's two halo transports, equal to the last bit (issue 47; needs a GPU per rank and NCCL).

  check_halo_transports.py KFEM MPIEXEC RANKS WORKDIR [kfem run arguments...]

Runs `MPIEXEC -np RANKS KFEM run ARGS --halo mpi` and the same with `--halo nccl`, and checks: both
exit 0; their reports name the transports asked for; CG took the same number of iterations to the
same relative residual, bit for bit; the exported solutions (shortest round-trip decimals, so equal
text is equal bits) are identical. The sums of CG add the ranks' parts in rank order on either
transport, so any difference is a halo entry that did not arrive as sent. Standard library only.
"""
import json
import os
import shutil
import subprocess
import sys


def main():
    kfem, mpiexec, ranks, work = sys.argv[1:5]
    args = sys.argv[5:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    runs = {}
    for halo in ("mpi", "nccl"):
        vtu, rep, log = (f"{work}/{halo}.{ext}" for ext in ("vtu", "json", "log"))
        cmd = [mpiexec, "--allow-run-as-root", "-np", ranks, "-x", "NCCL_NVLS_ENABLE=0", kfem, "run", *args,
               "--halo", halo, "--export-solution", vtu, "--report", rep]
        with open(log, "w") as out:
            rc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT).returncode
        if rc != 0:
            sys.exit(f"exit {rc}: {' '.join(cmd)}\n{open(log).read()}")
        point = json.load(open(rep))["point"]
        runs[halo] = (point, open(vtu, "rb").read())

    (pm, vm), (pn, vn) = runs["mpi"], runs["nccl"]
    failures = []
    via = {h: runs[h][0]["distributed"]["halo_transport"] for h in runs}
    if not via["mpi"].startswith("mpi") or via["nccl"] != "nccl":
        failures.append(f"transports: asked mpi and nccl, reports say {via}")
    for key in ("cg_iterations", "cg_relative_residual"):
        a, b = pm["solve"][key], pn["solve"][key]
        if a != b:
            failures.append(f"CG {key}: mpi {a!r}, nccl {b!r}")
    if vm != vn:
        failures.append("solutions differ (exported .vtu files are not identical)")
    print(f"{ranks} ranks, {' '.join(args)}: halo mpi ({via['mpi']}) and nccl: CG {pm['solve']['cg_iterations']} "
          f"iterations, relative residual {pm['solve']['cg_relative_residual']!r}; one exchange "
          f"{pm['distributed']['halo_exchange_s'] * 1e6:.1f} us (mpi) vs {pn['distributed']['halo_exchange_s'] * 1e6:.1f} us (nccl)")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))
    print("PASSED: solutions and CG histories equal bit for bit")


if __name__ == "__main__":
    main()
