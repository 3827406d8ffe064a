# Session 21, call 2 (nvidia-h200): main (7dd8a83) built there for CUDA, then rebuilt with
# gemm-prefetch2.patch (the matrix-unit gemm's reference gradients loaded two k-steps ahead, two
# register sets); the CUDA typed tests of the new build (PrismIntegration, Equivalence, BatchOwner);
# banas gemm double p = 1..7 old/new alternated; ncu of both at p = 7.
set -u
W=/tmp/s21c2; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results.tgz -C $W . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export PATH=$PATH:/usr/local/cuda/bin KFEM_CACHE=/tmp/kfem-cache KFEM_KOKKOS_SRC_PACK=$PWD/.gpu-pack/kokkos-src.tar.gz
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
export KFEM_PLOT=/nonexistent
OFF=$(scripts/offline-cmake-args $PWD/.gpu-pack)
pre=$(scripts/bootstrap-kokkos cuda 2>$W/kokkos-cuda.log | tail -n 1); el
KFEM_GIT_REVISION=$(cat .gpu-pack/revision) cmake -S . -B /tmp/bn -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER=$pre/bin/nvcc_wrapper -DKokkos_ROOT=$pre -DKokkosKernels_ROOT=$pre $OFF > $W/cfg.log 2>&1
cmake --build /tmp/bn -j 16 --target kfem > $W/build-old.log 2>&1; echo "build old rc=$?"; el
mkdir -p /tmp/old && cp /tmp/bn/kfem /tmp/old/kfem
patch -p1 < reports/runs/2026-11-26-h200-gemm-prefetch/gemm-prefetch2.patch > $W/patch.log 2>&1; echo "patch rc=$?"
cmake --build /tmp/bn -j 16 --target kfem test_assembly > $W/build-new.log 2>&1; echo "build new rc=$?"; tail -n 2 $W/build-new.log; el; save
timeout 200 /tmp/bn/tests/test_assembly --gtest_filter='PrismIntegration*:Equivalence/Cuda*:BatchOwner*' > $W/test_cuda.txt 2>&1
echo "tests rc=$?"; grep -E "^\[  (PASSED|FAILED)|tests ran|FAILED  \]" $W/test_cuda.txt | tail -8; el; save
B="--mapping gemm --scalar double --warmup 1 --repetitions 3"
for v in new old new2 old2; do
  K=/tmp/bn/kfem; [ ${v:0:3} = old ] && K=/tmp/old/kfem
  timeout 100 $K bench inputs/banas.yaml $B --out $W/gemm-$v > $W/gemm-$v.txt 2>&1; echo "gemm $v rc=$?"
  grep -E "^\[" $W/gemm-$v.txt | awk '{print $2, $7}' | paste -sd ' ' ; el; save
done
printf 'problem: elasticity\nmesh: {distort: 0.1, size: "prism:16x12x10"}\nelement: {order: 7}\nassembly: {mapping: gemm, scalar: double}\nbench: {stages: true, warmup: 0, repetitions: 1}\n' > /tmp/ncu7.yaml
M=gpu__time_duration.sum,launch__registers_per_thread,sm__inst_executed_pipe_tensor_op_dmma.sum,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,lts__t_bytes.sum
for r in barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle wait lg_throttle not_selected selected; do M=$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio; done
for v in new old; do
  K=/tmp/bn/kfem; [ $v = old ] && K=/tmp/old/kfem
  timeout 60 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:gemm_mma --launch-count 1 --csv --metrics $M \
    $K bench /tmp/ncu7.yaml --out /tmp/ncu7$v > $W/ncu-p7-$v.csv 2> $W/ncu-p7-$v.err; echo "ncu $v rc=$?"; el; save
done
