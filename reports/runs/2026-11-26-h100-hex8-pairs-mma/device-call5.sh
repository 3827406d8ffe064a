# Session 22, call 5: main at 9284274 built there; why sympairs-mma's element computation is slow
# (H100 mesh4 double: compute-only 4.29 ms against pairs-mma's 2.93): ncu counters (registers,
# local memory, instructions) of sympairs and sympairs-mma, assembly and compute-only, Morton
# order; pairs-mma / sympairs-mma with 1, 2, 4, 8 elements per team (double, atomic, verified once).
set -u
W=/tmp/s22c5; rm -rf $W; mkdir -p $W
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
cmake --build /tmp/bn -j 16 --target kfem > $W/build.log 2>&1; echo "build rc=$?"; el; save
for ept in 1 2 4 8; do
  timeout 100 /tmp/bn/kfem bench inputs/hex8-check.yaml --mapping pairs-mma --mapping sympairs-mma --elements-per-team $ept \
    --out $W/ept$ept > $W/ept$ept.txt 2>&1; echo "ept $ept rc=$?"
  grep -E "^mesh4" $W/ept$ept.txt | awk '{print $3, $5, $NF}' | paste -sd ' '; el; save
done
printf 'mesh: {size: mesh4}\nassembly: {mapping: [sympairs, sympairs-mma], race: atomic}\nbench: {warmup: 0, repetitions: 1, verify_limit: 0}\n' > /tmp/ncu.yaml
M=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,smsp__inst_executed_pipe_fp64.sum,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_sectors_op_red.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum
for s in long_scoreboard short_scoreboard mio_throttle wait math_pipe_throttle; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
timeout 200 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:Hex8Pairs --launch-count 4 --csv --metrics $M \
  /tmp/bn/kfem bench /tmp/ncu.yaml --out /tmp/ncu > $W/ncu-sympairs.csv 2> $W/ncu.err; echo "ncu rc=$? lines $(wc -l < $W/ncu-sympairs.csv)"; el
save
