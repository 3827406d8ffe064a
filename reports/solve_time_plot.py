#!/usr/bin/env python3
"""Time to solution against mesh size, one line per solver: the bench results of a run folder's
subfolders (one per solver, `kfem bench DECK --solver NAME --out RUN/NAME`), their solve objects
(set-up + iterations; iterations labelled at each point).
    reports/solve_time_plot.py reports/runs/2026-12-07-vm-issue79-amg   # writes time_to_solution.png"""
import json
import lzma
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

run = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "runs/2026-12-07-vm-issue79-amg")
fig, ax = plt.subplots(figsize=(6, 3.8))
device = ""
for name in sorted(os.listdir(run)):
    path = os.path.join(run, name, "results.json")
    if os.path.isfile(path + ".xz"):  # as scripts/record-run keeps larger results
        doc = json.load(lzma.open(path + ".xz", "rt"))
    elif os.path.isfile(path):
        doc = json.load(open(path))
    else:
        continue
    pts = sorted((p for p in doc["points"] if "solve" in p), key=lambda p: p["dofs"])
    x = [p["dofs"] for p in pts]
    y = [p["solve"]["time_to_solution_s"] for p in pts]
    ax.plot(x, y, marker="o", label=pts[0]["solve"]["method"])
    for p, xi, yi in zip(pts, x, y):
        ax.annotate(str(p["solve"]["cg_iterations"]), (xi, yi), textcoords="offset points", xytext=(4, -10),
                    fontsize=7)
    host = (doc.get("context") or {}).get("host") or {}
    device = f"{host.get('cpu_model', '')}, {host.get('cores', '?')} cores" if host else device
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel("DOFs (hex8 cantilever)")
ax.set_ylabel("time to solution, s (to 1e-8)")
ax.set_title("set-up + iterations; labels: iterations" + (f" ({device})" if device else ""), fontsize=9)
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(f"{run}/time_to_solution.png", dpi=80)
