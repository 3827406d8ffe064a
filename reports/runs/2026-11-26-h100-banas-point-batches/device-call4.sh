# Session 23, call 4: the final tree (change-final.patch: batches, the next batch's NOJAC terms
# loaded one batch ahead, 32-bit block numbers), new only: main's times come from calls 2 and 3 (built from the same tree with
# change2.patch reversed, on two H100 machines, within 0.1 % of each other). CUDA typed tests, the
# stage bench of the four paper variants and gemm, ncu of reg-nojac float at p = 4 and 7.
set -u
W=/tmp/s23c4; rm -rf $W; mkdir -p $W
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
cmake --build /tmp/bn -j 16 --target kfem test_assembly > $W/build.log 2>&1; echo "build rc=$?"; el; save
timeout 150 /tmp/bn/tests/test_assembly --gtest_filter='PrismIntegration*' > $W/test_prism_cuda.txt 2>&1; echo "prism tests rc=$?"
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]" $W/test_prism_cuda.txt; el; save
run() { # name args...
  local name=$1; shift
  timeout 90 /tmp/bn/kfem bench inputs/banas.yaml "$@" --warmup 1 --repetitions 3 --out $W/$name > $W/$name.txt 2>&1; echo "$name rc=$?"
  grep -E "^\[" $W/$name.txt | awk '{print $2, $4, $7}' | paste -sd ' '; el; save
}
run nojac-float --mapping reg-nojac --mapping shm-nojac --scalar float
run reg-double --mapping reg-nojac --mapping reg-jac --scalar double
run gemm-double --mapping gemm --scalar double
run jac-float --mapping reg-jac --mapping shm-jac --scalar float
M=gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__sass_inst_executed_op_local_ld.sum
for s in barrier long_scoreboard short_scoreboard mio_throttle lg_throttle wait math_pipe_throttle not_selected; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
for p in 4 7; do
  timeout 60 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:BanasBlocks --launch-count 1 --csv --metrics $M \
    /tmp/bn/kfem bench inputs/banas.yaml --order $p --mapping reg-nojac --scalar float --warmup 0 --repetitions 1 --out /tmp/ncu-$p \
    > $W/ncu-reg-nojac-float-p$p.csv 2> $W/ncu-$p.err; echo "ncu p$p rc=$?"; el; save
done
