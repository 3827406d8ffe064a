# Session 16, call 1 (nvidia-h200): `gemm` on the FP64 matrix units (gemm_blocks_mma.hpp).
# (a) PrismIntegration on the CUDA space (p = 1..7, element matrices and assembled CSR; double runs
# the matrix units for p >= 3); (b) banas deck, gemm double + float, the new binary against main
# a747f03 (vector gemm), alternated new/old/new; (c) reg-nojac (the paper's best in double) in the same
# run, for the 10x comparison; (d) ncu of the matrix-unit kernel, p = 7 double.
set -u
FINAL=$OUT; OUT=/tmp/s16c1; rm -rf $OUT; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p /tmp/pk /tmp/v; tar xJf .gpu-pack/bin-s16.txz -C /tmp/v; xz -dc .gpu-pack/kfem-a747.xz > /tmp/v/kfem-old
chmod +x /tmp/v/*; tar xzf .gpu-pack/lib.tgz -C /tmp/pk
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export LD_LIBRARY_PATH=/tmp/pk/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export KFEM_PLOT=/nonexistent
N=/tmp/v/kfem; O=/tmp/v/kfem-old; T=/tmp/v/test_assembly
timeout 150 $T --gtest_filter='PrismIntegration/Cuda*' > $OUT/test_prism_cuda.txt 2>&1; echo "prism tests rc=$?"; tail -2 $OUT/test_prism_cuda.txt; el
B="--mapping gemm --scalar double --scalar float --warmup 1 --repetitions 3"
for v in new old new2; do
  K=$N; [ $v = old ] && K=$O
  timeout 120 $K bench inputs/banas.yaml $B --out $OUT/gemm-$v > $OUT/gemm-$v.txt 2>&1; echo "gemm $v rc=$?"
  grep -E "^\[" $OUT/gemm-$v.txt | awk '{print $2, $5, $7, $9}' | paste -sd ' ' ; el
done
timeout 120 $N bench inputs/banas.yaml --mapping reg-nojac --scalar double --warmup 1 --repetitions 3 --out $OUT/regnojac > $OUT/regnojac.txt 2>&1
echo "reg-nojac rc=$?"; grep -E "^\[" $OUT/regnojac.txt | awk '{print $2, $7, $9}' | paste -sd ' '; el
printf 'problem: elasticity\nmesh: {distort: 0.1, size: "prism:16x12x10"}\nelement: {order: 7}\nassembly: {mapping: gemm, scalar: double}\nbench: {stages: true, warmup: 0, repetitions: 1}\n' > /tmp/ncu7.yaml
timeout 150 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:gemm_mma --launch-count 1 \
  --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section Occupancy \
  --section LaunchStats --section WarpStateStats --section InstructionStats --section SchedulerStats --csv --page details \
  $N bench /tmp/ncu7.yaml --out /tmp/ncu7 > $OUT/ncu-mma-p7.csv 2> $OUT/ncu-mma-p7.err; echo "ncu rc=$? lines $(wc -l < $OUT/ncu-mma-p7.csv)"; el
timeout 90 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:gemm_mma --launch-count 1 --csv \
  --metrics gpu__time_duration.sum,sm__inst_executed_pipe_tensor_op_dmma.sum,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,lts__t_bytes.sum,smsp__average_warp_latency_issue_stalled_barrier.ratio \
  $N bench /tmp/ncu7.yaml --out /tmp/ncu7b > $OUT/ncu-mma-p7-metrics.csv 2> $OUT/ncu-mma-p7-metrics.err; echo "ncu metrics rc=$?"; el
cd $OUT; tar czf $FINAL/results.tgz . ; cp device.txt $FINAL/; el
