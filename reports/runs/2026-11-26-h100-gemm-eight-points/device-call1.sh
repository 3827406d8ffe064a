# Session 25, call 1: gemm's matrix-unit kernel with 8 points per barrier (change.patch) against main
# (the tree with change.patch reversed), built side by side on the GPU machine; the CUDA typed tests
# of the prism family; gemm double p = 1..7, new / old / new / old; SASS of both kernels (the
# function filter found nothing). The tree was README version v1.
set -u
W=/tmp/s25-1; rm -rf $W; mkdir -p $W
D=reports/runs/2026-11-26-h100-gemm-eight-points
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-1.tgz -C $W . ; }
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
  (cmake --build build/dev-new -j 11 --target kfem test_assembly > $W/build-new.log 2>&1; echo "build new rc=$?") &
  (cmake --build build/dev-old -j 5 --target kfem > $W/build-old.log 2>&1; echo "build old rc=$?") &
  wait; el; save
fi
run() { # name binary args...
  local name=$1 bin=$2; shift 2
  timeout 100 $bin bench inputs/banas.yaml "$@" --warmup 1 --repetitions 3 --out $W/$name > $W/$name.txt 2>&1; echo "$name rc=$?"
  grep -E "^\[" $W/$name.txt | awk '{print $2, $4, $7}' | paste -sd ' '; el; save
}
timeout 150 build/dev-new/tests/test_assembly --gtest_filter='PrismIntegration*' > $W/test_prism_cuda.txt 2>&1; echo "prism tests rc=$?"
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]|Failure|exception" $W/test_prism_cuda.txt | head; el; save
for r in 1 2; do for v in new old; do run gemm-double-$v-$r build/dev-$v/kfem --mapping gemm --scalar double; done; done
for v in new old; do
  cuobjdump -sass -fun gemm_mma build/dev-$v/kfem > $W/sass-$v.txt 2>&1 || cuobjdump -sass build/dev-$v/kfem 2>/dev/null | awk '/Function : .*gemm_mma/{p=1} /Function : /&&!/gemm_mma/{p=0} p' > $W/sass-$v.txt
done; ls -la $W/sass-*; save; el
