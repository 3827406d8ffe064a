# Session 16, call 5 (nvidia-h200): issue 18's unprofiled regression, pairs x colored (double,
# mesh4) 5.8 % slower with the compact hex8 index. Old = 027a012 (64-bit slots), new = a747f03
# (compact index, the hex8 code of c7e10bc). Bench old/new/old/new (verified), then ncu of the
# Hex8Pairs launches of one warm-up + one timed assembly of each (--kernel-name-base demangled).
set -u
FINAL=$OUT; OUT=/tmp/s16c5; rm -rf $OUT; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p /tmp/pk /tmp/v5; xz -dc .gpu-pack/kfem-a747.xz > /tmp/v5/kfem-new; xz -dc .gpu-pack/kfem-old.xz > /tmp/v5/kfem-old
chmod +x /tmp/v5/*; tar xzf .gpu-pack/lib.tgz -C /tmp/pk
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export LD_LIBRARY_PATH=/tmp/pk/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export KFEM_PLOT=/nonexistent
for r in 1 2; do
  for v in old new; do
    timeout 120 /tmp/v5/kfem-$v bench inputs/hex8-check.yaml --mapping pairs --race colored --out $OUT/c-$v-$r > $OUT/c-$v-$r.txt 2>&1
    echo "pairs colored $v $r rc=$?"; grep -E "^mesh4" $OUT/c-$v-$r.txt; el
  done
done
printf 'mesh: {size: mesh4}\nassembly: {mapping: pairs, race: colored}\nbench: {warmup: 1, repetitions: 1, verify_limit: 0}\n' > /tmp/ncu.yaml
M=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size,launch__block_size
for s in long_scoreboard lg_throttle barrier short_scoreboard mio_throttle wait math_pipe_throttle; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
for v in old new; do
  timeout 150 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:Hex8Pairs --launch-count 64 --csv --metrics $M \
    /tmp/v5/kfem-$v bench /tmp/ncu.yaml --out /tmp/ncu-$v > $OUT/ncu-pairs-colored-$v.csv 2> $OUT/ncu-$v.err; echo "ncu $v rc=$? lines $(wc -l < $OUT/ncu-pairs-colored-$v.csv)"; el
done
cd $OUT; tar czf $FINAL/results.tgz . ; cp device.txt $FINAL/; el
