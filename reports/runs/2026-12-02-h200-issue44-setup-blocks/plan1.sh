# issue 44 on one H200, session 44 call 1 (binaries built on the development VM, carried): "old" =
# 4bca063's code (main's set-up: 82ca972 changed comments only), "new" = 1db4ec7: one block per set-up
# stage (core/carve.hpp), the DOF graph's workspace kept for the hex8 element data and lent to the
# Morton sort, the graph's row maps before its first kernel, box_grid's temporaries in one block.
# Alternated, 5 rounds of pairs x atomic and box-owner x none on mesh4 (cold processes, verified);
# sympairs and 30 M pairs once each; the CUDA tests of the carve and the graph; a host timeline.
x() { xz -dc build/carry/$1.xz >/tmp/$1 && chmod +x /tmp/$1; }
for b in kfem-old test_core test_sparsity; do [[ -f build/carry/$b.xz ]] && x $b; done
old=/tmp/kfem-old new=$kfem
step core /tmp/test_core --gtest_filter='*Carve*:*Fill*:*Sort*'
step sparsity /tmp/test_sparsity
timed() { local name=$1; shift; step "$name" bash -c 'TIMEFORMAT="wall_s %R"; time "$@"' _ "$@"; }
for r in 1 2 3 4 5; do
  for v in old new; do
    bin=${!v}
    timed $v$r-pairs $bin run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda --report $out/$v$r-pairs.json
    timed $v$r-box-owner $bin run --mesh mesh4 --mapping box-owner --race none --no-solve --backend cuda --report $out/$v$r-box-owner.json
  done
done
for v in old new; do
  bin=${!v}
  timed $v-sympairs $bin run --mesh mesh4 --mapping sympairs --race atomic --no-solve --backend cuda --report $out/$v-sympairs.json
  timed $v-m30-pairs $bin run --mesh 1249x155x155 --mapping pairs --race atomic --no-solve --backend cuda --report $out/$v-m30-pairs.json
done
python3 - $out <<'PY' | tee $out/summary.txt
import json, sys, glob, statistics as st
d = sys.argv[1]
for m in ("pairs", "box-owner", "sympairs", "m30-pairs"):
    for v in ("old", "new"):
        rows = []
        for f in sorted(glob.glob(f"{d}/{v}[0-9]-{m}.json")) + sorted(glob.glob(f"{d}/{v}-{m}.json")):
            r = json.load(open(f)); p = r["point"]; s = p["setup"]
            rows.append((p["first_matrix_s"] * 1e3, s.get("graph_s", 0) * 1e3, s.get("element_data_s", 0) * 1e3,
                         p["first_assembly_s"] * 1e3, s.get("mesh_to_device_s", 0) * 1e3,
                         s.get("morton_order_s", 0) * 1e3, r["wall_s"], p.get("verification", {}).get("status")))
        if rows:
            fm = [r[0] for r in rows]
            rng = lambda i: f"{min(r[i] for r in rows):.2f}-{max(r[i] for r in rows):.2f}"
            print(f"{m:9s} {v:5s}: first_matrix median {st.median(fm):.2f} ({' '.join(f'{x:.2f}' for x in fm)}); "
                  f"upload {rng(4)}; graph {rng(1)} (median {st.median(r[1] for r in rows):.2f}); launch {rng(5)}; "
                  f"element data {rng(2)} (median {st.median(r[2] for r in rows):.2f}); first assembly {rng(3)}; "
                  f"wall {rng(6)}; verification {sorted(set(str(r[7]) for r in rows))}")
PY
export KOKKOS_PROFILE_LIBRARY=$PWD/build/carry/libkfem_timeline.so KFEM_TIMELINE_REGIONS=kfem::setup
step timeline-new-pairs $new run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda --repetitions 1 --warmup 0
step timeline-new-box-owner $new run --mesh mesh4 --mapping box-owner --race none --no-solve --backend cuda --repetitions 1 --warmup 0
unset KOKKOS_PROFILE_LIBRARY
