# Session 12, call 3 (H200 host): (a) mesh4 on the GPU, the points call 1 ran out of time for (float,
# sympairs double) with the new binary, then the previous binary (32-bit slots) on the same points:
# an A/B of the 64-bit slots in one call; (b) the OpenMP build on the host's 16 cores, mesh4.
set -u
FINAL=$OUT; OUT=/tmp/o3; mkdir -p $OUT
start=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
lscpu | grep -E "Model name|Socket|Core|Thread|NUMA node\(s\)" | tee $OUT/cpu.txt
mkdir -p /work && [ -e /work/main ] || ln -s $PWD /work/main
mkdir -p build /tmp/old && tar xzf .gpu-run/bin.tgz -C build && tar xzf .gpu-run/old-bin.tgz -C /tmp/old
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-run/ompi.tgz -C $S
export LD_LIBRARY_PATH=$PWD/.gpu-run/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
G=/work/main/build/cuda-carry/kfem; O=/tmp/old/cuda-carry/kfem; C=/work/main/build/openmp-carry/kfem
export KFEM_PLOT=/work/main/reports/plot.py
timeout 150 $G bench inputs/sanfui-symmetry.yaml --mesh mesh4 --mapping element --mapping ppni8 --mapping pairs \
  --mapping sympairs --scalar float --out $OUT/mesh4-float > $OUT/mesh4-float.txt 2>&1
echo "float rc=$? elapsed $(( $(date +%s) - start )) s"
timeout 150 $G bench inputs/sanfui-symmetry.yaml --mesh mesh4 --mapping pairs --mapping sympairs --race atomic \
  --out $OUT/mesh4-new > $OUT/mesh4-new.txt 2>&1
echo "ab new rc=$? elapsed $(( $(date +%s) - start )) s"
timeout 110 $O bench inputs/sanfui-symmetry.yaml --mesh mesh4 --mapping pairs --mapping sympairs --race atomic \
  --out $OUT/mesh4-old > $OUT/mesh4-old.txt 2>&1
echo "ab old rc=$? elapsed $(( $(date +%s) - start )) s"
grep -E "^mesh4" $OUT/mesh4-new.txt $OUT/mesh4-old.txt
left=$(( 570 - ($(date +%s) - start) ))
OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores timeout $left $C bench inputs/sanfui-symmetry.yaml \
  --backend openmp --mesh mesh4 --mapping element --mapping ppni8 --mapping pairs --mapping sympairs \
  --out $OUT/cpu > $OUT/cpu.txt 2>&1
echo "cpu rc=$? elapsed $(( $(date +%s) - start )) s"; grep -E "^mesh4|^\[" $OUT/cpu.txt | tail -20
cp $OUT/*.txt $FINAL/ 2>/dev/null; tar czf $FINAL/results.tgz -C $OUT . ; ls $FINAL | head
