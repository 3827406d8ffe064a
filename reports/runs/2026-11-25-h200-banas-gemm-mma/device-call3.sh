# Session 16, call 3 (nvidia-h200): the final matrix-unit gemm (geometry of every point once per
# tile, chunks of 8 points, no prefetch: call 2's v3). (a) every test_assembly suite on the CUDA space;
# (b) banas deck, gemm double + float p = 1..7, final against main a747f03 (vector gemm), alternated
# new/old/new; (c) reg-nojac double, the paper's best in double, in the same run; (d) ncu of the
# final kernel at p = 7 double (sections + stall reasons).
set -u
FINAL=$OUT; OUT=/tmp/s16c3; rm -rf $OUT; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p /tmp/pk /tmp/v3; tar xJf .gpu-pack/bin-s16c3.txz -C /tmp/v3; xz -dc .gpu-pack/kfem-a747.xz > /tmp/v3/kfem-old
chmod +x /tmp/v3/*; tar xzf .gpu-pack/lib.tgz -C /tmp/pk
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export LD_LIBRARY_PATH=/tmp/pk/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export KFEM_PLOT=/nonexistent
N=/tmp/v3/kfem; O=/tmp/v3/kfem-old; T=/tmp/v3/test_assembly
timeout 240 $T > $OUT/test_assembly_cuda.txt 2>&1; echo "test_assembly rc=$?"; grep -E "PASSED|FAILED|tests ran" $OUT/test_assembly_cuda.txt | tail -4; el
B="--mapping gemm --scalar double --scalar float --warmup 1 --repetitions 3"
for v in new old new2; do
  K=$N; [ $v = old ] && K=$O
  timeout 120 $K bench inputs/banas.yaml $B --out $OUT/gemm-$v > $OUT/gemm-$v.txt 2>&1; echo "gemm $v rc=$?"
  grep -E "^\[" $OUT/gemm-$v.txt | awk '{print $2, $5, $7, $9}' | paste -sd ' ' ; el
done
timeout 100 $N bench inputs/banas.yaml --mapping reg-nojac --scalar double --warmup 1 --repetitions 3 --out $OUT/regnojac > $OUT/regnojac.txt 2>&1
echo "reg-nojac rc=$?"; grep -E "^\[" $OUT/regnojac.txt | awk '{print $2, $7, $9}' | paste -sd ' '; el
printf 'problem: elasticity\nmesh: {distort: 0.1, size: "prism:16x12x10"}\nelement: {order: 7}\nassembly: {mapping: gemm, scalar: double}\nbench: {stages: true, warmup: 0, repetitions: 1}\n' > /tmp/ncu7.yaml
timeout 100 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:gemm_mma --launch-count 1 \
  --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section Occupancy \
  --section LaunchStats --section WarpStateStats --section InstructionStats --section SchedulerStats --csv --page details \
  $N bench /tmp/ncu7.yaml --out /tmp/ncu7 > $OUT/ncu-mma-p7.csv 2> $OUT/ncu-mma-p7.err; echo "ncu rc=$?"; el
M=gpu__time_duration.sum,sm__inst_executed_pipe_tensor_op_dmma.sum,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum
for r in barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle wait lg_throttle not_selected selected dispatch_stall; do M=$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio; done
timeout 90 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:gemm_mma --launch-count 1 --csv --metrics $M \
  $N bench /tmp/ncu7.yaml --out /tmp/ncu7b > $OUT/ncu-mma-p7-metrics.csv 2> $OUT/ncu-mma-p7-metrics.err; echo "ncu metrics rc=$?"; el
cd $OUT; tar czf $FINAL/results.tgz . ; cp device.txt $FINAL/; el
