# Session 16, call 2 (nvidia-h200): variants of the matrix-unit gemm kernel, double, p = 3..7.
# v1 = call 1's binary (chunk 16, geometry per chunk); v2 = geometry of every point once per team,
# chunk 8, next chunk's reference gradients prefetched into registers; v3 = v2 without the prefetch
# (KFEM_MMA_NOPREFETCH=1, an experiment-only switch). Alternated v1 v2 v3 v2 v3; ncu of v2 and v3.
set -u
FINAL=$OUT; OUT=/tmp/s16c2; rm -rf $OUT; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p /tmp/pk /tmp/v /tmp/v1; tar xJf .gpu-pack/bin-s16.txz -C /tmp/v1; xz -dc .gpu-pack/kfem-exp2.xz > /tmp/v/kfem
chmod +x /tmp/v/* /tmp/v1/*; tar xzf .gpu-pack/lib.tgz -C /tmp/pk
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export LD_LIBRARY_PATH=/tmp/pk/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export KFEM_PLOT=/nonexistent
sed 's/^element: {order: \[1, 2, 3, 4, 5, 6, 7\]}/element: {order: [3, 4, 5, 6, 7]}/' inputs/banas.yaml > /tmp/b37.yaml; grep ^element /tmp/b37.yaml
B="--mapping gemm --scalar double --warmup 1 --repetitions 3"
for v in v1 v2 v3 v2b v3b; do
  K=/tmp/v/kfem; [ $v = v1 ] && K=/tmp/v1/kfem; NP=0; case $v in v3*) NP=1;; esac
  KFEM_MMA_NOPREFETCH=$NP timeout 100 $K bench /tmp/b37.yaml $B --out $OUT/gemm-$v > $OUT/gemm-$v.txt 2>&1; echo "gemm $v rc=$?"
  grep -E "^\[" $OUT/gemm-$v.txt | awk '{print $2, $7, $9}' | paste -sd ' ' ; el
done
printf 'problem: elasticity\nmesh: {distort: 0.1, size: "prism:16x12x10"}\nelement: {order: 7}\nassembly: {mapping: gemm, scalar: double}\nbench: {stages: true, warmup: 0, repetitions: 1}\n' > /tmp/ncu7.yaml
M=gpu__time_duration.sum,sm__inst_executed_pipe_tensor_op_dmma.sum,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum
R=barrier,long_scoreboard,short_scoreboard,mio_throttle,math_pipe_throttle,wait,lg_throttle,not_selected,selected,dispatch_stall,no_instruction,membar,branch_resolving,drain,sleeping,tex_throttle,imc_miss
for r in ${R//,/ }; do M=$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio; done
for v in v2 v3 v1; do
  K=/tmp/v/kfem; [ $v = v1 ] && K=/tmp/v1/kfem; NP=0; [ $v = v3 ] && NP=1
  KFEM_MMA_NOPREFETCH=$NP timeout 100 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:gemm_mma --launch-count 1 --csv --metrics $M \
    $K bench /tmp/ncu7.yaml --out /tmp/ncu-$v > $OUT/ncu-$v.csv 2> $OUT/ncu-$v.err; echo "ncu $v rc=$? lines $(wc -l < $OUT/ncu-$v.csv)"; el
done
cd $OUT; tar czf $FINAL/results.tgz . ; cp device.txt $FINAL/; el
