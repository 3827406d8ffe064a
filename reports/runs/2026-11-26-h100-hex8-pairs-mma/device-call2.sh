# Session 22, call 2: the working tree after the index prefetch (scatter_sorted reads a staged copy
# of the element's CSR index, fetched at the kernel's start) and the new launch order option
# (--element-order morton), built there; the CUDA typed tests; mesh4 pairs / pairs-mma / sympairs /
# sympairs-mma x atomic x double / float, natural and Morton order (verified); ncu counters of the
# pairs and pairs-mma launches in Morton order (assembly and compute-only, double).
set -u
W=/tmp/s22c2; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results.tgz -C $W . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export PATH=$PATH:/usr/local/cuda/bin KFEM_CACHE=/tmp/kfem-cache KFEM_KOKKOS_SRC_PACK=$PWD/.gpu-pack/kokkos-src.tar.gz
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
export KFEM_PLOT=/nonexistent
OFF=$(scripts/offline-cmake-args $PWD/.gpu-pack)
pre=$(scripts/bootstrap-kokkos cuda 2>$W/kokkos-cuda.log | tail -n 1); el
KFEM_GIT_REVISION=$(cat .gpu-pack/revision) cmake -S . -B /tmp/bn -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS=-lineinfo -DCMAKE_CXX_COMPILER=$pre/bin/nvcc_wrapper -DKokkos_ROOT=$pre -DKokkosKernels_ROOT=$pre $OFF > $W/cfg.log 2>&1
cmake --build /tmp/bn -j 16 --target kfem test_assembly > $W/build.log 2>&1; echo "build rc=$?"; tail -n 1 $W/build.log; el; save
timeout 200 /tmp/bn/tests/test_assembly --gtest_filter='Equivalence*:BatchOwner*' > $W/test_cuda.txt 2>&1; echo "tests rc=$?"
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]" $W/test_cuda.txt; el; save
for o in natural morton; do
  timeout 200 /tmp/bn/kfem bench inputs/hex8-check.yaml --mapping pairs --mapping pairs-mma --mapping sympairs --mapping sympairs-mma \
    --scalar double --scalar float --element-order $o --out $W/mesh4-$o > $W/mesh4-$o.txt 2>&1
  echo "mesh4 $o rc=$?"; grep -E "^mesh4" $W/mesh4-$o.txt; el; save
done
printf 'mesh: {size: mesh4}\nassembly: {mapping: [pairs, pairs-mma], race: atomic, element_order: morton}\nbench: {warmup: 0, repetitions: 1, verify_limit: 0}\n' > /tmp/ncu.yaml
M=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed_pipe_fp64.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_sectors_op_red.sum,lts__t_sector_op_red_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem
for s in long_scoreboard lg_throttle barrier short_scoreboard mio_throttle wait math_pipe_throttle no_instruction not_selected drain membar; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
timeout 200 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:Hex8Pairs --launch-count 4 --csv --metrics $M \
  /tmp/bn/kfem bench /tmp/ncu.yaml --out /tmp/ncu > $W/ncu-morton.csv 2> $W/ncu.err; echo "ncu rc=$? lines $(wc -l < $W/ncu-morton.csv)"; el
save
