# Session 23, call 1: issue 14's kernels, new (the working tree: banas' paper variants take their
# quadrature points in batches between barriers; gemm's geometry in a two-slot ring and `steps`
# k-steps per barrier, with steps-env.patch so that KFEM_GEMM_STEPS=1 selects one k-step) against
# old (the same tree with change.patch reversed: main at e4394bd), both built there in parallel;
# the CUDA typed tests of the new build (steps 2 and 1); banas' stage bench, old/new alternated.
set -u
W=/tmp/s23c1; rm -rf $W; mkdir -p $W
D=reports/runs/2026-11-26-h100-banas-point-batches
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results.tgz -C $W . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export PATH=$PATH:/usr/local/cuda/bin KFEM_CACHE=/tmp/kfem-cache KFEM_KOKKOS_SRC_PACK=$PWD/.gpu-pack/kokkos-src.tar.gz
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
export KFEM_PLOT=/nonexistent
OFF=$(scripts/offline-cmake-args $PWD/.gpu-pack)
pre=$(scripts/bootstrap-kokkos cuda 2>$W/kokkos-cuda.log | tail -n 1); el
rm -rf /tmp/old-src && mkdir -p /tmp/old-src && tar --exclude=./.gpu-pack --exclude=./reports -cf - . | tar -xf - -C /tmp/old-src
patch -d /tmp/old-src -R -p1 < $D/change.patch > $W/patch-old.log 2>&1; echo "patch old rc=$?"
patch -p1 < $D/steps-env.patch > $W/patch-new.log 2>&1; echo "patch new rc=$?"
for t in n o; do
  src=$PWD; [ $t = o ] && src=/tmp/old-src
  KFEM_GIT_REVISION=$(cat .gpu-pack/revision) cmake -S $src -B /tmp/b$t -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER=$pre/bin/nvcc_wrapper -DKokkos_ROOT=$pre -DKokkosKernels_ROOT=$pre $OFF > $W/cfg-$t.log 2>&1
done
(cmake --build /tmp/bn -j 10 --target kfem test_assembly > $W/build-new.log 2>&1; echo "build new rc=$?") &
(cmake --build /tmp/bo -j 6 --target kfem > $W/build-old.log 2>&1; echo "build old rc=$?") &
wait; el; save
timeout 150 /tmp/bn/tests/test_assembly --gtest_filter='PrismIntegration*' > $W/test_prism_cuda.txt 2>&1; echo "prism tests rc=$?"
KFEM_GEMM_STEPS=1 timeout 100 /tmp/bn/tests/test_assembly --gtest_filter='PrismIntegration*ElementMatricesDouble' > $W/test_prism_cuda_steps1.txt 2>&1; echo "prism tests steps1 rc=$?"
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]" $W/test_*_cuda*.txt; el; save
G="inputs/banas.yaml --mapping gemm --scalar double --warmup 1 --repetitions 3"
run() { # name binary args...
  local name=$1 bin=$2; shift 2
  timeout 90 $bin bench "$@" --out $W/$name > $W/$name.txt 2>&1; echo "$name rc=$?"
  grep -E "^\[" $W/$name.txt | awk '{print $2, $4, $7}' | paste -sd ' '; el; save
}
run gemm-new /tmp/bn/kfem $G
KFEM_GEMM_STEPS=1 run gemm-new-steps1 /tmp/bn/kfem $G
run gemm-old /tmp/bo/kfem $G
P="inputs/banas.yaml --mapping reg-nojac --mapping shm-nojac --scalar float --warmup 1 --repetitions 3"
run paper-float-new /tmp/bn/kfem $P
run paper-float-old /tmp/bo/kfem $P
R="inputs/banas.yaml --mapping reg-nojac --mapping reg-jac --scalar double --warmup 1 --repetitions 3"
run paper-double-new /tmp/bn/kfem $R
run paper-double-old /tmp/bo/kfem $R
