# Session 25, call 6 (fresh machine): main (d8c789e = af37c94's code) built alone; the CUDA typed
# tests of the prism family; banas' four paper variants in float, p = 1..7, to time the landed code
# after the w det J hoist (21b8e83) and the shared JAC geometry (af37c94), which session 24 had not run.
set -u
W=/tmp/s25-6; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-6.tgz -C $W . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export PATH=$PATH:/usr/local/cuda/bin KFEM_CACHE=$PWD/build/kfem-cache KFEM_KOKKOS_SRC_PACK=$PWD/.gpu-pack/kokkos-src.tar.gz
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
export KFEM_PLOT=/nonexistent
pre=$(scripts/bootstrap-kokkos cuda 2>$W/kokkos-cuda.log | tail -n 1); el
KFEM_GIT_REVISION=$(cat .gpu-pack/revision) cmake -S . -B build/dev-main -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER=$pre/bin/nvcc_wrapper -DKokkos_ROOT=$pre -DKokkosKernels_ROOT=$pre \
  $(scripts/offline-cmake-args $PWD/.gpu-pack) > $W/cfg.log 2>&1
cmake --build build/dev-main -j 16 --target kfem > $W/build.log 2>&1; echo "build rc=$?"; el; save
run() { # name args...
  local name=$1; shift
  timeout 150 build/dev-main/kfem bench inputs/banas.yaml "$@" --warmup 1 --repetitions 3 --out $W/$name > $W/$name.txt 2>&1; echo "$name rc=$?"
  grep -E "^\[" $W/$name.txt | awk '{print $2, $4, $7}' | paste -sd ' '; el; save
}
run nojac-float --mapping reg-nojac --mapping shm-nojac --scalar float
run jac-float --mapping reg-jac --mapping shm-jac --scalar float
