# Session 22, call 1: the new hex8 mappings pairs-mma / sympairs-mma (node-pair products on the
# FP64 matrix units) built there from the working tree (bb9c144 + the new files); the CUDA typed
# tests; mesh4 pairs / pairs-mma / sympairs / sympairs-mma x atomic in double and float (verified);
# ncu counters of one pairs and one pairs-mma launch (double, atomic).
set -u
W=/tmp/s22c1; rm -rf $W; mkdir -p $W
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
timeout 200 /tmp/bn/tests/test_assembly --gtest_filter='Equivalence*' > $W/test_equivalence_cuda.txt 2>&1; echo "equivalence rc=$?"
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]|OK \]" $W/test_equivalence_cuda.txt; el; save
timeout 400 /tmp/bn/kfem bench inputs/hex8-check.yaml --mapping pairs --mapping pairs-mma --mapping sympairs --mapping sympairs-mma \
  --scalar double --scalar float --out $W/mesh4 > $W/mesh4.txt 2>&1
echo "mesh4 rc=$?"; grep -E "^mesh4|^\[" $W/mesh4.txt | head -20; el; save
printf 'mesh: {size: mesh4}\nassembly: {mapping: [pairs, pairs-mma], race: atomic}\nbench: {warmup: 0, repetitions: 1, verify_limit: 0}\n' > /tmp/ncu.yaml
M=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed_pipe_fp64.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_sectors_op_red.sum,lts__t_sectors_op_atom.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem
for s in long_scoreboard lg_throttle barrier short_scoreboard mio_throttle wait math_pipe_throttle no_instruction not_selected; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
timeout 200 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:Hex8Pairs --launch-count 4 --csv --metrics $M \
  /tmp/bn/kfem bench /tmp/ncu.yaml --out /tmp/ncu > $W/ncu-pairs-mma.csv 2> $W/ncu.err; echo "ncu rc=$? lines $(wc -l < $W/ncu-pairs-mma.csv)"; el
save
