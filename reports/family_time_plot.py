#!/usr/bin/env python3
"""Assembly time per element against element order, from `kfem run` reports.

usage: family_time_plot.py OUT.png REPORT.json...

One line per (device, family, scalar): the median of the point's timed assemblies (what
`assembly.includes` says: zeroing, element work, scatter) divided by its element count, at the
point's element order, on a log scale; each marker is labelled with the mapping x race that ran
(with `--mapping auto`, the tuner's choice). Reports whose verification did not pass are refused:
a time is only plotted for a matrix that matched the oracle."""
import json
import lzma
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, paths = sys.argv[1], sys.argv[2:]
    lines = defaultdict(list)
    for path in paths:
        r = load(path)
        p = r["point"]
        status = p.get("verification", {}).get("status")
        if status != "passed":
            sys.exit(f"{path}: verification {status}: not plotted")
        ctx = r["context"]
        device = ctx.get("device") or {}
        where = device.get("name") if isinstance(device, dict) and device.get("name") else \
            f"{ctx['host']['cpu_model'].split(' @')[0]} ({p['backend']})"
        per_element = p["assembly"]["stats"]["median"] / r["mesh"]["elements"]
        lines[(where, r["mesh"]["family"], p["scalar"])].append(
            (p["order"], per_element * 1e9, f"{p['mapping']} x {p['race']}"))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for (where, family, scalar), pts in sorted(lines.items()):
        pts.sort()
        x = [q[0] for q in pts]
        y = [q[1] for q in pts]
        ax.plot(x, y, marker="o" if scalar == "double" else "s", linestyle="-" if scalar == "double" else "--",
                label=f"{family}, {scalar}, {where}")
        for xi, yi, label in pts:
            ax.annotate(label, (xi, yi), textcoords="offset points", xytext=(4, 4), fontsize=7)
    ax.set_yscale("log")
    ax.set_xlabel("element order p (tet4: 1, tet10: 2)")
    ax.set_ylabel("assembly time per element (ns, median)")
    ax.set_xticks(sorted({q[0] for pts in lines.values() for q in pts}))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Assembly per element, best mapping x race by the tuner (verified)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
