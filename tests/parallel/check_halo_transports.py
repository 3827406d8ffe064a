#!/usr/bin/env python3
"""CG's halo and sums through NCCL against MPI, equal to the last bit (issue 47; a GPU per rank, NCCL).

  check_halo_transports.py KFEM MPIEXEC RANKS WORKDIR [kfem run arguments...]

Runs `MPIEXEC -np RANKS KFEM run ARGS --halo H --sums S` for (H, S) = (mpi, mpi), (nccl, mpi),
(mpi, nccl), (nccl, nccl) and checks: every run exits 0; its report names the transports asked for;
CG took the same number of iterations to the same relative residual as (mpi, mpi), bit for bit; the
exported solutions (shortest round-trip decimals: equal text is equal bits) are identical. The sums add
the ranks' parts in rank order on either transport, so a difference in the (nccl, mpi) run is a halo
entry that did not arrive as sent (or arrived late), one in (mpi, nccl) a sum. Standard library only
(and check_mpi_run.py beside it).
"""
import json
import os
import shutil
import sys

from check_mpi_run import run  # this folder's: one command, its output kept


def main():
    kfem, mpiexec, ranks, work = sys.argv[1:5]
    args = sys.argv[5:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    runs = {}
    for halo, sums in (("mpi", "mpi"), ("nccl", "mpi"), ("mpi", "nccl"), ("nccl", "nccl")):
        tag = f"halo-{halo}-sums-{sums}"
        vtu, rep, log = (f"{work}/{tag}.{ext}" for ext in ("vtu", "json", "log"))
        cmd = [mpiexec, "--allow-run-as-root", "-np", ranks, "-x", "NCCL_NVLS_ENABLE=0", kfem, "run", *args,
               "--halo", halo, "--sums", sums, "--export-solution", vtu, "--report", rep]
        run(cmd, log)  # exits with the command's output when it fails
        point = json.load(open(rep))["point"]
        runs[(halo, sums)] = (point, open(vtu, "rb").read())

    ref, ref_vtu = runs[("mpi", "mpi")]
    failures = []
    for (halo, sums), (p, vtu) in runs.items():
        d = p["distributed"]
        if not d["halo_transport"].startswith(halo) or d["sums_transport"] != sums:
            failures.append(f"asked halo {halo}, sums {sums}; the report says {d['halo_transport']}, "
                            f"{d['sums_transport']}")
        for key in ("cg_iterations", "cg_relative_residual"):
            if p["solve"][key] != ref["solve"][key]:
                failures.append(f"halo {halo}, sums {sums}: {key} {p['solve'][key]!r}, "
                                f"with MPI for both {ref['solve'][key]!r}")
        if vtu != ref_vtu:
            failures.append(f"halo {halo}, sums {sums}: the solution differs from MPI's")
        print(f"halo {halo:4} sums {sums:4}: CG {p['solve']['cg_iterations']} iterations, relative residual "
              f"{p['solve']['cg_relative_residual']!r}, {p['solve']['cg_s_per_iteration'] * 1e6:.1f} us per "
              f"iteration; alone one exchange {d['halo_exchange_s'] * 1e6:.1f} us, one sum {d['sum_s'] * 1e6:.1f} us")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))
    print(f"PASSED: {ranks} ranks, {' '.join(args)}: four solutions and CG histories equal bit for bit")


if __name__ == "__main__":
    main()
