# Session 26, call 1: the working tree with mapping box-owner (issue 18), plus tile-env.patch (tile
# and z range from KFEM_BOX_TILE / KFEM_BOX_PLANES, for this call only), built there. CUDA tests
# (Equivalence with box-owner, BoxOwner, BoxGrid, BatchOwner); mesh4 pairs / pairs-mma x atomic
# against box-owner x none, double and float, verified; tile and range variants; ncu of box-owner.
set -u
D=reports/runs/2026-11-26-h200-hex8-box-owner  # the folder was named -h100- when this ran; renamed for the card that came
W=/tmp/s26-1; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-1.tgz -C $W . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
patch -p1 < $D/tile-env.patch > /dev/null || echo "patch failed"
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
B() { # name env... -- args
  local name=$1; shift
  timeout 200 env "$@" /tmp/bn/kfem bench inputs/hex8-check.yaml --out $W/$name > $W/$name.txt 2>&1; echo "$name rc=$?"
  grep -E "^mesh4" $W/$name.txt | awk '{print $2, $3, $4, $5, $NF}' | paste -sd ' '; el; save
}
A="--mapping pairs --mapping pairs-mma --mapping box-owner --race atomic --race none --scalar double --scalar float"
B main KFEM_X=0 $A
B t2 KFEM_BOX_TILE=2 --mapping box-owner --race none --scalar double --scalar float
B t4f KFEM_BOX_TILE=4 --mapping box-owner --race none --scalar float
B p16 KFEM_BOX_PLANES=16 --mapping box-owner --race none --scalar double
B p129 KFEM_BOX_PLANES=129 --mapping box-owner --race none --scalar double
printf 'mesh: {size: mesh4}\nassembly: {mapping: [box-owner], race: none, scalar: [double, float]}\nbench: {warmup: 0, repetitions: 1, verify_limit: 0}\n' > /tmp/ncu.yaml
M=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed_pipe_fp64.sum,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,sm__throughput.avg.pct_of_peak_sustained_elapsed
for s in barrier long_scoreboard lg_throttle short_scoreboard mio_throttle wait math_pipe_throttle not_selected membar; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
timeout 200 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:Hex8BoxOwner --launch-count 4 --csv --metrics $M \
  /tmp/bn/kfem bench /tmp/ncu.yaml --out /tmp/ncu > $W/ncu-box-owner.csv 2> $W/ncu.err; echo "ncu rc=$? lines $(wc -l < $W/ncu-box-owner.csv)"; el
save
