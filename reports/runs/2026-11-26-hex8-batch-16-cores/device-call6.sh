# Session 20, call 6 (nvidia-h200): the landed tree built there for CUDA (kfem, test_assembly) from
# the carried .gpu-pack; the typed equivalence suites on the CUDA space (batch's out-of-line products
# run with one lane there), then a mesh4 sanity bench of the GPU default (pairs x atomic).
set -u
W=/tmp/s20c6; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results.tgz -C $W . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export PATH=$PATH:/usr/local/cuda/bin KFEM_CACHE=/tmp/kfem-cache KFEM_KOKKOS_SRC_PACK=$PWD/.gpu-pack/kokkos-src.tar.gz
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
export KFEM_PLOT=/nonexistent
OFF=$(scripts/offline-cmake-args $PWD/.gpu-pack)
pre=$(scripts/bootstrap-kokkos cuda 2>$W/kokkos-cuda.log | tail -n 1); el
KFEM_GIT_REVISION=$(cat .gpu-pack/revision) cmake -S . -B /tmp/bn -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER=$pre/bin/nvcc_wrapper -DKokkos_ROOT=$pre -DKokkosKernels_ROOT=$pre $OFF > $W/cfg.log 2>&1
cmake --build /tmp/bn -j 16 --target kfem test_assembly > $W/build.log 2>&1; echo "build rc=$?"; tail -n 2 $W/build.log; el; save
timeout 150 /tmp/bn/tests/test_assembly --gtest_filter='Equivalence/Cuda*' > $W/test_equivalence_cuda.txt 2>&1
echo "equivalence cuda rc=$?"; grep -E "^\[  (PASSED|FAILED)|tests ran|FAILED  \]" $W/test_equivalence_cuda.txt | tail -6; el; save
timeout 150 /tmp/bn/kfem bench inputs/hex8-check.yaml --mesh mesh4 --scalar double --out $W/mesh4 > $W/mesh4.txt 2>&1
echo "bench rc=$?"; grep -E "^mesh4" $W/mesh4.txt; el; save
