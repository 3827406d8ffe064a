# Session 20, call 4 (16-core host of an nvidia-h200 machine): (a) zeroing 4 GiB on 16 threads, four
# ways (zero.cpp, built on the development VM with -march=x86-64-v4); (b) issue 14's banas sweep at
# p = 7 on the CPU, every mapping x scalar, full and --symmetric-blocks, on prism:2x2x2 (16 elements,
# one per thread), with v2 (the landed code).
set -u
FINAL=$OUT; OUT=/tmp/c4; rm -rf $OUT; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $FINAL/results.tgz -C $OUT . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
lscpu > $OUT/cpu.txt
mkdir -p /tmp/pk /tmp/b; tar xzf .gpu-carry/lib.tgz -C /tmp/pk; xz -dc .gpu-carry/kfem-v2.xz > /tmp/b/kfem; chmod +x /tmp/b/kfem .gpu-carry/zero-bench
export LD_LIBRARY_PATH=/tmp/pk/lib KFEM_PLOT=/nonexistent OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores
timeout 120 .gpu-carry/zero-bench 536870912 > $OUT/zero.txt 2>&1; echo "zero rc=$?"; grep -v WARN $OUT/zero.txt; el; save
K=/tmp/b/kfem
timeout 200 $K bench inputs/banas.yaml --backend openmp --order 7 --mesh prism:2x2x2 --out $OUT/p7-full > $OUT/p7-full.txt 2>&1
echo "p7 full rc=$?"; grep -E "^\[" $OUT/p7-full.txt | awk '{print $2, $4, $5, $7, $9}'; el; save
timeout 150 $K bench inputs/banas.yaml --backend openmp --order 7 --mesh prism:2x2x2 --symmetric-blocks \
  --mapping reg-jac --mapping reg-nojac --mapping shm-jac --mapping shm-nojac --out $OUT/p7-sym > $OUT/p7-sym.txt 2>&1
echo "p7 sym rc=$?"; grep -E "^\[" $OUT/p7-sym.txt | awk '{print $2, $4, $5, $7, $9}'; el; save
