# Session 21, call 4 (nvidia-h200): the element-matrix target's adder as a store (new: the working
# tree, df6e45d + element-matrix-store.patch) against an add (old: the patch reversed), both built
# there; the CUDA tests of the new build (PrismIntegration with a poisoned output, EbE operators);
# banas' stage bench, gemm double and the NOJAC paper variants in float (reg-nojac was the best paper variant, 2026-11-24), old/new alternated.
set -u
W=/tmp/s21c4; rm -rf $W; mkdir -p $W
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
cmake --build /tmp/bn -j 16 --target kfem test_assembly test_solve > $W/build-new.log 2>&1; echo "build new rc=$?"; el
mkdir -p /tmp/new && cp /tmp/bn/kfem /tmp/new/kfem
timeout 120 /tmp/bn/tests/test_assembly --gtest_filter='PrismIntegration*' > $W/test_prism_cuda.txt 2>&1; echo "prism tests rc=$?"
timeout 120 /tmp/bn/tests/test_solve --gtest_filter='EbeOperators*' > $W/test_ebe_cuda.txt 2>&1; echo "ebe tests rc=$?"
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]" $W/test_*_cuda.txt; el; save
patch -R -p1 < reports/runs/2026-11-26-h200-element-matrix-store/element-matrix-store.patch > $W/patch.log 2>&1; echo "patch -R rc=$?"
cmake --build /tmp/bn -j 16 --target kfem > $W/build-old.log 2>&1; echo "build old rc=$?"; el
mkdir -p /tmp/old && cp /tmp/bn/kfem /tmp/old/kfem; save
G="--mapping gemm --scalar double --warmup 1 --repetitions 3"
P="--mapping reg-nojac --mapping shm-nojac --scalar float --warmup 1 --repetitions 3"
for v in new old; do
  timeout 60 /tmp/$v/kfem bench inputs/banas.yaml $G --out $W/gemm-$v > $W/gemm-$v.txt 2>&1; echo "gemm $v rc=$?"
  grep -E "^\[" $W/gemm-$v.txt | awk '{print $2, $7}' | paste -sd ' '; el; save
done
for v in new old; do
  timeout 100 /tmp/$v/kfem bench inputs/banas.yaml $P --out $W/paper-$v > $W/paper-$v.txt 2>&1; echo "paper $v rc=$?"
  grep -E "^\[" $W/paper-$v.txt | awk '{print $2, $4, $7}' | paste -sd ' '; el; save
done
