# Session 18, call 1 (asked for nvidia-h200, ran on an H100 and its 16-core host; it ran past the
# 600 s limit inside the OpenMP build, so only the build logs came back, via call 2's machine). Builds there: the working tree for CUDA
# (kfem, test_assembly) and OpenMP (-march=native on the host's Xeon), main 6c083e0 for CUDA (kfem).
# (a) test_assembly on the CUDA space (the new `batch` mapping, the m16n8k4 gemm, the coloured cap);
# (b) banas gemm double p = 1..7 new/old/new; (c) mesh4 double pairs x colored and x atomic,
# new/old alternated, batch x atomic on the GPU; (d) mesh4 double on 16 cores: batch and pairs.
set -u
FINAL=$OUT; W=/tmp/s18c1; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
lscpu | grep -E "Model name|Socket|Core|Thread|NUMA node\(s\)|Flags" | cut -c1-200 | tee $W/cpu.txt
export PATH=$PATH:/usr/local/cuda/bin KFEM_CACHE=/tmp/kfem-cache KFEM_KOKKOS_SRC_PACK=$PWD/.gpu-pack/kokkos-src.tar.gz
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
export KFEM_PLOT=/nonexistent
OFF=$(scripts/offline-cmake-args $PWD/.gpu-pack)
pre=$(scripts/bootstrap-kokkos cuda 2>$W/kokkos-cuda.log | tail -n 1); el
cfg() { cmake -S $1 -B $2 -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$pre/bin/nvcc_wrapper \
  -DKokkos_ROOT=$pre -DKokkosKernels_ROOT=$pre $OFF "${@:3}" > $W/cfg-$(basename $2).log 2>&1; }
KFEM_GIT_REVISION=$(cat .gpu-pack/revision) cfg . /tmp/bn
cmake --build /tmp/bn -j 16 --target kfem test_assembly > $W/build-new.log 2>&1; echo "build new rc=$?"; tail -n 3 $W/build-new.log; el
KFEM_GIT_REVISION=6c083e0d5a5d cfg .old-src /tmp/bo -DKFEM_ENABLE_TESTS=OFF
cmake --build /tmp/bo -j 16 --target kfem > $W/build-old.log 2>&1; echo "build old rc=$?"; tail -n 3 $W/build-old.log; el
C=$(scripts/build-openmp-offline $W/build-openmp.log); echo "openmp: $C"; tail -n 2 $W/build-openmp.log; el
N=/tmp/bn/kfem; O=/tmp/bo/kfem
timeout 400 /tmp/bn/tests/test_assembly > $W/test_assembly_cuda.txt 2>&1; echo "test_assembly rc=$?"
grep -E "^\[  (PASSED|FAILED)|tests ran|FAILED  \]" $W/test_assembly_cuda.txt | tail -8; el
B="--mapping gemm --scalar double --warmup 1 --repetitions 3"
for v in new old new2; do
  K=$N; [ $v = old ] && K=$O
  timeout 90 $K bench inputs/banas.yaml $B --out $W/gemm-$v > $W/gemm-$v.txt 2>&1; echo "gemm $v rc=$?"
  grep -E "^\[" $W/gemm-$v.txt | awk '{print $2, $7}' | paste -sd ' '; el
done
for r in 1 2; do
  for v in new old; do
    K=$N; [ $v = old ] && K=$O
    for race in colored atomic; do
      timeout 120 $K bench inputs/hex8-check.yaml --mapping pairs --race $race --out $W/h-$race-$v-$r > $W/h-$race-$v-$r.txt 2>&1
      echo "pairs $race $v $r rc=$?"; grep -E "^mesh4" $W/h-$race-$v-$r.txt
    done
  done
  el
done
timeout 120 $N bench inputs/hex8-check.yaml --mapping batch --race atomic --out $W/h-batch-gpu > $W/h-batch-gpu.txt 2>&1
echo "batch atomic gpu rc=$?"; grep -E "^mesh4" $W/h-batch-gpu.txt; el
export OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores
$C info > $W/info-cpu.txt 2>&1; grep -i "bandwidth" $W/info-cpu.txt
timeout $(( 560 - ($(date +%s) - start) )) $C bench inputs/sanfui-symmetry.yaml --backend openmp --mesh mesh4 \
  --mapping batch --mapping pairs --race colored --race atomic --scalar double --warmup 1 --repetitions 5 --out $W/cpu-mesh4 > $W/cpu-mesh4.txt 2>&1
echo "cpu rc=$?"; grep -E "^mesh4|^\[" $W/cpu-mesh4.txt | tail; el
cd /tmp/bn && tar cJf $FINAL/bin-new.txz kfem tests/test_assembly; xz -c /tmp/bo/kfem > $FINAL/kfem-old.xz
tar czf $FINAL/results.tgz -C $W . ; cp $W/device.txt $FINAL/; el
