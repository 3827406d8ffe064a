#!/usr/bin/env python3
"""`kfem run --mapping auto` (issue 18's tuner): choice, cache, --retune, a fixed race, other
families, a corrupt cache, refusal elsewhere, and (given MPIEXEC) the choice shared by every rank.

  check_tuner.py KFEM WORKDIR [MPIEXEC]

The key names device, backend, family and order, scalar, storage, race and launch order. The choice must be the fastest *verified* candidate of the report's own list (within 1 %, the first); the list must hold
every full-storage mapping serving the family, with each race handling; a second run must take the
choice from the cache without timing anything; --retune must time again. Standard library only.
"""
import json
import os
import shutil
import subprocess
import sys


def fail(msg):
    sys.exit(f"check_tuner: {msg}")


def run(cmd, env, expect=0):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != expect:
        fail(f"exit {p.returncode} (expected {expect}): {' '.join(cmd)}\n{p.stdout}")
    return p.stdout


def tuned_run(kfem, work, env, name, args, source, prefix=()):
    report = f"{work}/{name}.json"
    out = run([*prefix, kfem, "run", *args, "--mapping", "auto", "--no-solve", "--report", report], env)
    point = json.load(open(report))["point"]
    t = point.get("tuner")
    if not t or t["source"] != source:
        fail(f"{name}: tuner source {t and t['source']}, expected {source}\n{out}")
    if (point["mapping"], point["race"]) != (t["mapping"], t["race"]):
        fail(f"{name}: ran {point['mapping']} x {point['race']}, tuner chose {t['mapping']} x {t['race']}")
    passed = [c for c in t["candidates"] if c["verification"] == "passed"]
    fastest = min(c["median_s"] for c in passed)
    best = next(c for c in passed if c["median_s"] <= 1.01 * fastest)  # ties: the first in order
    if (best["mapping"], best["race"]) != (t["mapping"], t["race"]):
        fail(f"{name}: chose {t['mapping']} x {t['race']}, the rule gives {best['mapping']} x {best['race']}")
    if point["verification"]["status"] != "passed":
        fail(f"{name}: the tuned run's matrix {point['verification']['status']}")
    if "  tuner " not in out:
        fail(f"{name}: no tuner line in the summary\n{out}")
    return t


def main():
    kfem, work = sys.argv[1:3]
    deck_tri3 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "inputs", "families-tri3.yaml")
    mpiexec = sys.argv[3] if len(sys.argv) > 3 else None
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    cache = f"{work}/tuner.json"
    env = dict(os.environ, KFEM_TUNER_CACHE=cache)

    t = tuned_run(kfem, work, env, "hex8", ["--mesh", "8x2x2"], "tuned")
    # 12 full-storage element-centric fast paths + thread + team, x 3 races; owner, batch-owner,
    # box-owner x none
    if len(t["candidates"]) != 14 * 3 + 3:
        fail(f"hex8: {len(t['candidates'])} candidates, expected 45")
    for owner in ("owner", "batch-owner", "box-owner"):
        if not any(c["mapping"] == owner and c["race"] == "none" for c in t["candidates"]):
            fail(f"hex8: {owner} x none is not among the candidates")
    entries = json.load(open(cache))["entries"]
    if t["key"] not in entries or entries[t["key"]]["mapping"] != t["mapping"]:
        fail(f"hex8: the cache {cache} does not hold the choice under {t['key']}")
    again = tuned_run(kfem, work, env, "hex8-cached", ["--mesh", "8x2x2"], "cache")
    if again["tuned_at"] != t["tuned_at"]:
        fail("hex8: the cached choice was timed again")
    tuned_run(kfem, work, env, "hex8-retune", ["--mesh", "8x2x2", "--retune"], "retuned")

    atomic = tuned_run(kfem, work, env, "hex8-atomic", ["--mesh", "8x2x2", "--race", "atomic"], "tuned")
    if {c["race"] for c in atomic["candidates"]} != {"atomic"} or atomic["key"] == t["key"]:
        fail("hex8 --race atomic: candidates or key do not fix the race")
    natural = tuned_run(kfem, work, env, "hex8-natural", ["--mesh", "8x2x2", "--element-order", "natural"], "tuned")
    if natural["key"] == t["key"] or "| natural order" not in natural["key"]:
        fail(f"--element-order natural: key {natural['key']} does not name the launch order")
    # A build that instantiates no Serial kernels (CMake's KFEM_BACKENDS) refuses the backend by name.
    probe = subprocess.run([kfem, "run", "--mesh", "2x1x1", "--backend", "serial", "--no-solve"],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    has_serial = "backend 'serial' is not enabled in this build" not in probe.stdout
    if has_serial:
        serial = tuned_run(kfem, work, env, "hex8-serial", ["--mesh", "8x2x2", "--backend", "serial"], "tuned")
        if "| Serial |" not in serial["key"]:
            fail(f"--backend serial: key {serial['key']} does not name the backend")
    prism = tuned_run(kfem, work, env, "prism2", ["--mesh", "prism:3x2x2", "--order", "2"], "tuned")
    if any(c["mapping"] in ("pairs", "element") for c in prism["candidates"]):
        fail("prism: hex8 fast paths among the candidates")
    tri = tuned_run(kfem, work, env, "tri3", [deck_tri3, "--mesh", "tri:8x4", "--scalar", "double"], "tuned")
    if {c["mapping"] for c in tri["candidates"]} != {"thread", "team"}:
        fail(f"tri3: candidates {sorted({c['mapping'] for c in tri['candidates']})}, expected thread and team")
    if len(json.load(open(cache))["entries"]) != 5 + has_serial:
        fail("the cache should hold 6 entries (hex8, hex8 atomic, hex8 natural order, hex8 Serial if built, prism p2, "
             "tri3)")

    with open(cache, "w") as f:
        f.write("{ not json")
    out = run([kfem, "run", "--mesh", "8x2x2", "--mapping", "auto", "--no-solve", "--report", f"{work}/c.json"], env)
    if "tuner cache" not in out or json.load(open(cache))["kfem_tuner"] != 1:
        fail(f"corrupt cache: expected a note and a rewritten cache\n{out}")

    out = run([kfem, "bench", "--mesh", "8x2x2", "--mapping", "auto", os.devnull, "--out", f"{work}/b"], env, 2)
    if out.count("kfem: error: mapping auto picks one strategy for kfem run") != 1:
        fail(f"bench --mapping auto: expected one error line\n{out}")

    if mpiexec:
        menv = dict(env, OMP_NUM_THREADS="1")
        report = f"{work}/mpi.json"
        run([mpiexec, "--allow-run-as-root", "--oversubscribe", "-np", "2", kfem, "run", "--mesh", "8x2x2",
             "--mapping", "auto", "--no-solve", "--report", report], menv)
        point = json.load(open(report))["point"]
        if point["distributed"]["ranks"] != 2 or point["tuner"]["source"] != "cache":
            fail(f"mpirun -np 2: ranks {point['distributed']['ranks']}, tuner {point['tuner']['source']}")
    print(f"tuner: hex8 chose {t['mapping']} x {t['race']} of 37; cache, --retune, fixed race, Serial, prism, tri3, "
          f"corrupt cache, refusal{', mpirun' if mpiexec else ''}: ok")


if __name__ == "__main__":
    main()
