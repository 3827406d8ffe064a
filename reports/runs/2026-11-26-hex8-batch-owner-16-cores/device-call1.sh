# Session 21, call 1 (16-core host of an nvidia-h200 machine): mapping batch-owner x none against
# batch x colored (both in one binary, v4 = this session's tree), meshes 1-4, double and float,
# then mesh4 double alternated twice more.
set -u
FINAL=$OUT; OUT=/tmp/c1; rm -rf $OUT; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $FINAL/results.tgz -C $OUT . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
lscpu > $OUT/cpu.txt
mkdir -p /tmp/pk /tmp/b; tar xzf .gpu-carry/lib.tgz -C /tmp/pk
xz -dc .gpu-carry/kfem-v4.xz > /tmp/b/kfem-v4; chmod +x /tmp/b/*
export LD_LIBRARY_PATH=/tmp/pk/lib KFEM_PLOT=/nonexistent OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores
D=inputs/sanfui-symmetry.yaml; R="--backend openmp --warmup 1 --repetitions 5"
b() { local name=$1 t=$2; shift 2
  timeout $t /tmp/b/kfem-v4 bench $D $R --out $OUT/$name "$@" > $OUT/$name.txt 2>&1; echo "$name rc=$?"
  grep -E "^mesh[0-9]" $OUT/$name.txt; el; save; }
b all 300 --mesh mesh1 --mesh mesh2 --mesh mesh3 --mesh mesh4 --mapping batch --mapping batch-owner \
  --race colored --race none --scalar double --scalar float
for r in 1 2; do
  b mesh4-owner-$r 90 --mesh mesh4 --mapping batch-owner --race none --scalar double
  b mesh4-colored-$r 90 --mesh mesh4 --mapping batch --race colored --scalar double
done
