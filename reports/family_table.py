#!/usr/bin/env python3
"""Markdown table of a scripts/family-bench output folder: one row per verified point of every
kfem bench results file (*.json with "points") below it (family, order, mesh, sizes, strategy, median assembly and compute-only time,
index bytes per element, verification).  Usage: reports/family_table.py DIR > DIR/table.md"""
import json
import lzma
import pathlib
import sys


def rows(folder):
    paths = list(pathlib.Path(folder).glob("**/*.json")) + list(pathlib.Path(folder).glob("**/*.json.xz"))
    for path in sorted(paths):
        text = lzma.decompress(path.read_bytes()).decode() if path.suffix == ".xz" else path.read_text()
        doc = json.loads(text)
        for p in doc.get("points", []) if isinstance(doc, dict) else []:
            m = p["mesh"]
            comp = p.get("element_computation", {}).get("stats", {}).get("median")
            yield (m["family"], p.get("order", 1), m["name"], m["elements"], p["nnz"], p["mapping"], p["race"],
                   p["scalar"], p.get("target", "-"), p["assembly"]["stats"]["median"] * 1e3,
                   comp * 1e3 if comp is not None else None, p["index_bytes_per_element"],
                   p["verification"]["status"])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: family_table.py FAMILY_BENCH_OUT")
    found = sorted(rows(sys.argv[1]), key=lambda r: (r[0] != "tri3", r[1], r[3], r[5], r[6], r[7], r[8]))
    if not found:
        sys.exit(f"family_table.py: no kfem bench results under {sys.argv[1]}")
    print("| family | p | mesh | elements | nnz | mapping | race | scalar | target | assembly ms | compute-only ms "
          "| index B/element | verified |")
    print("|---|--:|---|--:|--:|---|---|---|---|--:|--:|--:|---|")
    for f, p, mesh, ne, nnz, mp, race, sc, tg, a, c, ib, v in found:
        cs = f"{c:.3f}" if c is not None else "-"
        print(f"| {f} | {p} | {mesh} | {ne:,} | {nnz:,} | {mp} | {race} | {sc} | {tg} | {a:.3f} | {cs} | {ib:,.0f} | {v} |")


if __name__ == "__main__":
    main()
