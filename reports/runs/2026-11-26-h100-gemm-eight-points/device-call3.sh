# Session 25, calls 3-5 (fresh machine each; CALL=3, 4 or 5): change.patch against main, built side by side;
# CUDA typed tests of the prism family; gemm double p = 1..7, new / old (REPEAT times); then Nsight
# Compute + SASS of the new kernel at p = 7 (device-call2.sh with VARIANTS=new). Calls 3, 4, 5 ran
# versions v2, v3, v4 of the README (v4 = gemm-eight-points.patch; copy it to change.patch to rerun).
set -u
CALL=${CALL:-3}; W=/tmp/s25-$CALL; rm -rf $W; mkdir -p $W
D=reports/runs/2026-11-26-h100-gemm-eight-points
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-$CALL.tgz -C $W . ; }
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
for r in $(seq ${REPEAT:-1}); do for v in new old; do run gemm-double-$v-$r build/dev-$v/kfem --mapping gemm --scalar double; done; done
if [ -z "${NO_NCU:-}" ]; then OUT=$OUT/ncu VARIANTS=new bash $D/device-call2.sh; fi
el
