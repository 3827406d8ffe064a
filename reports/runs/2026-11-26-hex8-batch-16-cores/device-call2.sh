# Session 20, call 2: the same 16-core host kind, three OpenMP binaries built on the development VM
# (-DKFEM_HOST_ARCH=x86-64-v4, Gmsh and MPI off): base = ba513f7 (call 1's), new = the working tree
# (host zeroing through Kokkos' fill, omp simd pair products, block-wise scatter), b64 = new with runs
# of 64 batches (512 elements) instead of 8. mesh4 double A/B, then new on mesh4 float and meshes 1-3.
set -u
FINAL=$OUT; OUT=/tmp/c2; rm -rf $OUT; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $FINAL/results.tgz -C $OUT . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
lscpu > $OUT/cpu.txt; grep -E "Model name|^CPU\(s\)|Thread|Core\(s\)|Socket" $OUT/cpu.txt
mkdir -p /tmp/pk /tmp/b; tar xzf .gpu-carry/lib.tgz -C /tmp/pk
for v in base new b64; do xz -dc .gpu-carry/kfem-$v.xz > /tmp/b/kfem-$v; done; chmod +x /tmp/b/*
export LD_LIBRARY_PATH=/tmp/pk/lib KFEM_PLOT=/nonexistent OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores
D=inputs/sanfui-symmetry.yaml; R="--backend openmp --warmup 1 --repetitions 5"
b() { local v=$1 name=$2 t=$3; shift 3
  timeout $t /tmp/b/kfem-$v bench $D $R --out $OUT/$name "$@" > $OUT/$name.txt 2>&1; echo "$name rc=$?"
  grep -E "^mesh[0-9]" $OUT/$name.txt; el; save; }
b new mesh4-double-new 150 --mesh mesh4 --mapping batch --mapping pairs --race colored --scalar double
b base mesh4-double-base 110 --mesh mesh4 --mapping batch --race colored --scalar double
b b64 mesh4-double-b64 110 --mesh mesh4 --mapping batch --race colored --scalar double
b new mesh4-float-new 110 --mesh mesh4 --mapping batch --race colored --scalar float
b new meshes123-new 100 --mesh mesh1 --mesh mesh2 --mesh mesh3 --mapping batch --mapping pairs --race colored --scalar double
