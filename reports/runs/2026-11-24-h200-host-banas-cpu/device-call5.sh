# Session 15, call 5 (nvidia-h200 and its 16-core host): (a) banas on the CPU (OpenMP, 16 threads) at
# p = 1 and p = 7, full and --symmetric-blocks (issue 14; scripts/banas-bench cpu sizes); (b) hex8
# mesh4 on the CPU with the compact index (issue 18's CPU floor); (c) ncu of pairs x colored, new
# and old index (027a012), the one point call 4 found slower.
set -u
FINAL=$OUT; OUT=/tmp/o5; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
lscpu | grep -E "Model name|Socket|Core|Thread|NUMA node\(s\)" | tee $OUT/cpu.txt
mkdir -p /work && [ -e /work/main ] || ln -s $PWD /work/main
mkdir -p build/cuda-carry build/openmp-carry /tmp/old /tmp/pk && tar xJf .gpu-pack/bin-new.txz -C /tmp/pk && xz -dc .gpu-pack/kfem-old.xz > /tmp/old/kfem
xz -dc .gpu-pack/kfem-cpu.xz > build/openmp-carry/kfem && chmod +x /tmp/old/kfem build/openmp-carry/kfem
mv /tmp/pk/kfem build/cuda-carry/ && tar xzf .gpu-pack/lib.tgz -C /tmp/pk
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export LD_LIBRARY_PATH=/tmp/pk/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export KFEM_PLOT=/nonexistent
C=/work/main/build/openmp-carry/kfem; G=/work/main/build/cuda-carry/kfem; O=/tmp/old/kfem
# (c) first: short, and the GPU is idle while the CPU runs below
printf 'mesh: {size: mesh4}\nassembly: {mapping: pairs, race: colored}\nbench: {warmup: 1, repetitions: 1, verify_limit: 0}\n' > /tmp/ncu.yaml
M=gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio
for v in new old; do
  K=$G; [ $v = old ] && K=$O
  timeout 80 ncu --clock-control none --kernel-name regex:'assemble\[pairs\]' --launch-count 24 --metrics $M --csv \
    $K bench /tmp/ncu.yaml --out /tmp/ncu-$v > $OUT/ncu-pairs-colored-$v.csv 2> $OUT/ncu-$v.err; echo "ncu $v rc=$?"
done
el
export OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores
for p in 1 7; do
  KFEM_ORDERS=$p timeout 150 scripts/banas-bench $C $OUT/banas-full cpu --backend openmp --warmup 1 --repetitions 3
  KFEM_ORDERS=$p timeout 100 scripts/banas-bench $C $OUT/banas-sym cpu --backend openmp --warmup 1 --repetitions 3 \
    --symmetric-blocks --mapping reg-jac --mapping reg-nojac --mapping shm-jac --mapping shm-nojac
  el
done
timeout $(( 570 - ($(date +%s) - start) )) $C bench inputs/sanfui-symmetry.yaml --backend openmp --mesh mesh4 \
  --mapping pairs --mapping sympairs --race colored --scalar double --out $OUT/hex8-mesh4 > $OUT/hex8-mesh4.txt 2>&1
echo "hex8 rc=$?"; grep -E "^mesh4|^\[" $OUT/hex8-mesh4.txt | tail; el
tar czf $FINAL/results.tgz -C $OUT . ; cp $OUT/cpu.txt $FINAL/
