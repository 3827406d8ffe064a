# Session 17, call 3 (nvidia-h200): v6 (v5 + reference gradients read nodes-fastest, dshape_nodes) and
# v7 (v6 + the epilogue's staging in 16-byte stores, no bank conflicts) against main 6c083e0
# (bin-s16c3): PrismIntegration on CUDA (v7); banas gemm double v7/v6/old/v7/v6; ncu at p = 7.
set -u
FINAL=$OUT; OUT=/tmp/s17c3; rm -rf $OUT; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p /tmp/pk /tmp/v6 /tmp/v7 /tmp/o; xz -dc .gpu-pack/kfem-s17v6.xz > /tmp/v6/kfem; tar xJf .gpu-pack/bin-s17v7.txz -C /tmp/v7; xz -dc .gpu-pack/kfem-s16c3.xz > /tmp/o/kfem
chmod +x /tmp/v6/* /tmp/v7/* /tmp/o/*; tar xzf .gpu-pack/lib.tgz -C /tmp/pk
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export LD_LIBRARY_PATH=/tmp/pk/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export KFEM_PLOT=/nonexistent
for v in v7; do
  timeout 100 /tmp/$v/test_assembly --gtest_filter='PrismIntegration*' > $OUT/test_prism_cuda_$v.txt 2>&1; echo "test prism $v rc=$?"; grep -E "PASSED|FAILED|tests ran" $OUT/test_prism_cuda_$v.txt | tail -3; el
done
B="--mapping gemm --scalar double --warmup 1 --repetitions 3"
for v in v7 v6 o v7b v6b; do
  K=/tmp/${v:0:2}/kfem; [ $v = o ] && K=/tmp/o/kfem
  timeout 90 $K bench inputs/banas.yaml $B --out $OUT/gemm-$v > $OUT/gemm-$v.txt 2>&1; echo "gemm $v rc=$?"
  grep -E "^\[" $OUT/gemm-$v.txt | awk '{print $2, $7}' | paste -sd ' ' ; el
done
printf 'problem: elasticity\nmesh: {distort: 0.1, size: "prism:16x12x10"}\nelement: {order: 7}\nassembly: {mapping: gemm, scalar: double}\nbench: {stages: true, warmup: 0, repetitions: 1}\n' > /tmp/ncu7.yaml
M=gpu__time_duration.sum,launch__registers_per_thread,sm__inst_executed_pipe_tensor_op_dmma.sum,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,lts__t_bytes.sum
for r in barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle wait lg_throttle not_selected selected dispatch_stall; do M=$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio; done
for v in v7 v6; do
timeout 60 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:gemm_mma --launch-count 1 --csv --metrics $M \
    /tmp/$v/kfem bench /tmp/ncu7.yaml --out /tmp/ncu7$v > $OUT/ncu-p7-$v.csv 2> $OUT/ncu-p7-$v.err; echo "ncu $v rc=$?"; el
done
cd $OUT; tar czf $FINAL/results.tgz . ; cp device.txt $FINAL/; el
