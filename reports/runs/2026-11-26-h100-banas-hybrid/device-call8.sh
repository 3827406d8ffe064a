# Session 24, call 8: the CUDA typed tests (PrismIntegration) of the tree after call 7's failure
# (forced batches of 4 points overflowed REG's team scratch at p = 7 in double; now fewer points
# where the buffers would not fit).
set -u
W=/tmp/s24-8; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-8.tgz -C $W . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export PATH=$PATH:/usr/local/cuda/bin KFEM_CACHE=/tmp/kfem-cache KFEM_KOKKOS_SRC_PACK=$PWD/.gpu-pack/kokkos-src.tar.gz
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
cuda=$(scripts/bootstrap-kokkos cuda 2>$W/kokkos-cuda.log | tail -n 1); el
KFEM_GIT_REVISION=$(cat .gpu-pack/revision) cmake -S . -B /tmp/cu -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER=$cuda/bin/nvcc_wrapper -DKokkos_ROOT=$cuda -DKokkosKernels_ROOT=$cuda \
  $(scripts/offline-cmake-args $PWD/.gpu-pack) > $W/cfg-cuda.log 2>&1
cmake --build /tmp/cu -j 16 --target test_assembly > $W/build-cuda.log 2>&1; echo "build cuda rc=$?"; el; save
timeout 170 /tmp/cu/tests/test_assembly --gtest_filter='PrismIntegration*' > $W/test_prism_cuda.txt 2>&1; echo "prism tests rc=$?"
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]|Failure|exception" $W/test_prism_cuda.txt; el; save
