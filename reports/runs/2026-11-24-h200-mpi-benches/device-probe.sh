# Session 11, call 3: why was the first point of the CPU sweep 40 % slower (compute-only too) than the
# same 1-rank point 100 s later? The same two points (weak, strong on 1 rank), three times.
set -u
FINAL=$OUT; OUT=/tmp/o3; mkdir -p $OUT
start=$(date +%s)
mkdir -p /work && [ -e /work/main ] || ln -s $PWD /work/main
mkdir -p build && tar xzf .gpu-run/bin.tgz -C build
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-run/ompi.tgz -C $S
export OPAL_PREFIX=$S/usr PATH=$S/usr/bin:$PATH
export LD_LIBRARY_PATH=$PWD/.gpu-run/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mca_base_component_show_load_errors=0
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1
C=/work/main/build/openmp-carry/kfem
sed "s/ranks: \[1, 2, 4, 8, 16\]/ranks: [1]/; s/size: mesh4/size: 128x32x32/" inputs/scaling.yaml > /tmp/one.yaml
for run in "16 a" "1 b" "16 c"; do
  set -- $run
  mpirun -np $1 --bind-to core -x OMP_NUM_THREADS=1 $C bench /tmp/one.yaml --backend openmp --out $OUT/$2 > $OUT/$2.txt 2>&1
  echo "np=$1 ($2) rc=$? at $(( $(date +%s) - start )) s"; grep -A2 "^mode" $OUT/$2.txt | tail -2
done
cat /proc/loadavg; top -bn1 | head -15
tar czf $FINAL/probe.tgz -C $OUT .
