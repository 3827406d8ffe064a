# Session 11, call 2 (CPU of the GPU host): pure MPI sweep (1 thread per rank, 1..16 ranks of one
# launch) and ranks x OpenMP threads on 16 cores (16x1, 8x2, 4x4, 2x8, 1x16), OpenMP build.
set -u
FINAL=$OUT; OUT=/tmp/o; mkdir -p $OUT
start=$(date +%s)
nproc; lscpu | grep -E "Model name|Socket|Core|Thread|NUMA node\(s\)" | tee $OUT/cpu.txt
mkdir -p /work && [ -e /work/main ] || ln -s $PWD /work/main
mkdir -p build && tar xzf .gpu-run/bin.tgz -C build
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-run/ompi.tgz -C $S
export OPAL_PREFIX=$S/usr PATH=$S/usr/bin:$PATH
export LD_LIBRARY_PATH=$PWD/.gpu-run/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0 OMPI_MCA_mca_base_component_show_load_errors=0
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1
C=/work/main/build/openmp-carry/kfem
export KFEM_PLOT=/work/main/reports/plot.py
# CPU deck: 128x32x32 per rank (weak) and 256x32x32 in total (strong) would differ; one box: 128x32x32
mk() { sed "s/ranks: \[1, 2, 4, 8, 16\]/ranks: [$1]/; s/verify_limit: 3000000/verify_limit: 600000/; s/size: mesh4/size: 128x32x32/" inputs/scaling.yaml > /tmp/cpu-$2.yaml; }
mk "1, 2, 4, 8, 16" sweep
OMP_NUM_THREADS=1 timeout 280 mpirun -np 16 --bind-to core -x OMP_NUM_THREADS=1 $C bench /tmp/cpu-sweep.yaml --backend openmp --out $OUT/cpu-sweep > $OUT/cpu-sweep.txt 2>&1; echo "cpu sweep rc=$?"
grep -A12 "^mode" $OUT/cpu-sweep.txt
echo "elapsed $(( $(date +%s) - start )) s"
for rt in "16 1" "8 2" "4 4" "2 8" "1 16"; do
  set -- $rt; r=$1; t=$2
  [ $(( $(date +%s) - start )) -gt 520 ] && break
  mk "$r" r$r; sed -i 's/size: 128x32x32/size: 1024x32x32/; s/ranks: \[.*\]/ranks: ['$r']\n    weak: false/' /tmp/cpu-r$r.yaml
  timeout 60 mpirun -np $r --map-by slot:PE=$t --bind-to core -x OMP_NUM_THREADS=$t -x OMP_PLACES=cores -x OMP_PROC_BIND=close $C bench /tmp/cpu-r$r.yaml --backend openmp --out $OUT/hybrid/r${r}t$t > $OUT/hybrid-r${r}t$t.txt 2>&1; echo "hybrid ${r}x$t rc=$?"
  grep -A2 "^mode" $OUT/hybrid-r${r}t$t.txt | tail -1
done
echo "elapsed $(( $(date +%s) - start )) s"
python3 reports/plot.py $OUT/hybrid > /dev/null 2>&1; cat $OUT/hybrid/scaling.md 2>/dev/null | tail -12
cp $OUT/cpu.txt $OUT/cpu-sweep.txt $FINAL/ 2>/dev/null; tar czf $FINAL/results.tgz -C $OUT . ; ls $FINAL | head
