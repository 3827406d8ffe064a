# issue 44 on the 16 host cores of the H200 machine, session 44 call 2: kfem for OpenMP + Serial
# built here (scripts/build-openmp-offline, -march=native of this host) from main's tree 82ca972
# ("old", carried as build/carry/old-src.tar.gz) and from eeb50ed's tree ("new", the carried working
# tree: batch-owner's partition plan on the execution space, the set-up's allocations in blocks).
# Cold processes alternated: mesh1 x 3, mesh4 x 2, batch-owner x none in double (the OpenMP default).
mkdir -p /tmp/old && tar xzf build/carry/old-src.tar.gz -C /tmp/old
step build-new bash -c 'scripts/build-openmp-offline /tmp/omp-new.log; tail -n 3 /tmp/omp-new.log'
step build-old bash -c "KFEM_GPU_PACK=$PWD/.gpu-pack /tmp/old/scripts/build-openmp-offline /tmp/omp-old.log; tail -n 3 /tmp/omp-old.log"
new=$PWD/build/openmp-offline/kfem old=/tmp/old/build/openmp-offline/kfem
export OMP_PROC_BIND=spread OMP_PLACES=threads OMP_NUM_THREADS=16
step cpu-info $new info
timed() { local name=$1; shift; step "$name" bash -c 'TIMEFORMAT="wall_s %R"; time "$@"' _ "$@"; }
for r in 1 2 3; do
  for v in old new; do
    timed $v$r-mesh1 ${!v} run --mesh mesh1 --no-solve --backend openmp --report $out/$v$r-mesh1.json
  done
done
for r in 1 2; do
  for v in old new; do
    timed $v$r-mesh4 ${!v} run --mesh mesh4 --no-solve --backend openmp --report $out/$v$r-mesh4.json
  done
done
python3 - $out <<'PY' | tee $out/summary.txt
import json, sys, glob
d = sys.argv[1]
for m in ("mesh1", "mesh4"):
    for v in ("old", "new"):
        for f in sorted(glob.glob(f"{d}/{v}[0-9]-{m}.json")):
            r = json.load(open(f)); p = r["point"]; s = p["setup"]
            print(f"{m} {v}: wall {r['wall_s']:.2f} s, first_matrix {p['first_matrix_s']*1e3:.1f} ms, "
                  f"upload {s.get('mesh_to_device_s',0)*1e3:.1f}, graph {s.get('graph_s',0)*1e3:.1f}, "
                  f"element data {s.get('element_data_s',0)*1e3:.1f}, first assembly {p['first_assembly_s']*1e3:.1f}, "
                  f"oracle {p['verification'].get('oracle_s',0):.2f} s, {p['verification']['status']}, "
                  f"{p.get('mapping')} x {p.get('race')}")
PY
