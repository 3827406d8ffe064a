#!/usr/bin/env python3
"""The figure of runs/2026-11-26-h100-hex8-pairs-mma: mesh4 x atomic on one H100 (call 4), assembly in
natural and Morton launch order and the element computation alone, per mapping and scalar.
    reports/pairs_mma_plot.py reports/runs/2026-11-26-h100-hex8-pairs-mma     # writes mesh4-h100.png there"""
import json
import lzma
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

run = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "runs/2026-11-26-h100-hex8-pairs-mma")
pts = {}
for order in ("natural", "morton"):
    for p in json.loads(lzma.decompress(open(f"{run}/call4/mesh4-{order}-1/results.json.xz", "rb").read()))["points"]:
        key = (p["scalar"], p["mapping"])
        pts.setdefault(key, {})[order] = p["assembly"]["stats"]["median"] * 1e3
        pts[key]["compute"] = p["element_computation"]["stats"]["median"] * 1e3
maps = ["pairs", "pairs-mma", "sympairs", "sympairs-mma"]
fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
for ax, scalar in zip(axes, ("double", "float")):
    x = range(len(maps))
    for k, (what, colour) in enumerate([("natural", "#999999"), ("morton", "#1f77b4"), ("compute", "#ff7f0e")]):
        ax.bar([i + (k - 1) * 0.27 for i in x], [pts[(scalar, m)][what] for m in maps], 0.27, color=colour,
               label={"natural": "assembly, natural order", "morton": "assembly, Morton order",
                      "compute": "element computation alone"}[what])
    ax.axhline(3.0 if scalar == "double" else 2.0, color="k", ls="--", lw=0.8, label="issue 18 target (full storage)")
    ax.set_xticks(list(x))
    ax.set_xticklabels(maps)
    ax.set_title(f"{scalar}, race atomic")
    ax.set_ylabel("ms (median of 9)")
axes[0].legend(fontsize=8)
fig.suptitle("mesh4 (2,097,152 hex8) on one NVIDIA H100 80GB HBM3, 2026-11-26")
fig.tight_layout()
fig.savefig(os.path.join(run, "mesh4-h100.png"), dpi=110)
