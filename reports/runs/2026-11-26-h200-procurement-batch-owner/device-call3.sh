# Session 21, call 3 (nvidia-h200): main (df6e45d) built there for CUDA; the procurement bench with
# the new candidate list (batch, batch-owner added) on one H200; mesh4 batch-owner x none on CUDA;
# a per-instruction ncu profile of the gemm kernel at p = 7 (where its long-scoreboard stalls wait).
set -u
W=/tmp/s21c3; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results.tgz -C $W . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export PATH=$PATH:/usr/local/cuda/bin KFEM_CACHE=/tmp/kfem-cache KFEM_KOKKOS_SRC_PACK=$PWD/.gpu-pack/kokkos-src.tar.gz
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
export KFEM_PLOT=/nonexistent
OFF=$(scripts/offline-cmake-args $PWD/.gpu-pack)
pre=$(scripts/bootstrap-kokkos cuda 2>$W/kokkos-cuda.log | tail -n 1); el
KFEM_GIT_REVISION=$(cat .gpu-pack/revision) cmake -S . -B /tmp/bn -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS=-lineinfo -DCMAKE_CXX_COMPILER=$pre/bin/nvcc_wrapper -DKokkos_ROOT=$pre -DKokkosKernels_ROOT=$pre $OFF > $W/cfg.log 2>&1
cmake --build /tmp/bn -j 16 --target kfem > $W/build.log 2>&1; echo "build rc=$?"; tail -n 1 $W/build.log; el; save
timeout 240 /tmp/bn/kfem bench inputs/procurement.yaml --out $W/procurement > $W/procurement.txt 2>&1
echo "procurement rc=$?"; grep -E "^(verify|select)|strategy|merit" $W/procurement.txt; el; save
timeout 120 /tmp/bn/kfem bench inputs/sanfui-symmetry.yaml --mesh mesh4 --mapping batch-owner --mapping pairs \
  --race none --race atomic --scalar double --out $W/mesh4 > $W/mesh4.txt 2>&1
echo "mesh4 rc=$?"; grep -E "^mesh4" $W/mesh4.txt; el; save
printf 'problem: elasticity\nmesh: {distort: 0.1, size: "prism:16x12x10"}\nelement: {order: 7}\nassembly: {mapping: gemm, scalar: double}\nbench: {stages: true, warmup: 0, repetitions: 1}\n' > /tmp/ncu7.yaml
timeout 150 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:gemm_mma --launch-count 1 \
  --section SourceCounters --section WarpStateStats --import-source yes -o $W/gemm-p7 /tmp/bn/kfem bench /tmp/ncu7.yaml --out /tmp/ncu7 > $W/ncu.log 2>&1
echo "ncu rc=$?"; el
ncu -i $W/gemm-p7.ncu-rep --page source --csv --print-source sass > $W/gemm-p7-sass.csv 2> $W/gemm-p7-sass.err; echo "source page rc=$?"
ncu -i $W/gemm-p7.ncu-rep --page source --csv --print-source cuda > $W/gemm-p7-cuda.csv 2> $W/gemm-p7-cuda.err; echo "cuda page rc=$?"
ls -la $W | tail -5; el; save
