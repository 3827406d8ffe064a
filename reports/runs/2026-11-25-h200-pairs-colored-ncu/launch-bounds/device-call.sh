# Session 16, call 6 (nvidia-h200): experiment, not landed. The pairs team policy with
# Kokkos::LaunchBounds<128, 6> (at most 85 registers) against main (bin-s16c3, the same hex8 code as
# a747f03): pairs x colored mesh4 double alternated A/B/A/B, the hex8-check deck (pairs + sympairs x
# atomic) A/B, ncu registers and durations of the Hex8Pairs launches of B.
set -u
FINAL=$OUT; OUT=/tmp/s16c6; rm -rf $OUT; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p /tmp/pk /tmp/v6 /tmp/v6a; tar xJf .gpu-pack/bin-s16c3.txz -C /tmp/v6a; xz -dc .gpu-pack/kfem-lb.xz > /tmp/v6/kfem
chmod +x /tmp/v6/* /tmp/v6a/*; tar xzf .gpu-pack/lib.tgz -C /tmp/pk
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export LD_LIBRARY_PATH=/tmp/pk/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export KFEM_PLOT=/nonexistent
A=/tmp/v6a/kfem; B=/tmp/v6/kfem
for r in 1 2; do
  for v in A B; do
    K=$A; [ $v = B ] && K=$B
    timeout 100 $K bench inputs/hex8-check.yaml --mapping pairs --race colored --out $OUT/c-$v-$r > $OUT/c-$v-$r.txt 2>&1
    echo "pairs colored $v $r rc=$?"; grep -E "^mesh4" $OUT/c-$v-$r.txt; el
  done
done
for v in A B; do
  K=$A; [ $v = B ] && K=$B
  timeout 100 $K bench inputs/hex8-check.yaml --out $OUT/d-$v > $OUT/d-$v.txt 2>&1; echo "atomic deck $v rc=$?"; grep -E "^mesh4" $OUT/d-$v.txt; el
done
printf 'mesh: {size: mesh4}\nassembly: {mapping: pairs, race: colored}\nbench: {warmup: 1, repetitions: 1, verify_limit: 0}\n' > /tmp/ncu.yaml
M=gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum
timeout 100 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:Hex8Pairs --launch-count 18 --csv --metrics $M \
  $B bench /tmp/ncu.yaml --out /tmp/ncu-b > $OUT/ncu-pairs-colored-B.csv 2> $OUT/ncu-B.err; echo "ncu B rc=$?"; el
cd $OUT; tar czf $FINAL/results.tgz . ; cp device.txt $FINAL/; el
