# Session 17, call 2 (nvidia-h200): v5 of the m16n8k4 gemm (two panel buffers of 4 points, the next
# points' reference gradients loaded during the products, one barrier per 4 points) against main
# 6c083e0 (bin-s16c3): PrismIntegration on CUDA; banas gemm double new/old/new; ncu metrics at p = 7.
set -u
FINAL=$OUT; OUT=/tmp/s17c2; rm -rf $OUT; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p /tmp/pk /tmp/n /tmp/o; tar xJf .gpu-pack/bin-s17v5.txz -C /tmp/n; tar xJf .gpu-pack/bin-s16c3.txz -C /tmp/o
chmod +x /tmp/n/* /tmp/o/*; tar xzf .gpu-pack/lib.tgz -C /tmp/pk
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export LD_LIBRARY_PATH=/tmp/pk/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export KFEM_PLOT=/nonexistent
N=/tmp/n/kfem; O=/tmp/o/kfem
timeout 100 /tmp/n/test_assembly --gtest_filter='PrismIntegration*' > $OUT/test_prism_cuda.txt 2>&1; echo "test prism rc=$?"; grep -E "PASSED|FAILED|tests ran" $OUT/test_prism_cuda.txt | tail -3; el
B="--mapping gemm --scalar double --warmup 1 --repetitions 3"
for v in new old new2; do
  K=$N; [ $v = old ] && K=$O
  timeout 90 $K bench inputs/banas.yaml $B --out $OUT/gemm-$v > $OUT/gemm-$v.txt 2>&1; echo "gemm $v rc=$?"
  grep -E "^\[" $OUT/gemm-$v.txt | awk '{print $2, $7}' | paste -sd ' ' ; el
done
printf 'problem: elasticity\nmesh: {distort: 0.1, size: "prism:16x12x10"}\nelement: {order: 7}\nassembly: {mapping: gemm, scalar: double}\nbench: {stages: true, warmup: 0, repetitions: 1}\n' > /tmp/ncu7.yaml
M=gpu__time_duration.sum,launch__registers_per_thread,sm__inst_executed_pipe_tensor_op_dmma.sum,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,lts__t_bytes.sum
for r in barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle wait lg_throttle not_selected selected dispatch_stall; do M=$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio; done
timeout 60 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:gemm_mma --launch-count 1 --csv --metrics $M \
    $N bench /tmp/ncu7.yaml --out /tmp/ncu7n > $OUT/ncu-p7-n.csv 2> $OUT/ncu-p7-n.err; echo "ncu rc=$?"; el
cd $OUT; tar czf $FINAL/results.tgz . ; cp device.txt $FINAL/; el
