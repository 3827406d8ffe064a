# Session 20, call 1: issue 18's CPU target on the 16-core host of a GPU machine. The OpenMP binary
# (ba513f7, -DKFEM_HOST_ARCH=x86-64-v4, Gmsh and MPI off) was built on the development VM and carried.
# (a) mesh4 double: batch and pairs x colored; (b) meshes 1-3: batch x colored/atomic, pairs x colored;
# (c) mesh4 float batch x colored; (d) mesh1 batch x colored on 1, 2, 4, 8, 16 threads.
set -u
FINAL=$OUT; OUT=/tmp/c1; rm -rf $OUT; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $FINAL/results.tgz -C $OUT . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
lscpu > $OUT/cpu.txt; grep -E "Model name|^CPU\(s\)|Thread|NUMA node\(s\)|L2|L3" $OUT/cpu.txt
mkdir -p /tmp/pk /tmp/b; tar xzf .gpu-carry/lib.tgz -C /tmp/pk; xz -dc .gpu-carry/kfem-cpu.xz > /tmp/b/kfem; chmod +x /tmp/b/kfem
export LD_LIBRARY_PATH=/tmp/pk/lib KFEM_PLOT=/nonexistent OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores
K=/tmp/b/kfem; D=inputs/sanfui-symmetry.yaml; R="--backend openmp --warmup 1 --repetitions 5"
$K info > $OUT/info.txt 2>&1; save
b() { local name=$1 t=$2; shift 2
  timeout $t $K bench $D $R --out $OUT/$name "$@" > $OUT/$name.txt 2>&1; echo "$name rc=$?"
  grep -E "^mesh[0-9]" $OUT/$name.txt; el; save; }
b mesh4-double 240 --mesh mesh4 --mapping batch --mapping pairs --race colored --scalar double
b meshes123 150 --mesh mesh1 --mesh mesh2 --mesh mesh3 --mapping batch --mapping pairs --race colored --race atomic --scalar double
b mesh4-float 150 --mesh mesh4 --mapping batch --race colored --scalar float
for t in 1 2 4 8; do OMP_NUM_THREADS=$t b mesh1-t$t 60 --mesh mesh1 --mapping batch --race colored --scalar double; done
