#!/usr/bin/env python3
"""Figures and a markdown summary from a kfem results file (kiran et al., Figures 10-14 style).

    reports/plot.py RESULTS.json [--out DIR]

RESULTS.json is what `kfem bench DECK --out DIR` writes (a `kfem run` report works too: one point).
Writes into DIR (default: the folder of RESULTS.json):
  time_<race>_<scalar>.png       assembly time (median, min..max bars) vs elements, one line per mapping
  speedup_<race>_<scalar>.png    speedup over the `element` mapping per mesh (grouped bars)
  model_rates_<scalar>.png       model GFLOP/s and GB/s per mapping on the largest mesh
  hbm_floor_<scalar>.png         fraction of the HBM floor per mapping on the largest mesh (if measured)
  summary.md                     one table row per point
A stage sweep (bench.stages, inputs/banas.yaml) gets banas_plot.py's figures and tables instead, a
scaling sweep (bench.scaling, inputs/scaling.yaml) scaling_plot.py's. An
amorim sweep (a point with race acoo or an EbE solve, inputs/amorim.yaml) gets amorim_plot.py's
amorim_fig*.png and amorim_summary.md as well; the figures above then show each assembly once (its
point solved with the csr operator), not once per CG operator.
RESULTS may be a folder: its results.json and those of its subfolders (DIR/*/results.json, a sweep
split into one run per mesh or order) are merged, and the output goes to that folder.
Points whose verification FAILED are left out of every figure (with a warning). Needs matplotlib only.
"""
import argparse
import glob
import json
import lzma
import os
import re
import sys

# Canonical order (as `kfem info` lists them) so colours and bar positions match across figures.
MAPPINGS = ["element", "warp4", "warp8", "ppni4", "ppni8", "twokernel", "pairs", "warp4-scratch", "warp4-atomic",
            "warp4-vreduce", "sym300", "sym300x2", "sympairs", "owner", "batch"]
RACES = ["colored", "atomic", "scatter"]
SCALARS = {"double": "double (FP64)", "float": "float (FP32)"}
# The set-up stages of a point in pipeline order, as src/kfem/pipeline/setup.hpp's setup_stages names
# them (report key, label); first_matrix_s is their sum plus the first assembly.
SETUP_STAGES = [("mesh_to_device_s", "upload"), ("graph_s", "graph"), ("lower_graph_s", "lower triangle"),
                ("coloring_s", "colouring"), ("morton_order_s", "launch order"), ("element_data_s", "element data")]


def warn(msg):
    print(f"plot.py: warning: {msg}", file=sys.stderr)


def ordered(values, canonical):
    """Known names in canonical order, then unknown ones alphabetically (new strategies still plot)."""
    values = set(values)
    return [v for v in canonical if v in values] + sorted(values - set(canonical))


def load(path):
    # The record keeps large results compressed (scripts/record-run): results.json.xz reads the same.
    with (lzma.open(path, "rt") if path.endswith(".xz") else open(path)) as f:
        doc = json.load(f)
    if "kfem_results" in doc:
        return doc
    if "kfem_report" in doc:  # a `kfem run` report: its one point, with the mesh where bench puts it
        point = dict(doc["point"], mesh=doc["mesh"])
        return {"deck": doc.get("deck", "?"), "context": doc.get("context", {}), "points": [point]}
    sys.exit(f"plot.py: {path}: neither a kfem results file (kfem_results) nor a run report (kfem_report)")


def cpu_label(ctx, backend):
    model = ctx.get("host", {}).get("cpu_model", "unknown CPU")
    model = re.sub(r"\((R|TM|tm)\)", "", model)
    model = re.sub(r"\s+CPU\s+@.*$|\s+\d+-Core Processor$", "", model).strip()
    threads = 1 if backend == "Serial" else ctx.get("kokkos", {}).get("host_concurrency")
    return f"{model}, {threads} thread{'s' if threads != 1 else ''}" if threads else model


def device_label(ctx, backends):
    """The hardware the points ran on: GPU name for device backends, CPU model + threads otherwise."""
    labels = []
    for b in sorted(backends):
        dev = ctx.get("device")
        if b in ("Cuda", "HIP") and isinstance(dev, dict) and dev.get("name"):
            label = dev["name"]
        else:
            label = cpu_label(ctx, b)
        labels.append(f"{label} [{b}]" if len(backends) > 1 else label)
    joined = " / ".join(labels)
    return joined if len(joined) <= 70 else "\n".join(labels)  # long titles would be clipped


def points_of(doc):
    """Plottable points: FAILED ones dropped, with a warning."""
    good = []
    for p in doc.get("points", []):
        status = p.get("verification", {}).get("status", "?")
        if status == "FAILED":
            warn(f"skipping FAILED point {p['mesh']['name']} {p['mapping']} {p['race']} {p['scalar']} {p['backend']}")
            continue
        good.append(p)
    return good


def median_s(p):
    return p["assembly"]["stats"]["median"]


def series_key(p, multi_backend):
    return f"{p['mapping']} [{p['backend']}]" if multi_backend else p["mapping"]


def series_order(keys):
    """Series in canonical mapping order, backends of one mapping side by side."""
    return sorted(set(keys), key=lambda k: (ordered_index(k.split(" [")[0], MAPPINGS), k))


def speedups(points):
    """speedup vs `element` for each point, keyed by id(point): same mesh, race, scalar and backend."""
    base = {(p["mesh"]["name"], p["race"], p["scalar"], p["backend"]): median_s(p)
            for p in points if p["mapping"] == "element"}
    out = {}
    for p in points:
        b = base.get((p["mesh"]["name"], p["race"], p["scalar"], p["backend"]))
        if b is not None:
            out[id(p)] = b / median_s(p)
    return out


def spans_decades(values, ratio=10):
    values = [v for v in values if v > 0]
    return len(values) > 1 and max(values) / min(values) >= ratio


def log_axis(ax, which):
    """Log scale labelled with plain numbers at 1, 2, 5 x 10^k: a lone '10^0' says too little."""
    from matplotlib import ticker
    (ax.set_xscale if which == "x" else ax.set_yscale)("log")
    axis = ax.xaxis if which == "x" else ax.yaxis
    axis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(ticker.NullFormatter())


def write_summary(doc, all_points, good, out_dir):
    ctx = doc.get("context", {})
    good_ids = {id(p) for p in good}
    sp = speedups(good)
    backends = {p["backend"] for p in all_points}
    rows = sorted(all_points, key=lambda p: (p["mesh"]["elements"], p["mesh"]["name"], p["scalar"],
                                             p["backend"], ordered_index(p["race"], RACES),
                                             ordered_index(p["mapping"], MAPPINGS)))
    kfem = ctx.get("kfem", {})
    lines = [
        f"# kfem results: {doc.get('deck', '?')}",
        "",
        f"- device: {device_label(ctx, backends)}",
        f"- date: {ctx.get('date', '?')}; kfem {kfem.get('version', '?')} "
        f"({kfem.get('git_revision', '?')}{', dirty' if kfem.get('git_dirty') else ''}, {kfem.get('build_type', '?')}); "
        f"Kokkos {ctx.get('kokkos', {}).get('version', '?')}",
        f"- copy bandwidth: {ctx['copy_bandwidth_gbs']:.1f} GB/s" if isinstance(ctx.get("copy_bandwidth_gbs"), (int, float))
        else "- copy bandwidth: not measured",
        "- median of the timed repetitions; spread = (max - min) / median; speedup = element's median / this median "
        "(same mesh, race, scalar); floor fraction = HBM floor / median (1 = at the floor); "
        "FAILED points are left out of the figures; SpMV = median time of y = K x on the assembled storage "
        "(full: Kokkos Kernels spmv, lower: symmetric spmv); compute ms = the same kernels with every add "
        "discarded (element computation alone)",
        "",
    ]
    multi = len(backends) > 1
    head = ["mesh", "elements", "scalar", "race", "mapping"] + (["backend"] if multi else []) + \
           ["storage", "median ms", "compute ms", "min..max spread %", "GDOF/s", "speedup vs element",
            "floor fraction", "SpMV ms", "verification"]
    lines.append("| " + " | ".join(head) + " |")
    numeric = {"elements", "median ms", "compute ms", "min..max spread %", "GDOF/s", "speedup vs element", "floor fraction", "SpMV ms"}
    lines.append("|" + "|".join("--:" if h in numeric else "---" for h in head) + "|")
    for p in rows:
        st = p["assembly"]["stats"]
        rates = p.get("rates", {})
        ok = id(p) in good_ids
        floor = rates.get("hbm_floor_fraction")
        cells = [p["mesh"]["name"], str(p["mesh"]["elements"]), p["scalar"], p["race"], p["mapping"]]
        cells += [p["backend"]] if multi else []
        spmv = p.get("spmv", {}).get("stats", {}).get("median")
        compute = p.get("element_computation", {}).get("stats", {}).get("median")
        cells += [p.get("storage", "full"), f"{st['median'] * 1e3:.4g}",
                  f"{compute * 1e3:.4g}" if compute is not None else "–",
                  f"{100 * (st['max'] - st['min']) / st['median']:.1f}",
                  f"{rates.get('gdof_per_s', float('nan')):.4g}",
                  f"{sp[id(p)]:.2f}" if ok and id(p) in sp else "–",
                  f"{floor:.3f}" if floor is not None else "–",
                  f"{spmv * 1e3:.4g}" if spmv is not None else "–",
                  p.get("verification", {}).get("status", "?") if ok else "**FAILED**"]
        lines.append("| " + " | ".join(cells) + " |")
    path = os.path.join(out_dir, "summary.md")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def ordered_index(name, canonical):
    return (canonical.index(name), "") if name in canonical else (len(canonical), name)


def make_figures(doc, points, out_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"figure.dpi": 110, "savefig.dpi": 150, "font.size": 10, "axes.grid": True,
                         "grid.alpha": 0.3, "legend.fontsize": 8})
    ctx = doc.get("context", {})
    written = []
    multi = len({p["backend"] for p in points}) > 1
    series_all = series_order(series_key(p, multi) for p in points)
    cmap = plt.get_cmap("tab10" if len(series_all) <= 10 else "tab20")  # distinct colours as long as possible
    colour = {s: cmap(i % cmap.N) for i, s in enumerate(series_all)}
    marker = {s: "osD^v<>ph*"[i % 10] for i, s in enumerate(series_all)}

    def title(ax, what, subset, scalar, race=None):
        detail = f"{race}, {SCALARS.get(scalar, scalar)}" if race else SCALARS.get(scalar, scalar)
        ax.set_title(f"{what} — {detail}\n{device_label(ctx, {p['backend'] for p in subset})}", fontsize=10)

    def save(fig, name):
        path = os.path.join(out_dir, name)
        fig.tight_layout()
        fig.savefig(path)
        plt.close(fig)
        written.append(path)

    def safe(s):
        return re.sub(r"[^A-Za-z0-9_.-]+", "-", s)

    scalars = ordered({p["scalar"] for p in points}, list(SCALARS))
    races = ordered({p["race"] for p in points}, RACES)
    sp = speedups(points)

    for scalar in scalars:
        for race in races:
            subset = [p for p in points if p["scalar"] == scalar and p["race"] == race]
            if not subset:
                continue
            # (a) time vs elements, median with min/max whiskers. Meshes of equal size (a generated
            # box and its .msh twin) would stack on one x, so they get a categorical axis instead.
            fig, ax = plt.subplots(figsize=(8, 4.5))
            meshes = sorted({(p["mesh"]["elements"], p["mesh"]["name"]) for p in subset})
            categorical = len({n for n, _ in meshes}) < len(meshes) or len(meshes) == 1
            xpos = {name: (i if categorical else n) for i, (n, name) in enumerate(meshes)}
            ys, unverified = [], False
            series = series_order(series_key(p, multi) for p in subset)
            for i, s in enumerate(series):
                pts = sorted((p for p in subset if series_key(p, multi) == s),
                             key=lambda p: (p["mesh"]["elements"], p["mesh"]["name"]))
                dodge = (i - (len(series) - 1) / 2) * 0.5 / len(series) if categorical else 0  # no stacked whiskers
                x = [xpos[p["mesh"]["name"]] + dodge for p in pts]
                med = [p["assembly"]["stats"]["median"] * 1e3 for p in pts]
                lo = [m - p["assembly"]["stats"]["min"] * 1e3 for m, p in zip(med, pts)]
                hi = [p["assembly"]["stats"]["max"] * 1e3 - m for m, p in zip(med, pts)]
                ys += [p["assembly"]["stats"][k] * 1e3 for p in pts for k in ("min", "max")]
                ax.errorbar(x, med, yerr=[lo, hi], label=s, color=colour[s], marker=marker[s], ms=4, capsize=3, lw=1.2)
                skipped = [(xi, m) for xi, m, p in zip(x, med, pts) if p["verification"].get("status") != "passed"]
                if skipped:  # open markers: times of points the oracle did not check
                    unverified = True
                    ax.plot(*zip(*skipped), ls="none", marker=marker[s], ms=7, mfc="white", mec=colour[s], zorder=5)
            if categorical:
                ax.set_xticks(range(len(meshes)))
                ax.set_xticklabels([f"{name}\n{n} elements" for n, name in meshes])
                ax.set_xlim(-0.5, len(meshes) - 0.5)
            elif spans_decades([n for n, _ in meshes], 4):  # mesh sweeps are geometric: log x reads as scaling
                log_axis(ax, "x")
            if spans_decades(ys):
                log_axis(ax, "y")
            if unverified:
                ax.text(0.01, 0.01, "open markers: not verified (mesh above bench.verify_limit)",
                        transform=ax.transAxes, fontsize=8, va="bottom")
            ax.set_xlabel("mesh" if categorical else "elements")
            ax.set_ylabel("assembly time, median (ms)")
            title(ax, "Assembly time", subset, scalar, race)
            ax.legend(title="mapping", loc="upper left", bbox_to_anchor=(1.01, 1))
            save(fig, f"time_{safe(race)}_{safe(scalar)}.png")

            # (b) speedup over element, grouped by mesh; element itself is the line at 1
            with_sp = [p for p in subset if id(p) in sp and p["mapping"] != "element"]
            if not with_sp:
                warn(f"no 'element' baseline or nothing to compare with for {race}/{scalar}: no speedup figure")
                continue
            meshes = sorted({(p["mesh"]["elements"], p["mesh"]["name"]) for p in with_sp})
            series = series_order(series_key(p, multi) for p in with_sp)
            width = 0.8 / len(series)
            fig, ax = plt.subplots(figsize=(max(7, 2.5 + 0.22 * len(series) * len(meshes)), 4.5))
            for i, s in enumerate(series):
                xs_, ys_ = [], []
                for j, (_, name) in enumerate(meshes):
                    hit = [p for p in with_sp if series_key(p, multi) == s and p["mesh"]["name"] == name]
                    if hit:
                        xs_.append(j + (i - (len(series) - 1) / 2) * width)
                        ys_.append(sp[id(hit[0])])
                ax.bar(xs_, ys_, width, label=s, color=colour[s])
            ax.axhline(1.0, color="black", lw=1, ls="--", label="element")
            ax.set_xticks(range(len(meshes)))
            ax.set_xticklabels([f"{name}\n{n} elements" for n, name in meshes])
            ax.set_ylabel("speedup over element (median times)")
            title(ax, "Speedup over thread-per-element", with_sp, scalar, race)
            ax.legend(title="mapping", loc="upper left", bbox_to_anchor=(1.01, 1))
            save(fig, f"speedup_{safe(race)}_{safe(scalar)}.png")

        # (c) + (d) on the largest mesh: mappings on x, one bar per race
        subset = [p for p in points if p["scalar"] == scalar]
        largest = max(subset, key=lambda p: p["mesh"]["elements"])["mesh"]
        big = [p for p in subset if p["mesh"]["name"] == largest["name"]]
        mesh_txt = f"{largest['name']} ({largest['elements']} elements)"

        def grouped(ax, value):
            rs = ordered({p["race"] for p in big}, RACES)
            cols = series_order(series_key(p, multi) for p in big)
            width = 0.8 / len(rs)
            vals = []
            for i, r in enumerate(rs):
                xs_, ys_ = [], []
                for j, s in enumerate(cols):
                    hit = [p for p in big if p["race"] == r and series_key(p, multi) == s]
                    v = value(hit[0]) if hit else None
                    if v is not None:
                        xs_.append(j + (i - (len(rs) - 1) / 2) * width)
                        ys_.append(v)
                vals += ys_
                ax.bar(xs_, ys_, width, label=r, color=plt.get_cmap("Set2")(i % 8))
            ax.set_xticks(range(len(cols)))
            ax.set_xticklabels(cols, rotation=30, ha="right")
            if spans_decades(vals):
                log_axis(ax, "y")
            return vals

        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
        grouped(ax1, lambda p: p["rates"]["model_gflop_per_s"])
        ax1.set_ylabel("model GFLOP/s")
        ax1.legend(title="race", loc="best")
        title(ax1, f"Model GFLOP/s, {mesh_txt}", big, scalar)
        grouped(ax2, lambda p: p["rates"]["model_gbyte_per_s"])
        ax2.set_ylabel("model GB/s")
        bw = ctx.get("copy_bandwidth_gbs")
        if isinstance(bw, (int, float)):
            ax2.axhline(bw, color="black", ls="--", lw=0.8, label=f"measured copy {bw:.0f} GB/s")
        ax2.legend(title="race", loc="best")
        title(ax2, f"Model GB/s, {mesh_txt}", big, scalar)
        save(fig, f"model_rates_{safe(scalar)}.png")

        if any("hbm_floor_fraction" in p.get("rates", {}) for p in big):
            fig, ax = plt.subplots(figsize=(8, 4.5))
            vals = grouped(ax, lambda p: p["rates"].get("hbm_floor_fraction"))
            if max(vals) > 0.3:  # the floor itself only when the bars come near it
                ax.axhline(1.0, color="black", ls="--", lw=0.8, label="at the floor")
            ax.legend(title="race", loc="upper left", bbox_to_anchor=(1.01, 1))
            ax.set_ylabel("HBM floor / median time")
            title(ax, f"Fraction of the HBM floor (1 = at the floor), {mesh_txt}", big, scalar)
            save(fig, f"hbm_floor_{safe(scalar)}.png")

        # (e) mesh -> first matrix on the largest mesh: each point's set-up stages, then its first assembly
        firsts = [p for p in big if isinstance(p.get("first_matrix_s"), (int, float))]
        if firsts:
            firsts.sort(key=lambda p: (ordered_index(p["mapping"], MAPPINGS), ordered_index(p["race"], RACES)))
            fig, ax = plt.subplots(figsize=(max(7, 3 + 0.6 * len(firsts)), 4.5))
            xs = range(len(firsts))
            bottom = [0.0] * len(firsts)
            stage_colours = plt.get_cmap("tab10")
            for i, (key, label) in enumerate(SETUP_STAGES):
                vals = [1e3 * v if isinstance(v := p.get("setup", {}).get(key), (int, float)) else 0.0 for p in firsts]
                if any(vals):
                    ax.bar(xs, vals, 0.7, bottom=bottom, label=label, color=stage_colours(i))
                    bottom = [b + v for b, v in zip(bottom, vals)]
            rest = [max(1e3 * p["first_matrix_s"] - b, 0.0) for p, b in zip(firsts, bottom)]
            ax.bar(xs, rest, 0.7, bottom=bottom, label="first assembly", color="0.6")
            ax.set_xticks(list(xs))
            ax.set_xticklabels([f"{series_key(p, multi)} x {p['race']}" for p in firsts], rotation=30, ha="right")
            ax.set_ylabel("first_matrix_s (ms)")
            title(ax, f"Mesh -> first matrix, {mesh_txt}", firsts, scalar)
            ax.legend(title="stage", loc="upper left", bbox_to_anchor=(1.01, 1))
            save(fig, f"first_matrix_{safe(scalar)}.png")
    return written


def own_figures(make, doc, points, out_dir):
    """A bench kind with its own figure module: make(doc, points, out_dir, device) -> written paths."""
    device = device_label(doc.get("context", {}), {p["backend"] for p in points})
    try:
        written = make(doc, points, out_dir, device)
    except ImportError as e:
        print(f"plot.py: {e}; install matplotlib (Debian: apt install python3-matplotlib)", file=sys.stderr)
        return 2
    print("\n".join(written))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+",
                    help="results.json from `kfem bench` (or a `kfem run` report); several files of one sweep "
                         "split across runs are merged (context of the first, points of all); a folder "
                         "stands for its results.json and its subfolders' (DIR/*/results.json)")
    ap.add_argument("--out", help="output folder (default: the folder of the first RESULTS)")
    args = ap.parse_args()
    paths = []
    for path in args.results:  # a folder: its results.json and its subfolders' (a split sweep)
        if os.path.isdir(path):
            found = [f for name in ("results.json", "results.json.xz")
                     for f in [os.path.join(path, name)] + sorted(glob.glob(os.path.join(path, "*", name)))
                     if os.path.isfile(f)]
            if not found:
                sys.exit(f"plot.py: {path}: no results.json in it or in its subfolders")
            paths += found
        else:
            paths.append(path)
    docs = [load(path) for path in paths]
    doc = dict(docs[0], points=[p for d in docs for p in d.get("points", [])])
    first = args.results[0]
    out_dir = args.out or (os.path.abspath(first) if os.path.isdir(first) else os.path.dirname(os.path.abspath(first)))
    os.makedirs(out_dir, exist_ok=True)
    if doc.get("kind") in ("scaling", "procurement"):  # MPI benches: scaling_plot.py's figures and table
        import scaling_plot
        points = [p for p in doc.get("points", []) if "scaling" in p]
        if not points:  # a procurement run: its figure of merit is printed and in results.json, no figure
            print("plot.py: no scaling points (a procurement run has no figures)")
            return 0
        return own_figures(scaling_plot.make_scaling_figures, doc, points, out_dir)
    if doc.get("kind") == "stages":  # banas' stage sweep (bench.stages): its own figures and tables
        import banas_plot
        good = [p for p in doc.get("points", []) if p.get("verification", {}).get("status") != "FAILED"]
        if len(good) < len(doc.get("points", [])):
            warn(f"skipping {len(doc['points']) - len(good)} FAILED points")
        return own_figures(banas_plot.make_stage_figures, doc, good, out_dir)
    all_points = doc.get("points", [])
    good = points_of(doc)
    written = [write_summary(doc, all_points, good, out_dir)]
    # One point per assembly: a solving sweep repeats each assembly once per CG operator.
    once = [p for p in good if p.get("solve", {}).get("operator", "csr") == "csr"]
    if not good:
        warn("no verified or skipped points to plot")
    elif once:
        try:
            written = make_figures(doc, once, out_dir) + written
        except ImportError as e:
            print(f"plot.py: {e}; install matplotlib (Debian: apt install python3-matplotlib)", file=sys.stderr)
            print("\n".join(written))
            return 2
    import amorim_plot
    if amorim_plot.is_amorim(all_points):  # amorim's Figs. 5, 8, 9, 10 and the targets
        device = device_label(doc.get("context", {}), {p["backend"] for p in all_points})
        try:
            written += amorim_plot.make_amorim_figures(doc, all_points, out_dir, device)
        except ImportError as e:
            print(f"plot.py: {e}; install matplotlib (Debian: apt install python3-matplotlib)", file=sys.stderr)
            print("\n".join(written))
            return 2
    print("\n".join(written))
    return 0 if len(written) > 1 else 1


if __name__ == "__main__":
    sys.exit(main())
