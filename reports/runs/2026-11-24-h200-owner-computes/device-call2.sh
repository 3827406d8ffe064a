# Session 13, call 2 (H200): call 1 found owner's 4 warps per team over CUDA's 40960-byte team
# scratch (11.6 KB per warp in double); here assembly.elements_per_team 3 and 2 for owner (deck key),
# pairs x atomic at its default 4, mesh4 double and float, every point verified; determinism; ncu.
set -u
FINAL=$OUT; OUT=/tmp/o2; mkdir -p $OUT
start=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p /work && [ -e /work/main ] || ln -s $PWD /work/main
mkdir -p build && tar xzf .gpu-run/bin.tgz -C build
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-run/ompi.tgz -C $S
export LD_LIBRARY_PATH=$PWD/.gpu-run/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
G=/work/main/build/cuda-carry/kfem
export KFEM_PLOT=/work/main/reports/plot.py
for e in 2 3; do printf "assembly: {elements_per_team: $e}\nbench: {warmup: 2, repetitions: 5}\n" > /tmp/ept$e.yaml; done
for i in 1 2; do $G run /tmp/ept3.yaml --mesh 64x16x16 --mapping owner --no-solve --export-matrix $OUT/K$i.mtx > $OUT/det$i.txt 2>&1; done
cmp $OUT/K1.mtx $OUT/K2.mtx && echo "owner: two CUDA runs of 64x16x16 byte-identical" | tee $OUT/determinism.txt
grep -E "verification" $OUT/det1.txt | tee -a $OUT/determinism.txt; rm -f $OUT/K*.mtx
timeout 120 $G bench inputs/sanfui-symmetry.yaml --mesh mesh4 --mapping pairs --race atomic --scalar double --scalar float \
  --out $OUT/pairs > $OUT/pairs.txt 2>&1; echo "pairs rc=$?"
timeout 120 $G bench /tmp/ept3.yaml --mesh mesh4 --mapping owner --scalar double --scalar float \
  --out $OUT/owner3 > $OUT/owner3.txt 2>&1; echo "owner3 rc=$?"
timeout 100 $G bench /tmp/ept2.yaml --mesh mesh4 --mapping owner --scalar double --scalar float \
  --out $OUT/owner2 > $OUT/owner2.txt 2>&1; echo "owner2 rc=$?"
grep -hE "^mesh4" $OUT/pairs.txt $OUT/owner3.txt $OUT/owner2.txt
echo "elapsed $(( $(date +%s) - start )) s"
printf 'assembly: {elements_per_team: 3}\nbench: {verify_limit: 0, warmup: 0, repetitions: 1}\n' > /tmp/ncu.yaml
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,launch__registers_per_thread"
timeout 150 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:'owner' \
  --launch-count 1 --metrics $M --csv $G run /tmp/ncu.yaml --mesh mesh4 --mapping owner --no-solve > $OUT/ncu-owner.csv 2> $OUT/ncu-owner.err
echo "ncu rc=$? elapsed $(( $(date +%s) - start )) s"; grep -E "owner" $OUT/ncu-owner.csv | cut -c1-400 | head -12
cp $OUT/*.txt $OUT/*.csv $FINAL/ 2>/dev/null; tar czf $FINAL/results.tgz -C $OUT . ; ls $FINAL | head
