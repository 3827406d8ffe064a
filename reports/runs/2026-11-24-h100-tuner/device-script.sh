# Session 11, call 4: kfem run --mapping auto on CUDA (mesh4, double then float; a second run from the
# cache) and on the 16 host cores (OpenMP, mesh2).
set -u
FINAL=$OUT; OUT=/tmp/o4; mkdir -p $OUT
start=$(date +%s)
mkdir -p /work && [ -e /work/main ] || ln -s $PWD /work/main
mkdir -p build && tar xzf .gpu-run/bin.tgz -C build
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-run/ompi.tgz -C $S
export OPAL_PREFIX=$S/usr PATH=$S/usr/bin:$PATH
export LD_LIBRARY_PATH=$PWD/.gpu-run/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export KFEM_TUNER_CACHE=$OUT/tuner.json
G=/work/main/build/cuda-carry/kfem; C=/work/main/build/openmp-carry/kfem
for s in double float double; do
  timeout 200 $G run --mesh mesh4 --mapping auto --scalar $s --no-solve --report $OUT/cuda-$s.json > $OUT/run.txt 2>&1; echo "cuda $s rc=$? at $(( $(date +%s) - start )) s"
  grep -E "strategy|assembly |tuner|verification" $OUT/run.txt
done
for s in; do  # the OpenMP tuner runs in CI (check_tuner.py)
  OMP_NUM_THREADS=16 timeout 200 $C run --mesh mesh2 --mapping auto --scalar $s --backend openmp --no-solve --report $OUT/omp-$s.json > $OUT/run.txt 2>&1; echo "openmp $s rc=$? at $(( $(date +%s) - start )) s"
  grep -E "strategy|assembly |tuner|verification" $OUT/run.txt
done
tar czf $FINAL/tuner.tgz -C $OUT .
