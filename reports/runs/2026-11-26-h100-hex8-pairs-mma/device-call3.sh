# Session 22, call 3: A/B of this session's tree (new: index prefetch, pairs-mma, --element-order)
# against bb9c144 (old: the patch reversed), both built there. mesh4 pairs and sympairs x atomic x
# double / float: old, new in natural order, new in Morton order, alternated twice (the first
# round verified against the oracle, the second not re-verified).
set -u
W=/tmp/s22c3; rm -rf $W; mkdir -p $W
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
cmake --build /tmp/bn -j 16 --target kfem > $W/build-new.log 2>&1; echo "build new rc=$?"; el
mkdir -p /tmp/new /tmp/old && cp /tmp/bn/kfem /tmp/new/kfem
patch -R -p1 < reports/runs/2026-11-26-h100-hex8-pairs-mma/session22-vs-bb9c144.patch > $W/patch.log 2>&1; echo "patch -R rc=$?"
cmake --build /tmp/bn -j 16 --target kfem > $W/build-old.log 2>&1; echo "build old rc=$?"; el
cp /tmp/bn/kfem /tmp/old/kfem; save
sed 's/verify_limit: 3000000/verify_limit: 0/' inputs/hex8-check.yaml > /tmp/hex8-noverify.yaml
A="--mapping pairs --mapping sympairs --scalar double --scalar float"
for r in 1 2; do
  deck=inputs/hex8-check.yaml; [ $r = 2 ] && deck=/tmp/hex8-noverify.yaml
  for v in old new-natural new-morton; do
    case $v in old) bin=/tmp/old/kfem; o="";; new-natural) bin=/tmp/new/kfem; o="--element-order natural";; *) bin=/tmp/new/kfem; o="--element-order morton";; esac
    timeout 150 $bin bench $deck $A $o --out $W/$v-$r > $W/$v-$r.txt 2>&1; echo "$v $r rc=$?"
    grep -E "^mesh4" $W/$v-$r.txt | awk '{print $2, $3, $5, $NF}' | paste -sd ' '; el; save
  done
done
