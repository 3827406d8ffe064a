# Session 20, call 3: the 16-core host again, OpenMP binaries built on the development VM
# (-DKFEM_HOST_ARCH=x86-64-v4, Gmsh and MPI off): base = ba513f7, v1 = call 2's new, v2 = v1 with the
# pair products out of line and vectorised across the batch (products<W>). mesh4 double A/B
# (v2, v1, base, v2), then v2 on mesh4 float, meshes 1-3, and mesh4 on 8 threads.
set -u
FINAL=$OUT; OUT=/tmp/c3; rm -rf $OUT; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $FINAL/results.tgz -C $OUT . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
lscpu > $OUT/cpu.txt; grep -E "Model name|^CPU\(s\)" $OUT/cpu.txt
mkdir -p /tmp/pk /tmp/b; tar xzf .gpu-carry/lib.tgz -C /tmp/pk
for v in base v1 v2; do xz -dc .gpu-carry/kfem-$v.xz > /tmp/b/kfem-$v; done; chmod +x /tmp/b/*
export LD_LIBRARY_PATH=/tmp/pk/lib KFEM_PLOT=/nonexistent OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores
D=inputs/sanfui-symmetry.yaml; R="--backend openmp --warmup 1 --repetitions 5"
b() { local v=$1 name=$2 t=$3; shift 3
  timeout $t /tmp/b/kfem-$v bench $D $R --out $OUT/$name "$@" > $OUT/$name.txt 2>&1; echo "$name rc=$?"
  grep -E "^mesh[0-9]" $OUT/$name.txt; el; save; }
M4="--mesh mesh4 --mapping batch --race colored --scalar double"
b v2 mesh4-double-v2 150 --mesh mesh4 --mapping batch --mapping pairs --race colored --scalar double
b v1 mesh4-double-v1 90 $M4
b base mesh4-double-base 90 $M4
b v2 mesh4-double-v2b 90 $M4
b v2 mesh4-float-v2 90 --mesh mesh4 --mapping batch --race colored --scalar float
b v2 meshes123-v2 100 --mesh mesh1 --mesh mesh2 --mesh mesh3 --mapping batch --mapping pairs --race colored --race atomic --scalar double
OMP_NUM_THREADS=8 b v2 mesh4-double-v2-t8 90 $M4
