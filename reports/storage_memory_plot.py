#!/usr/bin/env python3
"""The figure of runs/2026-12-07-vm-storage-memory: bytes per element of every storage (what CG reads
besides its vectors) for one hex8 cantilever, split into values, pattern and index (element and ebe:
element matrices and the rest), double and float.
    reports/storage_memory_plot.py reports/runs/2026-12-07-vm-storage-memory   # writes storage_memory.png"""
import json
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

run = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "runs/2026-12-07-vm-storage-memory")
doc = json.load(open(f"{run}/storage-memory.json"))
storages = ["csr", "csr-lower", "bsr", "element", "ebe"]
fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
for ax, scalar in zip(axes, ("double", "float")):
    pts = {p["storage"]: p for p in doc["points"] if p["scalar"] == scalar}
    bottom = [0.0] * len(storages)
    for keys, label, colour in [(("values_bytes", "element_matrices_bytes"), "values / element matrices", "#1f77b4"),
                                (("graph_bytes",), "pattern (row map, columns)", "#ff7f0e"),
                                (("index_bytes", "coordinates_bytes", "dof_bytes", "element_dofs_bytes"),
                                 "index, coordinates, DOF lists", "#999999")]:
        h = []
        for st in storages:
            m = pts[st]["memory"]
            total = sum(v for k, v in m.items() if k.endswith("_bytes") and k != "bytes_per_element")
            elements = total / pts[st]["bytes_per_element"]
            h.append(sum(m.get(k, 0) for k in keys) / elements)
        ax.bar(storages, h, bottom=bottom, color=colour, label=label)
        bottom = [b + x for b, x in zip(bottom, h)]
    for i, st in enumerate(storages):
        ax.text(i, bottom[i], f"{bottom[i]:.0f}", ha="center", va="bottom", fontsize=8)
    ax.set_title(f"hex8 cantilever 32x8x8, {scalar}")
axes[0].set_ylabel("bytes per element")
axes[1].legend(fontsize=8, loc="upper right")
fig.tight_layout()
fig.savefig(f"{run}/storage_memory.png", dpi=80)
