# Session 13 (H200): owner computes (mapping owner x race none) against pairs x atomic on mesh4,
# double and float, every point verified; bitwise determinism of owner on CUDA (two exports
# compared byte for byte); ncu of the owner and pairs kernels; the 16-core host (OpenMP) on mesh4.
set -u
FINAL=$OUT; OUT=/tmp/o; mkdir -p $OUT
start=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p /work && [ -e /work/main ] || ln -s $PWD /work/main
mkdir -p build && tar xzf .gpu-run/bin.tgz -C build
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-run/ompi.tgz -C $S
export LD_LIBRARY_PATH=$PWD/.gpu-run/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
G=/work/main/build/cuda-carry/kfem; C=/work/main/build/openmp-carry/kfem
export KFEM_PLOT=/work/main/reports/plot.py
# 1. determinism on CUDA: the same matrix twice, byte for byte; and verified on a distorted small box
for i in 1 2; do $G run --mesh 64x16x16 --mapping owner --no-solve --export-matrix $OUT/K$i.mtx > $OUT/det$i.txt 2>&1; done
cmp $OUT/K1.mtx $OUT/K2.mtx && echo "owner: two CUDA runs byte-identical" | tee $OUT/determinism.txt
grep -E "verification" $OUT/det1.txt | tee -a $OUT/determinism.txt; rm -f $OUT/K*.mtx
# 2. mesh4, pairs x atomic against owner x none, double and float
timeout 200 $G bench inputs/sanfui-symmetry.yaml --mesh mesh4 --mapping pairs --mapping owner --race atomic \
  --race none --scalar double --scalar float --out $OUT/mesh4 > $OUT/mesh4.txt 2>&1
echo "mesh4 rc=$? elapsed $(( $(date +%s) - start )) s"; grep -E "^mesh4" $OUT/mesh4.txt
# 3. ncu, natural clocks: the owner kernel and pairs + its zeroing, mesh4 double, one run each
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,launch__registers_per_thread"
printf 'bench: {verify_limit: 0, warmup: 0, repetitions: 1}\n' > /tmp/ncu.yaml
for m in owner pairs; do
  timeout 120 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:'owner|pairs|fill|Fill' \
    --launch-skip 0 --launch-count 3 --metrics $M --csv $G run /tmp/ncu.yaml --mesh mesh4 --mapping $m --no-solve \
    > $OUT/ncu-$m.csv 2> $OUT/ncu-$m.err
  echo "ncu $m rc=$?"
done
echo "elapsed $(( $(date +%s) - start )) s"
# 4. the host's 16 cores, mesh4 double: pairs x colored (best so far) against owner x none
lscpu | grep -E "Model name|Socket|Core|Thread|NUMA node\(s\)" > $OUT/cpu-lscpu.txt
left=$(( 560 - ($(date +%s) - start) ))
OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores timeout $left $C bench inputs/sanfui-symmetry.yaml \
  --backend openmp --mesh mesh4 --mapping owner --mapping pairs --race none --race colored --scalar double \
  --out $OUT/cpu > $OUT/cpu.txt 2>&1
echo "cpu rc=$? elapsed $(( $(date +%s) - start )) s"; grep -E "^mesh4|^\[" $OUT/cpu.txt | tail -6
cp $OUT/*.txt $FINAL/ 2>/dev/null; tar czf $FINAL/results.tgz -C $OUT . ; ls $FINAL | head
