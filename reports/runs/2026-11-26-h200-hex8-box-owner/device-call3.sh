# Session 26, call 6: the committed tree (ecadd6b, no switches), its CUDA test binary only, built
# there: the box-owner typed tests (Equivalence, BoxOwner, BoxGrid, BatchOwner) on the GPU.
set -u
W=/tmp/s26-3; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-6.tgz -C $W . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export PATH=$PATH:/usr/local/cuda/bin KFEM_CACHE=/tmp/kfem-cache KFEM_KOKKOS_SRC_PACK=$PWD/.gpu-pack/kokkos-src.tar.gz
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
OFF=$(scripts/offline-cmake-args $PWD/.gpu-pack)
pre=$(scripts/bootstrap-kokkos cuda 2>$W/kokkos-cuda.log | tail -n 1); el
KFEM_GIT_REVISION=$(cat .gpu-pack/revision) cmake -S . -B /tmp/bn -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER=$pre/bin/nvcc_wrapper -DKokkos_ROOT=$pre -DKokkosKernels_ROOT=$pre $OFF > $W/cfg.log 2>&1
cmake --build /tmp/bn -j 16 --target test_assembly > $W/build.log 2>&1; echo "build rc=$?"; tail -n 1 $W/build.log; el; save
timeout 100 /tmp/bn/tests/test_assembly --gtest_filter='Equivalence*:BoxOwner*:BoxGrid*:BatchOwner*' > $W/test_cuda.txt 2>&1; echo "tests rc=$?"
grep -hE "^\[ +(OK|PASSED|FAILED) |FAILED  \]" $W/test_cuda.txt | grep -E "Cuda|PASSED|FAILED"; el; save
