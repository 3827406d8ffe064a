# Session 27, call 6: the committed tree as landed (no switches), built there against Kokkos 3.4.01
# with cmake/patches applied (the shared-memory opt-in among them): the whole CUDA test_assembly
# suite, then mesh4 box-owner x none against pairs x atomic, double and float, verified.
set -u
W=/tmp/s27-6; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-6.tgz -C $W . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export PATH=$PATH:/usr/local/cuda/bin KFEM_CACHE=/tmp/kfem-cache KFEM_KOKKOS_SRC_PACK=$PWD/.gpu-pack/kokkos-src.tar.gz
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
export KFEM_PLOT=/nonexistent
OFF=$(scripts/offline-cmake-args $PWD/.gpu-pack)
pre=$(scripts/bootstrap-kokkos cuda 2>$W/kokkos-cuda.log | tail -n 1); el
grep -c "hopper-shmem-opt-in" $W/kokkos-cuda.log
KFEM_GIT_REVISION=$(cat .gpu-pack/revision) cmake -S . -B /tmp/bn -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER=$pre/bin/nvcc_wrapper -DKokkos_ROOT=$pre -DKokkosKernels_ROOT=$pre $OFF > $W/cfg.log 2>&1
cmake --build /tmp/bn -j 16 --target kfem test_assembly > $W/build.log 2>&1; echo "build rc=$?"; tail -n 1 $W/build.log; el; save
timeout 170 /tmp/bn/tests/test_assembly > $W/test_cuda.txt 2>&1; echo "tests rc=$?"
grep -hE "^\[  (PASSED|FAILED|SKIPPED)|FAILED  \]|tests ran" $W/test_cuda.txt | head -20; el; save
printf "mesh: {sizes: [mesh4]}\nbench: {warmup: 2, repetitions: 9, verify_limit: 3000000}\n" > /tmp/m4.yaml
timeout 120 /tmp/bn/kfem bench /tmp/m4.yaml --mapping pairs --mapping box-owner --race atomic --race none --scalar double --scalar float --out $W/main > $W/main.txt 2>&1; echo "bench rc=$?"
grep -E "^mesh4" $W/main.txt | awk '{print $2, $3, $5, $6, $NF}' | paste -sd ' '; el; save
