# Session 26, call 2: the working tree after call 1 (box-owner's row places from a host table instead
# of a 27 x 27 rank in the kernel; EXPERIMENT switches KFEM_BOX_TILE / KFEM_BOX_PLANES / KFEM_BOX_LB=5,
# the last a 128 x 5 launch bound), built there. CUDA tests; mesh4 pairs / pairs-mma x atomic against
# box-owner x none, double and float, verified; variants; ncu of box-owner with and without the bound.
set -u
W=/tmp/s26-2; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-2.tgz -C $W . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export PATH=$PATH:/usr/local/cuda/bin KFEM_CACHE=/tmp/kfem-cache KFEM_KOKKOS_SRC_PACK=$PWD/.gpu-pack/kokkos-src.tar.gz
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
export KFEM_PLOT=/nonexistent
OFF=$(scripts/offline-cmake-args $PWD/.gpu-pack)
pre=$(scripts/bootstrap-kokkos cuda 2>$W/kokkos-cuda.log | tail -n 1); el
KFEM_GIT_REVISION=$(cat .gpu-pack/revision) cmake -S . -B /tmp/bn -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS=-lineinfo -DCMAKE_CXX_COMPILER=$pre/bin/nvcc_wrapper -DKokkos_ROOT=$pre -DKokkosKernels_ROOT=$pre $OFF > $W/cfg.log 2>&1
cmake --build /tmp/bn -j 16 --target kfem test_assembly > $W/build.log 2>&1; echo "build rc=$?"; tail -n 1 $W/build.log; el; save
timeout 150 /tmp/bn/tests/test_assembly --gtest_filter='Equivalence*:BoxOwner*:BoxGrid*:BatchOwner*' > $W/test_cuda.txt 2>&1; echo "tests rc=$?"
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]" $W/test_cuda.txt; el; save
B() { # name "ENV=.. ENV=.." args...
  local name=$1 envs=$2; shift 2
  timeout 150 env $envs /tmp/bn/kfem bench inputs/hex8-check.yaml "$@" --out $W/$name > $W/$name.txt 2>&1; echo "$name rc=$?"
  grep -E "^mesh4" $W/$name.txt | awk '{print $2, $3, $5, $NF}' | paste -sd ' '; el; save
}
B main KFEM_X=0 --mapping pairs --mapping pairs-mma --mapping box-owner --race atomic --race none --scalar double --scalar float
B lb5 KFEM_BOX_LB=5 --mapping box-owner --race none --scalar double --scalar float
B t4f KFEM_BOX_TILE=4 --mapping box-owner --race none --scalar float
B p64 KFEM_BOX_PLANES=64 --mapping box-owner --race none --scalar double
B main2 KFEM_X=0 --mapping pairs --mapping box-owner --race atomic --race none --scalar double --scalar float
printf 'mesh: {size: mesh4}\nassembly: {mapping: [box-owner], race: none, scalar: [double]}\nbench: {warmup: 0, repetitions: 1, verify_limit: 0}\n' > /tmp/ncu.yaml
M=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed_pipe_fp64.sum,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum
for s in barrier long_scoreboard lg_throttle short_scoreboard mio_throttle wait math_pipe_throttle not_selected no_instruction dispatch_stall; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
for lb in 0 5; do
  timeout 120 env KFEM_BOX_LB=$lb ncu --clock-control none --kernel-name-base demangled --kernel-name regex:'Hex8BoxOwner::launch' --launch-count 1 --csv --metrics $M \
    /tmp/bn/kfem bench /tmp/ncu.yaml --out /tmp/ncu > $W/ncu-lb$lb.csv 2> $W/ncu-lb$lb.err; echo "ncu lb$lb rc=$?"
  awk -F'","' '{print $13, $15}' $W/ncu-lb$lb.csv | grep -E "duration|inst_executed.sum|issue_active|warps_active|registers|stalled_(wait|barrier|long)|local" | paste -sd ' '; el; save
done
