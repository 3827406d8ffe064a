# Session 27, call 4: call 3's carried kfem, on the warm machine: meshes 1-4, box-owner x none with
# tiles 7 x 3 (the default) and 3 x 3 (KFEM_BOX_TILE), prefetch on, double and float, not
# re-verified (call 3 verified both scalars on every mesh); pairs x atomic beside them.
set -u
W=/tmp/s27-4; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-4.tgz -C $W . ; }
[ -x build/carry/kfem ] || tar xJf build/carrypack/carry.tar.xz -C build
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export LD_LIBRARY_PATH=$PWD/build/carry/lib:/usr/local/cuda/targets/x86_64-linux/lib KFEM_PLOT=/nonexistent
K=build/carry/kfem
B() { # name "ENV=.." args...
  local name=$1 envs=$2; shift 2
  printf "mesh: {sizes: [mesh1, mesh2, mesh3, mesh4]}\nbench: {warmup: 2, repetitions: 9, verify_limit: 0}\n" > /tmp/$name.yaml
  timeout 200 env $envs $K bench /tmp/$name.yaml "$@" --out $W/$name > $W/$name.txt 2>&1; echo "$name rc=$?"
  grep -E "^mesh[0-9]" $W/$name.txt | awk '{print $1, $2, $3, $5, $6}' | paste -sd ' '; el; save
}
for r in a b; do
  B t7x3$r KFEM_X=0 --mapping pairs --mapping box-owner --race atomic --race none --scalar double --scalar float
  B t3x3$r KFEM_BOX_TILE=3x3 --mapping box-owner --race none --scalar double --scalar float
done
