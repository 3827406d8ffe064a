# The memory of every storage for the same cantilever (hex8 elasticity, 32x8x8, CG to 1e-8), from
# kfem's own reports: solve.memory (values + pattern + index; for element/ebe the operator's).
# Run from the repository root after scripts/setup: reports/runs/2026-12-07-vm-storage-memory/run.sh
set -euo pipefail
out=reports/runs/2026-12-07-vm-storage-memory
for s in double float; do
  for st in "csr --mapping pairs" "csr-lower --mapping sympairs" "bsr --mapping pairs" \
            "element --mapping pairs" "ebe --mapping pairs"; do
    name=$(echo "$st" | cut -d' ' -f1)
    build/openmp/kfem run --mesh 32x8x8 --race atomic --storage $st --scalar $s --repetitions 3 --warmup 1 \
      --report /tmp/storage-$name-$s.json >/dev/null
  done
done
python3 - <<'PY'
import json
pts = []
for s in ("double", "float"):
    for st in ("csr", "csr-lower", "bsr", "element", "ebe"):
        p = json.load(open(f"/tmp/storage-{st}-{s}.json"))["point"]
        m = p["solve"]["memory"]
        pts.append({"storage": p["storage"], "mapping": p["mapping"], "scalar": s, "elements": p["mesh"]["elements"] if "mesh" in p else None,
                    "bytes_per_element": m["bytes_per_element"], "memory": m,
                    "cg_iterations": p["solve"]["cg_iterations"], "tip_deflection_m": p["solve"]["tip_deflection_m"],
                    "verification": p["verification"]["status"]})
json.dump({"mesh": "32x8x8", "points": pts}, open("reports/runs/2026-12-07-vm-storage-memory/storage-memory.json", "w"), indent=1)
PY
