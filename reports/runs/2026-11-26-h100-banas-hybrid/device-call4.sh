# Session 24, calls 4 (set a) and 5 (set b): the final tree (change.patch: banas' paper variants
# with points in batches, JAC always, NOJAC where 3 or more points fit, the paper's per-point loop
# elsewhere; gemm as on main) against main (the tree with change.patch reversed), built side by
# side into build/ (kept while the machine stays warm, so that call 5 reuses them).
# a = CUDA typed tests + NOJAC float + JAC float (new); b = JAC float (old) + REG double.
set -u
SET=${1:-a}
W=/tmp/s24-4$SET; rm -rf $W; mkdir -p $W
D=reports/runs/2026-11-26-h100-banas-hybrid
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-4$SET.tgz -C $W . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export PATH=$PATH:/usr/local/cuda/bin KFEM_CACHE=$PWD/build/kfem-cache KFEM_KOKKOS_SRC_PACK=$PWD/.gpu-pack/kokkos-src.tar.gz
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
export KFEM_PLOT=/nonexistent
if [ ! -x build/dev-new/kfem ] || [ ! -x build/dev-old/kfem ]; then
  OFF=$(scripts/offline-cmake-args $PWD/.gpu-pack)
  pre=$(scripts/bootstrap-kokkos cuda 2>$W/kokkos-cuda.log | tail -n 1); el
  rm -rf build/old-src && mkdir -p build/old-src && tar --exclude=./.gpu-pack --exclude=./build -cf - . | tar -xf - -C build/old-src
  patch -d build/old-src -R -p1 < $D/change.patch > $W/patch-old.log 2>&1; echo "patch old rc=$?"
  for t in new old; do
    src=$PWD; [ $t = old ] && src=$PWD/build/old-src
    KFEM_GIT_REVISION=$(cat .gpu-pack/revision) cmake -S $src -B build/dev-$t -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_COMPILER=$pre/bin/nvcc_wrapper -DKokkos_ROOT=$pre -DKokkosKernels_ROOT=$pre $OFF > $W/cfg-$t.log 2>&1
  done
  (cmake --build build/dev-new -j 10 --target kfem test_assembly > $W/build-new.log 2>&1; echo "build new rc=$?") &
  (cmake --build build/dev-old -j 6 --target kfem > $W/build-old.log 2>&1; echo "build old rc=$?") &
  wait; el; save
fi
run() { # name binary args...
  local name=$1 bin=$2; shift 2
  timeout 100 $bin bench inputs/banas.yaml "$@" --warmup 1 --repetitions 3 --out $W/$name > $W/$name.txt 2>&1; echo "$name rc=$?"
  grep -E "^\[" $W/$name.txt | awk '{print $2, $4, $7}' | paste -sd ' '; el; save
}
if [ $SET = a ]; then
  timeout 170 build/dev-new/tests/test_assembly --gtest_filter='PrismIntegration*' > $W/test_prism_cuda.txt 2>&1; echo "prism tests rc=$?"
  grep -hE "^\[  (PASSED|FAILED)|FAILED  \]" $W/test_prism_cuda*.txt; el; save
  for v in new old; do run nojac-float-$v build/dev-$v/kfem --mapping reg-nojac --mapping shm-nojac --scalar float; done
  run jac-float-new build/dev-new/kfem --mapping reg-jac --mapping shm-jac --scalar float
else
  run jac-float-old build/dev-old/kfem --mapping reg-jac --mapping shm-jac --scalar float
  for v in new old; do run reg-double-$v build/dev-$v/kfem --mapping reg-nojac --mapping reg-jac --scalar double; done
fi
