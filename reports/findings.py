#!/usr/bin/env python3
"""The best verified figure per family x storage x scalar x device, from every committed results file.

    reports/findings.py            # (re)writes reports/FINDINGS.md
    reports/findings.py --check    # exit 1 (one line) when reports/FINDINGS.md is not what this script makes

Reads every file named results*.json or results*.json.xz (xz: Python's lzma) under reports/runs/,
recursively, skipping names that start with '.'. Standard library only; paths are taken relative to
this file, so it runs from any directory and in a fresh clone. The output holds no timestamps and
sorts everything, so regenerating it from the same files gives the same bytes. The rules are written
into the generated file's header (render() below); every figure in it is read from a results file.
"""

import fnmatch
import json
import lzma
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
RUNS = os.path.join(HERE, "runs")
OUTPUT = os.path.join(HERE, "FINDINGS.md")
PATTERNS = ("results*.json", "results*.json.xz")
GPU_BACKENDS = {"Cuda", "HIP", "SYCL", "OpenMPTarget"}
FAMILY_ORDER = {"hex8": 0, "tri3": 1, "prism": 2}
REFERENCE_MESH = "mesh4"  # hex8's reference mesh (kiran Table 3's largest; issue 18's targets)


# ---------------------------------------------------------------------------------------------
# reading


def rel(path, start=None):
    return os.path.relpath(path, start or HERE).replace(os.sep, "/")


def scan():
    """(results files, other JSON files) under runs/, sorted; a .json beside its .json.xz is read, not the .xz."""
    found, others = [], []
    for root, dirs, files in os.walk(RUNS):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = os.path.join(root, name)
            if any(fnmatch.fnmatchcase(name, p) for p in PATTERNS):
                found.append(path)
            elif name.endswith(".json") or name.endswith(".json.xz"):
                # Bench results saved under another name (a sweep's per-family files) count too.
                (found if what_is(path).startswith("kfem bench results") else others).append(path)
    present = set(found)
    found = [f for f in found if not (f.endswith(".xz") and f[: -len(".xz")] in present)]
    return sorted(found, key=rel), sorted(others, key=rel)


def load(path):
    if path.endswith(".xz"):
        with lzma.open(path, "rt", encoding="utf-8") as f:
            return json.load(f)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def repo_deck(deck):
    """The deck as a path in this repository ('inputs/x.yaml'), or None when it is not committed here."""
    if not isinstance(deck, str) or not deck:
        return None
    # Committed decks live in inputs/; a file elsewhere in a working tree (an ignored build/ folder)
    # would make the table depend on the clone it is generated in.
    m = re.search(r"(?:^|/)(inputs/[^/]+\.yaml)$", deck)
    if m and os.path.isfile(os.path.join(REPO, m.group(1))):
        return m.group(1)
    return None


# ---------------------------------------------------------------------------------------------
# what a point is


def cpu_model(model):
    model = re.sub(r"\((R|r|TM|tm)\)", "", model or "")
    model = re.sub(r"\b(Processor|CPU)\b", "", model)
    return " ".join(model.split()) or "unknown CPU"


def device_of(context, backend):
    """('GPU'|'CPU', label, threads or None)."""
    if backend in GPU_BACKENDS:
        dev = context.get("device") or {}
        name = " ".join(str(dev.get("name", "")).split())
        return "GPU", name or f"unnamed {backend} device", None
    host = context.get("host") or {}
    threads = (context.get("kokkos") or {}).get("host_concurrency")
    return "CPU", f"{backend}, {host.get('cores', '?')} cores {cpu_model(host.get('cpu_model'))}", threads


def family_of(point):
    mesh = point.get("mesh") or {}
    family = point.get("family") or mesh.get("family")
    if family:
        return family
    name = str(mesh.get("name", ""))
    if re.fullmatch(r"mesh[1-4]|\d+x\d+x\d+", name):
        return "hex8"
    if name.startswith("prism:"):
        return "prism"
    if name.startswith("tri:"):
        return "tri3"
    return None


LOWER_MAPPINGS = {"sym300", "sym300x2", "sympairs", "sympairs-mma", "symbox-owner"}


# The storage axis' names against the labels of the files before it (full, lower): the groups stay
# one per assembled matrix. element and ebe points time the CSR their mapping writes.
STORAGE_LABELS = {"csr": "full", "csr-lower": "lower", "acoo": "full"}


def storage_of(point):
    storage = point.get("storage") or ("lower" if point.get("mapping") in LOWER_MAPPINGS else "full")
    if storage in ("element", "ebe"):
        storage = "lower" if point.get("mapping") in LOWER_MAPPINGS else "full"
    storage = STORAGE_LABELS.get(storage, storage)
    return storage + " (a-COO)" if point.get("race") == "acoo" else storage


def sig(x, digits=4):
    """x with `digits` significant digits, fixed-point (no exponent): 7.015, 0.004118, 286.7."""
    if x == 0:
        return "0"
    decimals = max(0, digits - 1 - int(math.floor(math.log10(abs(x)))))
    return f"{x:.{decimals}f}"


def mesh_option(name):
    m = re.fullmatch(r"(.*)\+r(\d+)", name)
    return (m.group(1), int(m.group(2))) if m else (name, 0)


def common_options(point, mesh, backend, threads, problem_flag):
    opts = []
    name, refine = mesh_option(str(mesh.get("name")))
    opts += ["--mesh", name]
    if refine:
        opts += ["--refine", str(refine)]
    if problem_flag:
        opts += ["--problem", problem_flag]
    if point.get("family") == "prism" or mesh.get("family") == "prism":
        opts += ["--order", str(point.get("order") or mesh.get("order"))]
    opts += ["--mapping", point["mapping"]]
    if "race" in point:
        opts += ["--race", point["race"]]
    opts += ["--scalar", point["scalar"]]
    if point.get("target"):
        opts += ["--target", point["target"]]
    if point.get("element_order"):
        opts += ["--element-order", point["element_order"]]
    if backend in GPU_BACKENDS and point.get("elements_per_team"):
        opts += ["--elements-per-team", str(point["elements_per_team"])]
    coloring = (point.get("setup") or {}).get("coloring_method")
    if coloring and coloring != "greedy":
        opts += ["--coloring", coloring]
    if mesh.get("renumber") and mesh["renumber"] != "natural":
        opts += ["--renumber", mesh["renumber"]]
    if mesh.get("distort"):
        opts += ["--distort", repr(float(mesh["distort"]))]
    opts += ["--backend", backend.lower()]
    if threads is not None and backend == "OpenMP":
        opts += [f"--kokkos-threads={threads}"]
    return opts


# ---------------------------------------------------------------------------------------------
# collecting


class Record:
    def __init__(self):
        self.files = {}  # kind -> count
        self.unread = []  # (path, why)
        self.others = []
        self.status = {}  # bench: verification status -> count
        self.excluded = []  # (path, why) for points that could not be placed
        self.bench = []  # candidate dicts
        self.stages = []
        self.stage_status = {}
        self.procurement = []
        self.procurement_invalid = 0
        self.scaling_status = {}  # (one-rank|multi-rank, status) -> count
        self.includes = {}  # storage label -> set of includes

    def merge(self, other):
        for name, value in vars(other).items():
            mine = getattr(self, name)
            if isinstance(value, list):
                mine.extend(value)
            elif isinstance(value, dict):  # counters, or sets of includes
                for k, v in value.items():
                    if isinstance(v, set):
                        mine.setdefault(k, set()).update(v)
                    else:
                        mine[k] = mine.get(k, 0) + v
            else:
                setattr(self, name, mine + value)


def run_columns(path):
    r = rel(path, RUNS)
    folder, _, inside = r.partition("/")
    return folder, inside


def collect():
    rec = Record()
    files, rec.others = scan()
    for path in files:
        try:
            data = load(path)
        except (OSError, ValueError, EOFError, lzma.LZMAError) as e:
            rec.unread.append((path, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}".strip()))
            continue
        if not isinstance(data, dict) or not isinstance(data.get("points"), list) or "context" not in data:
            rec.unread.append((path, "not a kfem results object (no context/points)"))
            continue
        kind = data.get("kind") or "bench"
        part = Record()  # merged only when the whole file was understood
        try:
            if kind == "bench":
                bench_points(part, path, data)
            elif kind == "stages":
                stage_points(part, path, data)
            elif kind == "procurement":
                procurement(part, path, data)
            elif kind == "scaling":
                for p in data["points"]:
                    status = (p.get("verification") or {}).get("status", "missing")
                    multi = "multi-rank" if int(p.get("ranks", 1)) > 1 else "one-rank"
                    part.scaling_status[(multi, status)] = part.scaling_status.get((multi, status), 0) + 1
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            rec.unread.append((path, f"unexpected structure ({type(e).__name__}: {e})"))
            continue
        part.files[kind] = 1
        rec.merge(part)
    return rec


def bench_points(rec, path, data):
    context = data["context"]
    deck = repo_deck(data.get("deck"))
    for index, p in enumerate(data["points"]):
        status = (p.get("verification") or {}).get("status", "missing")
        rec.status[status] = rec.status.get(status, 0) + 1
        if status != "passed":
            continue
        mesh = p.get("mesh") or {}
        family = family_of(p)
        median = ((p.get("assembly") or {}).get("stats") or {}).get("median")
        why = None
        if family is None:
            why = "no family"
        elif not isinstance(median, (int, float)) or median <= 0:
            why = "no positive assembly median"
        elif not mesh.get("elements") or not mesh.get("nodes") or not mesh.get("dofs"):
            why = "mesh without elements/nodes/dofs"
        if why:
            rec.excluded.append((f"{rel(path)} point {index}", why))
            continue
        order = p.get("order") or mesh.get("order") or 1
        kind, device, threads = device_of(context, p["backend"])
        components = mesh["dofs"] // mesh["nodes"]
        storage = storage_of(p)
        includes = (p.get("assembly") or {}).get("includes", "not stated")
        rec.includes.setdefault(storage, set()).add(includes)
        point = dict(p, family=family, order=order)
        problem = "electrostatics" if components == 1 else None
        cmd = ["kfem", "run"] + ([deck] if deck else []) + common_options(
            point, mesh, p["backend"], threads, problem) + ["--no-solve"]
        rec.bench.append({
            "group": (FAMILY_ORDER.get(family, 9), family, order, storage, p["scalar"], kind != "GPU", device,
                      components, includes),
            "size": (mesh["elements"], mesh["nodes"]),
            "median": float(median),
            "where": (rel(path), index),
            "family": family, "order": order, "storage": storage, "scalar": p["scalar"], "device": device,
            "threads": threads, "components": components, "mesh": str(mesh.get("name")),
            "elements": mesh["elements"], "strategy": f"{p['mapping']} × {p.get('race', '?')}",
            "build": build_of(context), "command": " ".join(cmd), "path": path,
        })


def build_of(context):
    k = context.get("kfem") or {}
    rev = str(k.get("git_revision", "unknown"))[:7] if k.get("git_revision") != "unknown" else "unknown"
    return rev + ("-dirty" if k.get("git_dirty") else "")


def stage_points(rec, path, data):
    context = data["context"]
    deck = repo_deck(data.get("deck")) or str(data.get("deck"))
    for index, p in enumerate(data["points"]):
        status = (p.get("verification") or {}).get("status", "missing")
        rec.stage_status[status] = rec.stage_status.get(status, 0) + 1
        if status != "passed":
            continue
        mesh = p.get("mesh") or {}
        kernel = ((p.get("stages") or {}).get("kernel") or {}).get("median_us")
        elements = p.get("elements") or mesh.get("elements")
        if not isinstance(kernel, (int, float)) or kernel <= 0 or not elements:
            rec.excluded.append((f"{rel(path)} point {index}", "stage point without a kernel median or elements"))
            continue
        kind, device, threads = device_of(context, p["backend"])
        symmetric = bool((p.get("kernel_parameters") or {}).get("symmetric_blocks"))
        point = dict(p, family="prism")
        opts = common_options(point, mesh, p["backend"], threads, None)
        if symmetric:
            opts.append("--symmetric-blocks")
        rec.stages.append({
            "group": (p["order"], p["scalar"], kind != "GPU", device),
            "size": (elements, mesh.get("nodes", 0)),
            "median": float(kernel),
            "where": (rel(path), index),
            "order": p["order"], "scalar": p["scalar"], "device": device, "threads": threads,
            "mesh": str(mesh.get("name")), "elements": elements,
            "strategy": p["mapping"] + (" (symmetric blocks)" if symmetric else ""),
            "build": build_of(context), "command": " ".join(["kfem", "bench", deck] + opts), "path": path,
        })


def procurement(rec, path, data):
    fom = data["figure_of_merit"]
    conditions = fom.get("conditions") or []
    if not (fom.get("valid") is True and conditions and all(c.get("ok") is True for c in conditions)):
        rec.procurement_invalid += 1
        return
    ranks = data.get("ranks") or []
    strategy = fom["strategy"]
    backend = strategy["backend"]
    if backend in GPU_BACKENDS:
        names = sorted({" ".join(str((r.get("device") or {}).get("name", "")).split()) for r in ranks})
        device = " + ".join(names) or device_of(data["context"], backend)[1]
        kind = "GPU"
    else:
        kind, device, _ = device_of(data["context"], backend)
    n = int(fom["ranks"])
    deck = repo_deck(data.get("deck"))
    cmd = (f"mpirun -np {n} " if n > 1 else "") + "kfem bench " + (deck or str(data.get("deck")))
    rec.procurement.append({
        "group": (kind != "GPU", device, n, strategy["scalar"], int(fom["elements"]), str(fom["mesh"])),
        "value": float(fom["assembled_gdof_per_s"]),
        "where": (rel(path), 0),
        "device": device, "ranks": n, "scalar": strategy["scalar"], "mesh": str(fom["mesh"]),
        "elements": int(fom["elements"]), "assembly_ms": float(fom["assembly_median_s"]) * 1e3,
        "cg": float(fom["cg_gflop_per_s"]), "strategy": f"{strategy['mapping']} × {strategy['race']}",
        "build": build_of(data["context"]), "command": cmd, "committed_deck": deck is not None, "path": path,
    })


def best_on_largest(candidates):
    """Per group: the candidates on the group's largest size, and the fastest of them."""
    groups = {}
    for c in candidates:
        groups.setdefault(c["group"], []).append(c)
    out = []
    for group in sorted(groups):
        members = groups[group]
        size = max(c["size"] for c in members)
        on = [c for c in members if c["size"] == size]
        best = min(on, key=lambda c: (c["median"], c["where"]))
        out.append((best, len(on), len({c["size"] for c in members})))
    return out


# ---------------------------------------------------------------------------------------------
# writing


def cell(text):
    return str(text).replace("|", "\\|")


def run_cell(path):
    folder, inside = run_columns(path)
    return f"[{folder}](runs/{folder}) [`{inside}`](runs/{folder}/{inside})"


def family_label(r):
    return f"prism p={r['order']}" if r["family"] == "prism" else r["family"]


def device_cell(r):
    return r["device"] + (f", {r['threads']} threads" if r.get("threads") is not None else "")


def bench_table(rows, lines):
    lines.append("| family | storage | scalar | dof/node | device | mesh | elements | mapping × race | "
                 "median (ms) | ns/element | verified points compared | build | command | run |")
    lines.append("|---|---|---|---:|---|---|---:|---|---:|---:|---:|---|---|---|")
    for r, compared, _sizes in rows:
        ms = r["median"] * 1e3
        ns = r["median"] * 1e9 / r["elements"]
        lines.append("| " + " | ".join(cell(x) for x in [
            family_label(r), r["storage"], r["scalar"], r["components"], device_cell(r), f"`{r['mesh']}`",
            f"{r['elements']:,}", r["strategy"], sig(ms), sig(ns), compared, r["build"], f"`{r['command']}`",
        ]) + " | " + run_cell(r["path"]) + " |")


def what_is(path):
    """What a JSON file that is not read holds, in a few words."""
    try:
        data = load(path)
    except (OSError, ValueError, EOFError, lzma.LZMAError):
        return "not readable as JSON"
    if isinstance(data, dict) and "kfem_results" in data:
        return f"kfem bench results (kind {data.get('kind') or 'bench'}) under another name"
    if isinstance(data, dict) and "kfem_report" in data:
        return "a `kfem run` report (one point)"
    if isinstance(data, dict) and "kfem_tuner" in data:
        return "a tuner cache"
    return "not kfem results"


def render(rec):
    L = []
    files_total = sum(rec.files.values())
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(rec.files.items()))
    L += [
        "# Findings: the best verified figures in reports/runs",
        "",
        "Generated by `reports/findings.py` from the results files committed under `reports/runs/`; do not",
        "edit by hand. Regenerate with `reports/findings.py` (writes this file) and check with",
        "`reports/findings.py --check` (the `record_findings_current` test). Every number below is read from",
        "a results file; nothing is estimated or carried over from elsewhere.",
        "",
        "## Rules",
        "",
        f"- **Files**: every `{PATTERNS[0]}` and `{PATTERNS[1]}` (xz-compressed) under `reports/runs/`, "
        "recursively, and any other `.json` / `.json.xz` there that holds kfem bench results (`kfem_results`); "
        "names starting with `.` are skipped; where `X.json` and `X.json.xz` both exist only "
        "`X.json` is read. Other JSON files in run folders are not read (listed at the end).",
        "- **Verified only**: a point counts only when its `verification.status` is `passed`. `skipped` "
        "(mesh above `bench.verify_limit`: no oracle consulted) and `FAILED` points are left out, never "
        "shown as figures; their counts are given under *Scanned*.",
        "- **Figure**: the median of the timed assemblies (`assembly.stats.median`, warm-ups excluded). "
        "What one timed assembly includes is the point's `assembly.includes`:",
    ]
    for storage in sorted(rec.includes):
        for inc in sorted(rec.includes[storage]):
            L.append(f"  - storage `{storage}`: \"{inc}\"")
    L += [
        "  Setup (mesh to device, CSR graph, colouring, element data) is not in it.",
        "- **Groups**: family (hex8, tri3; prisms one row per order p), storage (the point's `storage`; "
        "files older than that field hold only full-storage mappings, so it is taken from the mapping: "
        "`sym*` lower, else full; race `acoo` is its own row, `full (a-COO)`, as its time includes "
        "building the CSR), scalar, DOFs per node (1: electrostatics, 3: elasticity), the assembly's "
        "`includes`, and the device: a GPU backend's `context.device.name` (whitespace normalised), or "
        "for host backends the backend, `context.host.cores` and `context.host.cpu_model` (without "
        "(R)/(TM)/Processor/CPU). A family missing from old files is taken from the mesh name "
        "(`mesh1`..`mesh4` and `NXxNYxNZ` are hex8).",
        "- **Size**: times are compared only on one mesh size (elements and nodes). Each group shows "
        "its largest size (by elements) with a verified point, and the lowest median on it; ties go to "
        "the first file in path order. *verified points compared* counts the group's verified points on "
        "that size. The hex8 table on `mesh4` below shows the same choice on the reference mesh, "
        "whatever larger meshes a group also measured.",
        "- **Threads**: host rows give the Kokkos host concurrency of the run that won.",
        "- **Command**: built from the winning point's own fields; `kfem run` with the run's deck when "
        "that deck is committed under `inputs/` (decks in `/tmp` are not: the run folder's scripts "
        "hold them), `--mesh` (a `+rN` suffix is `--refine N` of that mesh file, which "
        "`scripts/amorim-bench` makes), `--order` for prisms, `--problem electrostatics` for 1 DOF "
        "per node, `--mapping`, `--race`, `--scalar`, and where the point carries them `--target`, "
        "`--element-order`, `--elements-per-team` (GPU), `--coloring` (if not greedy), `--renumber` "
        "(if not natural), `--distort`, then `--backend` (a CUDA build for GPU rows), "
        "`--kokkos-threads=N` for OpenMP and `--no-solve`. Storage has no option: the mapping decides it.",
        "- **Build**: the results' `context.kfem.git_revision` (7 characters); `-dirty` means the "
        "binary was built from a tree with uncommitted changes, often an experiment kept as a patch "
        "in the run folder whose README says whether it landed: such a figure may not be reproducible "
        "from the named revision alone.",
        "- **Stage sweeps** (`\"kind\": \"stages\"`, banas' prisms): per order p, scalar and device, the "
        "lowest kernel time per element (`stages.kernel.median_us`: the integration kernel only, per "
        "element, median of the runs) among verified points (`verification.status` passed: sampled "
        "element matrices against the reference) on the group's largest mesh; `--symmetric-blocks` "
        "runs (`kernel_parameters.symmetric_blocks`) compete as their own variant.",
        "- **Procurement** (`\"kind\": \"procurement\"`): the best figure of merit (assembled GDOF/s) "
        "per device, ranks, scalar and scored mesh, only where `figure_of_merit.valid` is true and every "
        "condition is ok (verification passed on the verification mesh with the same ranks and "
        "strategy; the scored matrix passed or was skipped above `bench.verify_limit`).",
        "- **Not tabulated**: `\"kind\": \"scaling\"` (MPI weak/strong sweeps): their result is an "
        "efficiency curve over ranks; a multi-rank time is the slowest rank's, over its own and ghost "
        "elements, on a mesh that grows with the ranks (weak) or not (strong), and many multi-rank "
        "points are `skipped` (counts under *Scanned*), so a best time per group would compare unlike "
        "things; see their folders' READMEs. Bench points of procurement files are not in the assembly "
        "tables either (their figure is the figure of merit). Any other `kind` is counted, not read.",
        "- **Order**: rows sorted by family (hex8, tri3, prism by p), storage, scalar, GPUs before CPUs, "
        "device; numbers with 4 significant digits.",
        "",
        "## Scanned",
        "",
        f"- {files_total} results files read ({kinds}).",
        "- Bench points by verification status: "
        + ", ".join(f"{k} {v}" for k, v in sorted(rec.status.items())) + ".",
        "- Stage points by verification status: "
        + ", ".join(f"{k} {v}" for k, v in sorted(rec.stage_status.items())) + ".",
        f"- Procurement files without a valid figure of merit: {rec.procurement_invalid}.",
        "- Scaling points (not tabulated) by ranks and verification status: "
        + (", ".join(f"{m} {k} {v}" for (m, k), v in sorted(rec.scaling_status.items())) or "none") + ".",
    ]
    if rec.excluded:
        L.append(f"- Verified points left out ({len(rec.excluded)}):")
        L += [f"  - `{w}`: {why}" for w, why in rec.excluded]
    if rec.unread:
        L.append(f"- Files that could not be read ({len(rec.unread)}):")
        L += [f"  - `{rel(p)}`: {why}" for p, why in rec.unread]
    else:
        L.append("- Files that could not be read: none.")

    rows = best_on_largest(rec.bench)
    L += ["", "## Assembly: best verified time per family × storage × scalar × device (largest mesh)", "",
          f"{len(rows)} rows.", ""]
    bench_table(rows, L)

    ref = [c for c in rec.bench if c["family"] == "hex8" and c["mesh"] == REFERENCE_MESH]
    ref_rows = best_on_largest(ref)
    L += ["", f"## hex8 on `{REFERENCE_MESH}`: best verified time per storage × scalar × device", "",
          f"{len(ref_rows)} rows: the same rules on `{REFERENCE_MESH}` (512 x 64 x 64, 2,097,152 elements) only, "
          "the mesh every hex8 device was measured on.", ""]
    bench_table(ref_rows, L)

    stage_rows = best_on_largest(rec.stages)
    L += ["", "## Prism stage sweeps: best verified kernel time per element", "",
          f"{len(stage_rows)} rows.", "",
          "| p | scalar | device | mesh | elements | mapping | kernel (µs/element) | verified points compared "
          "| build | command | run |",
          "|---:|---|---|---|---:|---|---:|---:|---|---|---|"]
    for r, compared, _ in stage_rows:
        L.append("| " + " | ".join(cell(x) for x in [
            r["order"], r["scalar"], device_cell(r), f"`{r['mesh']}`", f"{r['elements']:,}", r["strategy"],
            sig(r["median"]), compared, r["build"], f"`{r['command']}`",
        ]) + " | " + run_cell(r["path"]) + " |")

    groups = {}
    for c in rec.procurement:
        groups.setdefault(c["group"], []).append(c)
    L += ["", "## Procurement: best valid figure of merit", "",
          f"{len(groups)} rows. Assembly: the slowest rank per run (median); CG GFLOP/s counts 2 nnz + 13 n "
          "per iteration, halo exchanges and reductions included.", "",
          "| device | ranks | scalar | scored mesh | elements | strategy | assembled GDOF/s | assembly (ms) "
          "| CG GFLOP/s | valid runs compared | build | command | run |",
          "|---|---:|---|---|---:|---|---:|---:|---:|---:|---|---|---|"]
    for group in sorted(groups):
        members = groups[group]
        r = min(members, key=lambda c: (-c["value"], c["where"]))
        command = f"`{r['command']}`" + ("" if r["committed_deck"] else " (deck not committed)")
        L.append("| " + " | ".join(cell(x) for x in [
            r["device"], r["ranks"], r["scalar"], f"`{r['mesh']}`", f"{r['elements']:,}", r["strategy"],
            sig(r["value"]), sig(r["assembly_ms"]), sig(r["cg"]), len(members), r["build"], command,
        ]) + " | " + run_cell(r["path"]) + " |")

    L += ["", "## Not read", ""]
    if rec.others:
        L.append(f"{len(rec.others)} JSON files under `reports/runs/` are not bench results; "
                 "they are not in the tables above:")
        L.append("")
        L += [f"- `{rel(p, RUNS)}`: {what_is(p)}" for p in rec.others]
    else:
        L.append("None.")
    return "\n".join(L) + "\n"


def main(argv):
    check = False
    for a in argv[1:]:
        if a == "--check":
            check = True
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            print(f"findings.py: unknown argument '{a}' (use --check or nothing)", file=sys.stderr)
            return 2
    text = render(collect())
    if check:
        try:
            with open(OUTPUT, encoding="utf-8") as f:
                old = f.read()
        except OSError:
            print(f"{rel(OUTPUT, REPO)} is missing: run reports/findings.py to generate it")
            return 1
        if old == text:
            return 0
        a, b = old.splitlines(), text.splitlines()
        n = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        print(f"{rel(OUTPUT, REPO)} is out of date (first difference at line {n + 1}; "
              f"{len(a)} lines in the file, {len(b)} regenerated): run reports/findings.py and commit it")
        return 1
    with open(OUTPUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
