"""Figures and tables of a `kfem bench` stage sweep (bench.stages, inputs/banas.yaml), after banas
et al. Figures 2-3 and Tables 3-7. Called by plot.py for results whose "kind" is "stages":

  stages_kernel_<scalar>.png     kernel time per element vs p, one line per mapping, log scale, with
                                 the paper's best GTX580 kernel time (float, Table 6) for reference
  stages_breakdown_<scalar>.png  per p, the stages of one element (prepare, init, h2d, kernel, d2h)
                                 stacked, for the fastest kernel and the fastest paper variant
  stages_gflops_<scalar>.png     GFLOP/s of the kernel in the paper's flop model per mapping and p
  stages_summary.md              Tables 5-7 (stages per element) and 3-4 (kernel parameters)
"""
import os

MAPPINGS = ["team", "reg-jac", "reg-nojac", "shm-jac", "shm-nojac", "gemm"]
PAPER = ["reg-jac", "reg-nojac", "shm-jac", "shm-nojac"]
STAGES = ["prepare", "init", "h2d", "kernel", "d2h"]
# banas Table 6, GTX580, float: the best of the four kernels per element [us], p = 2..7
PAPER_BEST_GTX580_US = {2: 1.21, 3: 17.80, 4: 80.07, 5: 439.9, 6: 1932, 7: 6199}


def us(p, stage):
    return p["stages"][stage]["median_us"]


def by_key(points, scalar):
    return {(p["order"], p["mapping"]): p for p in points if p["scalar"] == scalar}


def write_tables(doc, points, out_dir, device):
    lines = [f"# Stage bench: {device}", "", f"deck `{doc.get('deck', '?')}`, {len(points)} points, every one verified "
             "(sampled Ae vs the host reference) unless marked.", ""]
    for scalar in ("double", "float"):
        pts = by_key(points, scalar)
        orders = sorted({o for o, _ in pts})
        if not orders:
            continue
        lines += [f"## {scalar}: time per element [us] (banas Tables 5-7)", "",
                  "| mapping | stage | " + " | ".join(f"p={o}" for o in orders) + " |",
                  "|---|---|" + "---:|" * len(orders)]
        for m in MAPPINGS:
            if not any((o, m) in pts for o in orders):
                continue
            for stage in STAGES + ["total"]:
                row = [f"{us(pts[(o, m)], stage):.4g}" if (o, m) in pts else "-" for o in orders]
                lines.append(f"| {m} | {stage} | " + " | ".join(row) + " |")
            row = [f"{pts[(o, m)]['rates']['paper_gflop_per_s']:.0f}" if (o, m) in pts else "-" for o in orders]
            lines.append(f"| {m} | GFLOP/s (paper model) | " + " | ".join(row) + " |")
            # The peak of the unit the kernel ran on: * marks the FP64 matrix units (gemm, double, CUDA)
            row = [f"{100 * pts[(o, m)]['rates']['paper_peak_fraction']:.1f}"
                   + ("*" if "matrix" in pts[(o, m)]["rates"].get("peak", "") else "")
                   if (o, m) in pts and "paper_peak_fraction" in pts[(o, m)]["rates"] else "-" for o in orders]
            lines.append(f"| {m} | % of {scalar} vector peak (* FP64 matrix peak) | " + " | ".join(row) + " |")
            row = [pts[(o, m)]["verification"]["status"] if (o, m) in pts else "-" for o in orders]
            lines.append(f"| {m} | verified | " + " | ".join(row) + " |")
        lines += ["", f"## {scalar}: kernel parameters (banas Tables 3-4)", "",
                  "| parameter | " + " | ".join(f"p={o}" for o in orders) + " |", "|---|" + "---:|" * len(orders)]
        rows = [("threads per team, REG", "reg-jac", "team_size"), ("threads per team, SHM", "shm-jac", "team_size"),
                ("parts of Ae, REG", "reg-jac", "parts"), ("parts of Ae, SHM", "shm-jac", "parts"),
                ("blocks per thread, SHM", "shm-jac", "blocks_per_thread"),
                ("points per barrier batch, JAC (0: per point)", "reg-jac", "points_per_batch"),
                ("points per barrier batch, NOJAC (0: per point)", "reg-nojac", "points_per_batch"),
                ("team scratch bytes, SHM", "shm-jac", "scratch_bytes"),
                ("elements per launch", "reg-jac", "elements_per_launch"),
                ("elements per team", "reg-jac", "elements_per_team"),
                ("input per launch JAC [MB]", "reg-jac", "input_bytes_per_launch"),
                ("input per launch NOJAC [MB]", "reg-nojac", "input_bytes_per_launch"),
                ("output per launch [MB]", "reg-jac", "output_bytes_per_launch"),
                ("gemm threads per team", "gemm", "team_size"), ("gemm tile pairs", "gemm", "tile_pairs"),
                ("gemm unit", "gemm", "unit")]
        for label, m, key in rows:
            cells = []
            for o in orders:
                k = pts.get((o, m), {}).get("kernel_parameters", {})
                v = k.get(key)
                cells.append("-" if v is None else f"{v / 1e6:.2f}" if key.endswith("bytes_per_launch") else f"{v}")
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        lines.append("")
    path = os.path.join(out_dir, "stages_summary.md")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def make_stage_figures(doc, points, out_dir, device):
    written = [write_tables(doc, points, out_dir, device)]
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def finish(fig, ax, title, name, legend_size=8):
        ax.set_title(f"{title}\n{device}", fontsize=9)
        ax.legend(fontsize=legend_size)
        path = os.path.join(out_dir, name)
        fig.tight_layout()
        fig.savefig(path, dpi=120)
        plt.close(fig)
        written.append(path)

    for scalar in ("double", "float"):
        pts = by_key(points, scalar)
        orders = sorted({o for o, _ in pts})
        if not orders:
            continue
        mappings = [m for m in MAPPINGS if any((o, m) in pts for o in orders)]
        # Fig. 2 after banas: kernel time per element vs p
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for m in mappings:
            xs = [o for o in orders if (o, m) in pts]
            ax.plot(xs, [us(pts[(o, m)], "kernel") for o in xs], marker="o", label=m)
        ref = [o for o in orders if o in PAPER_BEST_GTX580_US]
        if ref:
            ax.plot(ref, [PAPER_BEST_GTX580_US[o] for o in ref], "k--", label="banas best, GTX580 float")
        ax.set_yscale("log")
        ax.set_xlabel("order p")
        ax.set_ylabel("kernel time per element [us]")
        ax.grid(True, which="both", alpha=0.3)
        finish(fig, ax, f"Element matrices, prisms: kernel per element ({scalar})", f"stages_kernel_{scalar}.png")
        # stages of one element: the fastest kernel and the fastest paper variant per p
        fig, ax = plt.subplots(figsize=(8, 4.5))
        labels, bottoms = [], []
        bars = {s: [] for s in STAGES}
        for o in orders:
            for group in (mappings, [m for m in PAPER if m in mappings]):
                cand = [m for m in group if (o, m) in pts]
                if not cand:
                    continue
                best = min(cand, key=lambda m: us(pts[(o, m)], "kernel"))
                labels.append(f"p{o}\n{best}")
                for s in STAGES:
                    bars[s].append(us(pts[(o, best)], s))
        bottoms = [0.0] * len(labels)
        for s in STAGES:
            ax.bar(range(len(labels)), bars[s], bottom=bottoms, label=s)
            bottoms = [b + v for b, v in zip(bottoms, bars[s])]
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, fontsize=6)
        ax.set_yscale("log")
        ax.set_ylabel("time per element [us]")
        finish(fig, ax, f"Stages per element, fastest kernel and fastest paper variant ({scalar})",
               f"stages_breakdown_{scalar}.png")
        # Fig. 3 after banas: GFLOP/s in the paper's flop model
        fig, ax = plt.subplots(figsize=(8, 4.5))
        width = 0.8 / max(1, len(mappings))
        for i, m in enumerate(mappings):
            xs = [j + i * width for j, o in enumerate(orders) if (o, m) in pts]
            ax.bar(xs, [pts[(o, m)]["rates"]["paper_gflop_per_s"] for o in orders if (o, m) in pts], width, label=m)
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(orders))])
        ax.set_xticklabels([f"p={o}" for o in orders])
        ax.set_ylabel("GFLOP/s (paper's flop model, kernel time)")
        peak = next((p["rates"]["peak_gflop_per_s"] for p in pts.values()
                     if "peak_gflop_per_s" in p["rates"] and p["rates"].get("peak", "").endswith("vector")), None)
        if peak:
            ax.axhline(0.25 * peak, color="k", ls="--", lw=0.8, label=f"25% of {scalar} vector peak")
        finish(fig, ax, f"Element matrices, prisms: performance ({scalar})", f"stages_gflops_{scalar}.png", 7)
    return written
