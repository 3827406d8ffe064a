"""Figures and a table of a scaling sweep (kfem bench with bench.scaling under mpirun; plot.py calls it).

Writes into the output folder:
  scaling_efficiency.png   assembly and CG-iteration efficiency against the rank count, weak and strong
  scaling_times.png        assembly median and CG time per iteration against the rank count
  scaling.md               one row per point: ranks x threads, elements, times, efficiencies, imbalance, halo
Series are (mode, strategy, backend, threads per rank, halo transport): runs of one sweep split over several launches
(ranks x threads on one node) are merged by plot.py before they get here.
"""
import os


def series_key(p):
    s = p["scaling"]
    return (s["mode"], f"{p['mapping']} x {p['race']} {p['scalar']}", p["backend"], s.get("threads_per_rank", 1),
            s.get("halo") or "auto")


def cg_iter(p):
    s = p.get("solve", {})  # the iterations alone where recorded (the solve's set-up apart)
    return s.get("cg_iteration_s", s.get("cg_s_per_iteration", 0.0))


def table(points, device):
    rows = ["# Scaling sweep", "", f"Device: {device}. Efficiency against the smallest rank count of each series: "
            "weak t(k0)/t(k), strong k0 t(k0) / (k t(k)); assembly = the slowest rank's median.", "",
            "| mode | strategy | backend | ranks | threads/rank | elements | assembly | eff | CG / iter | eff | "
            "imbalance | halo kB / iter | halo / sums via | one exchange | verification |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|"]
    for p in points:
        s = p["scaling"]
        d = p.get("distributed", {})
        imb = f"{d['imbalance']['assembly']:.3f}" if d else "-"
        halo = f"{d['halo_bytes_per_iteration'] / 1e3:.1f}" if d else "-"
        via = f"{d.get('halo_transport', '-')} / {d.get('sums_transport', '-')}" if d else "-"
        one = f"{d['halo_exchange_s'] * 1e6:.1f} us" if d.get("halo_exchange_s") else "-"
        rows.append(f"| {s['mode']} | {p['mapping']} x {p['race']} {p['scalar']} | {p['backend']} | {p['ranks']} | "
                    f"{s.get('threads_per_rank', 1)} | {p['mesh']['elements']} | "
                    f"{p['assembly']['stats']['median'] * 1e3:.3f} ms | {s['assembly_efficiency']:.2f} | "
                    f"{cg_iter(p) * 1e3:.3f} ms | {s['cg_iteration_efficiency']:.2f} | {imb} | {halo} | {via} | {one} | "
                    f"{p['verification']['status']} |")
    return "\n".join(rows) + "\n"


def make_scaling_figures(doc, points, out_dir, device):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    groups = {}
    for p in points:
        groups.setdefault(series_key(p), []).append(p)
    for name, panels in (("scaling_efficiency.png", (("assembly_efficiency", "assembly"),
                                                      ("cg_iteration_efficiency", "CG per iteration"))),
                         ("scaling_times.png", (("assembly", "assembly median [ms]"), ("cg", "CG per iteration [ms]")))):
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
        for ax, (field, title) in zip(axes, panels):
            for key, ps in sorted(groups.items()):
                ps = sorted(ps, key=lambda p: p["ranks"])
                x = [p["ranks"] for p in ps]
                if field == "assembly":
                    y = [p["assembly"]["stats"]["median"] * 1e3 for p in ps]
                elif field == "cg":
                    y = [cg_iter(p) * 1e3 for p in ps]
                else:
                    y = [p["scaling"][field] for p in ps]
                mode, strategy, backend, threads, halo = key
                ax.plot(x, y, marker="o" if mode == "weak" else "s", linestyle="-" if mode == "weak" else "--",
                        label=f"{mode}: {strategy} ({backend}, {threads} thr/rank, halo {halo})")
            if "efficiency" in field:
                ax.axhline(1.0, color="grey", linewidth=0.8)
                ax.set_ylim(0, 1.15)
            ax.set_xscale("log", base=2)
            ticks = sorted({p["ranks"] for p in points})
            ax.set_xticks(ticks)
            ax.set_xticklabels([str(t) for t in ticks])
            ax.minorticks_off()
            ax.set_xlabel("ranks")
            ax.set_title(title)
            ax.grid(True, alpha=0.3)
        axes[0].legend(fontsize=7)
        fig.suptitle(f"kfem scaling: {device}", fontsize=10)
        fig.tight_layout()
        path = os.path.join(out_dir, name)
        fig.savefig(path, dpi=120)
        plt.close(fig)
        written.append(path)
    path = os.path.join(out_dir, "scaling.md")
    with open(path, "w") as f:
        f.write(table(points, device))
    written.append(path)
    return written
