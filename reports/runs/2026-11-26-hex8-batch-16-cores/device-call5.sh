# Session 20, call 5 (16-core host of an nvidia-h200 machine): v3 = v2 + software prefetch of the
# batch's value lines before its Ke are computed (Colored::Adder::prefetch), against v2, alternated,
# mesh4 double batch x colored; then both on mesh1.
set -u
FINAL=$OUT; OUT=/tmp/c5; rm -rf $OUT; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $FINAL/results.tgz -C $OUT . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
lscpu > $OUT/cpu.txt
mkdir -p /tmp/pk /tmp/b; tar xzf .gpu-carry/lib.tgz -C /tmp/pk
for v in v2 v3; do xz -dc .gpu-carry/kfem-$v.xz > /tmp/b/kfem-$v; done; chmod +x /tmp/b/*
export LD_LIBRARY_PATH=/tmp/pk/lib KFEM_PLOT=/nonexistent OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores
D=inputs/sanfui-symmetry.yaml; R="--backend openmp --warmup 1 --repetitions 5"
b() { local v=$1 name=$2 t=$3; shift 3
  timeout $t /tmp/b/kfem-$v bench $D $R --out $OUT/$name "$@" > $OUT/$name.txt 2>&1; echo "$name rc=$?"
  grep -E "^mesh[0-9]" $OUT/$name.txt; el; save; }
M4="--mesh mesh4 --mapping batch --race colored --scalar double"
for r in 1 2; do b v3 mesh4-v3-$r 90 $M4; b v2 mesh4-v2-$r 90 $M4; done
for v in v3 v2; do b $v mesh1-$v 40 --mesh mesh1 --mapping batch --race colored --scalar double; done
