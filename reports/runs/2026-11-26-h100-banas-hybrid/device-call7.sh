# Session 24, call 7: the tree landed after call 6 (host backends keep the per-point loop; the typed
# tests force batches of 4 through `points`): the CUDA typed tests (PrismIntegration), and the
# 16-core OpenMP banas sweep of call 6 (p = 1..4, double, the four paper variants) with this tree.
set -u
W=/tmp/s24-7; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-7.tgz -C $W . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
lscpu > $W/cpu.txt
export PATH=$PATH:/usr/local/cuda/bin KFEM_CACHE=/tmp/kfem-cache KFEM_KOKKOS_SRC_PACK=$PWD/.gpu-pack/kokkos-src.tar.gz KFEM_PLOT=/nonexistent
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
OFF=$(scripts/offline-cmake-args $PWD/.gpu-pack)
cuda=$(scripts/bootstrap-kokkos cuda 2>$W/kokkos-cuda.log | tail -n 1)
omp=$(scripts/bootstrap-kokkos openmp 2>$W/kokkos-omp.log | tail -n 1); el
KFEM_GIT_REVISION=$(cat .gpu-pack/revision) cmake -S . -B /tmp/cu -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER=$cuda/bin/nvcc_wrapper -DKokkos_ROOT=$cuda -DKokkosKernels_ROOT=$cuda $OFF > $W/cfg-cuda.log 2>&1
KFEM_GIT_REVISION=$(cat .gpu-pack/revision) cmake -S . -B /tmp/omp -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DKokkos_ROOT=$omp -DKokkosKernels_ROOT=$omp -DKFEM_ENABLE_TESTS=OFF $OFF > $W/cfg-omp.log 2>&1
(cmake --build /tmp/cu -j 10 --target test_assembly > $W/build-cuda.log 2>&1; echo "build cuda rc=$?") &
(cmake --build /tmp/omp -j 6 --target kfem > $W/build-omp.log 2>&1; echo "build omp rc=$?") &
wait; el; save
timeout 170 /tmp/cu/tests/test_assembly --gtest_filter='PrismIntegration*' > $W/test_prism_cuda.txt 2>&1; echo "prism tests rc=$?"
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]" $W/test_prism_cuda.txt; el; save
export OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores
declare -A mesh=([1]=prism:40x40x30 [2]=prism:20x16x16 [3]=prism:12x10x8 [4]=prism:8x8x5)
for p in 1 2 3 4; do
  timeout 100 /tmp/omp/kfem bench inputs/banas.yaml --backend openmp --order $p --mesh ${mesh[$p]} --scalar double \
    --mapping reg-jac --mapping reg-nojac --mapping shm-jac --mapping shm-nojac --warmup 1 --repetitions 3 \
    --out $W/p$p-final > $W/p$p-final.txt 2>&1; echo "p$p rc=$?"
  grep -E "^\[" $W/p$p-final.txt | awk '{print $2, $4, $7, $10}' | paste -sd ' '; el; save
done
