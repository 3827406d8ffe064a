# Session 15, call 6 (nvidia-h200 and its host): (a) the CUDA equivalence test of the scatter that
# loads its index before the adds (new2); (b) ncu of pairs x colored on mesh4 for old (027a012), new
# (c7e10bc, compact index) and new2; (c) mesh4 timings new2 against new, alternated; (d) banas p = 7
# on the 16 CPU cores (OpenMP), full and --symmetric-blocks, on 3x2x2 prisms (24 elements).
set -u
FINAL=$OUT; OUT=/tmp/o6; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p /work && [ -e /work/main ] || ln -s $PWD /work/main
B=/work/main/build/cuda-carry; mkdir -p $B/tests build/openmp-carry /tmp/v /tmp/pk
tar xJf .gpu-pack/bin-new2.txz -C /tmp/pk && mv /tmp/pk/kfem $B/ && mv /tmp/pk/test_assembly $B/tests/
for v in new old; do xz -dc .gpu-pack/kfem-$v.xz > /tmp/v/kfem-$v; done; xz -dc .gpu-pack/kfem-cpu.xz > build/openmp-carry/kfem
chmod +x /tmp/v/* build/openmp-carry/kfem; tar xzf .gpu-pack/lib.tgz -C /tmp/pk
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export LD_LIBRARY_PATH=/tmp/pk/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export KFEM_PLOT=/nonexistent OMP_PROC_BIND=false
G=$B/kfem; N=/tmp/v/kfem-new; O=/tmp/v/kfem-old
timeout 200 $B/tests/test_assembly --gtest_filter='Equivalence/Cuda.*' > $OUT/test_equivalence_cuda.txt 2>&1; echo "equivalence cuda rc=$?"; tail -1 $OUT/test_equivalence_cuda.txt
printf 'mesh: {size: mesh4}\nassembly: {mapping: pairs, race: colored}\nbench: {warmup: 1, repetitions: 1, verify_limit: 0}\n' > /tmp/ncu.yaml
M=gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio
for v in new2 new old; do
  K=$G; [ $v = new ] && K=$N; [ $v = old ] && K=$O
  timeout 90 ncu --clock-control none --kernel-name regex:Hex8Pairs --launch-count 24 --metrics $M --csv \
    $K bench /tmp/ncu.yaml --out /tmp/ncu-$v > $OUT/ncu-pairs-colored-$v.csv 2> $OUT/ncu-$v.err; echo "ncu $v rc=$? lines $(wc -l < $OUT/ncu-pairs-colored-$v.csv)"
done
el
for r in 1 2; do
  for v in new2 new; do
    K=$G; [ $v = new ] && K=$N
    timeout 100 $K bench inputs/hex8-check.yaml --out $OUT/d-$v-$r > $OUT/d-$v-$r.txt 2>&1; echo "double $v $r rc=$?"; grep -E "^mesh4" $OUT/d-$v-$r.txt
    [ $r = 1 ] && { timeout 60 $K bench inputs/hex8-check.yaml --mapping pairs --race colored --out $OUT/c-$v > $OUT/c-$v.txt 2>&1; echo "colored $v rc=$?"; grep -E "^mesh4" $OUT/c-$v.txt; }
  done
  el
done
export OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores
C=/work/main/build/openmp-carry/kfem; left=$(( 560 - ($(date +%s) - start) ))
timeout $(( left / 2 )) $C bench inputs/banas.yaml --backend openmp --order 7 --mesh prism:3x2x2 --warmup 0 --repetitions 2 --out $OUT/banas-full-p7 > $OUT/banas-full-p7.txt 2>&1; echo "p7 full rc=$?"
left=$(( 570 - ($(date +%s) - start) ))
timeout $left $C bench inputs/banas.yaml --backend openmp --order 7 --mesh prism:3x2x2 --warmup 0 --repetitions 2 --symmetric-blocks \
  --mapping reg-jac --mapping reg-nojac --mapping shm-jac --mapping shm-nojac --out $OUT/banas-sym-p7 > $OUT/banas-sym-p7.txt 2>&1; echo "p7 sym rc=$?"
grep -E "^7 " $OUT/banas-*-p7.txt; el
tar czf $FINAL/results.tgz -C $OUT . ; cp $OUT/device.txt $FINAL/
