# Session 24, call 6: the landed tree against main (the tree with change-landed.patch reversed) on
# the 16 host cores, OpenMP: on host backends the paper variants now take 4 points per batch (a
# one-thread team has no barriers to save, so this checks that the CPU did not lose). Both built
# side by side (Release, tests off), then the banas sweep at p = 1..4 on the `cpu` meshes of
# scripts/banas-bench, double, the four paper variants, alternated main / new.
set -u
W=/tmp/s24-6; rm -rf $W; mkdir -p $W
D=reports/runs/2026-11-26-h100-banas-hybrid
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-6.tgz -C $W . ; }
nvidia-smi --query-gpu=name --format=csv,noheader > $W/device.txt; lscpu > $W/cpu.txt; grep -m1 "Model name" $W/cpu.txt
export KFEM_CACHE=/tmp/kfem-cache KFEM_KOKKOS_SRC_PACK=$PWD/.gpu-pack/kokkos-src.tar.gz KFEM_PLOT=/nonexistent
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu
OFF=$(scripts/offline-cmake-args $PWD/.gpu-pack)
pre=$(scripts/bootstrap-kokkos openmp 2>$W/kokkos.log | tail -n 1); el
rm -rf /tmp/old-src && mkdir -p /tmp/old-src && tar --exclude=./.gpu-pack --exclude=./build -cf - . | tar -xf - -C /tmp/old-src
patch -d /tmp/old-src -R -p1 < $D/change-landed.patch > $W/patch-old.log 2>&1; echo "patch old rc=$?"
for t in new old; do
  src=$PWD; [ $t = old ] && src=/tmp/old-src
  KFEM_GIT_REVISION=$(cat .gpu-pack/revision) cmake -S $src -B /tmp/omp-$t -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DKokkos_ROOT=$pre -DKokkosKernels_ROOT=$pre -DKFEM_ENABLE_TESTS=OFF $OFF > $W/cfg-$t.log 2>&1
  (cmake --build /tmp/omp-$t -j 8 --target kfem > $W/build-$t.log 2>&1; echo "build $t rc=$?") &
done
wait; el; save
export OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores
declare -A mesh=([1]=prism:40x40x30 [2]=prism:20x16x16 [3]=prism:12x10x8 [4]=prism:8x8x5)
for p in 1 2 3 4; do
  for v in old new; do
    timeout 100 /tmp/omp-$v/kfem bench inputs/banas.yaml --backend openmp --order $p --mesh ${mesh[$p]} --scalar double \
      --mapping reg-jac --mapping reg-nojac --mapping shm-jac --mapping shm-nojac --warmup 1 --repetitions 3 \
      --out $W/p$p-$v > $W/p$p-$v.txt 2>&1; echo "p$p $v rc=$?"
    grep -E "^\[" $W/p$p-$v.txt | awk '{print $2, $4, $7, $10}' | paste -sd ' '; el; save
  done
done
