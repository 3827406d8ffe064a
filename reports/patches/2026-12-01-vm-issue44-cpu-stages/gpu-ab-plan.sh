# issue 44, for the next session with an H200 (not run: no device was lent on 2026-12-01): this
# tree ("new", with values-beside-element-data.patch applied or not) against main 39d819e ("old",
# its sources in build/device/main-src.tar.gz by `git archive`), both built on the device,
# alternated, 5 rounds of pairs and box-owner on mesh4; sympairs and 30 M pairs; a host timeline
# of new pairs; the CUDA tests of the graph, the element data and the set-up.
#   scripts/device-run reports/patches/2026-12-01-vm-issue44-cpu-stages/gpu-ab-plan.sh
build kfem_timeline test_sparsity test_pipeline
mkdir -p /tmp/main-src && tar xzf build/device/main-src.tar.gz -C /tmp/main-src
prefix=$(scripts/bootstrap-kokkos cuda 2>/dev/null | tail -n 1)
step build-old bash -c "cmake -S /tmp/main-src -B /tmp/main-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER=$prefix/bin/nvcc_wrapper -DKokkos_ROOT=$prefix -DKokkosKernels_ROOT=$prefix -DKFEM_BACKENDS=Cuda \
  $(scripts/offline-cmake-args $PWD/.gpu-pack) >/dev/null && cmake --build /tmp/main-build -j 16 --target kfem | tail -n 3"
cp /tmp/main-build/kfem /tmp/kfem-old
old=/tmp/kfem-old new=$kfem
tests sparsity test_sparsity
tests pipeline test_pipeline
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
export KOKKOS_PROFILE_LIBRARY=$bdir/libkfem_timeline.so KFEM_TIMELINE_REGIONS=kfem
step timeline-new-pairs $new run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda
unset KOKKOS_PROFILE_LIBRARY
python3 - $out <<'PY' | tee $out/summary.txt
import json, sys, glob, os, statistics as st
d = sys.argv[1]
for m in ("pairs", "box-owner"):
    for v in ("old", "new"):
        rows = []
        for f in sorted(glob.glob(f"{d}/{v}[0-9]-{m}.json")):
            p = json.load(open(f))["point"]
            s = p["setup"]
            rows.append((p["first_matrix_s"] * 1e3, s.get("graph_s", 0) * 1e3, s.get("element_data_s", 0) * 1e3,
                         p["first_assembly_s"] * 1e3))
        if rows:
            fm = [r[0] for r in rows]
            print(f"{m:9s} {v}: first_matrix median {st.median(fm):.2f} ms ({min(fm):.2f}-{max(fm):.2f}); graph "
                  f"{min(r[1] for r in rows):.2f}-{max(r[1] for r in rows):.2f}; element data "
                  f"{min(r[2] for r in rows):.2f}-{max(r[2] for r in rows):.2f}; first assembly "
                  f"{min(r[3] for r in rows):.2f}-{max(r[3] for r in rows):.2f}")
PY
