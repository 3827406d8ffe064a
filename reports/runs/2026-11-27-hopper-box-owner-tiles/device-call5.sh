# Session 27, call 5: kfem of the working tree (tile 7 x 3, prefetch, plane ranges spread evenly
# over a column's teams) with call5-switches.patch (KFEM_BOX_TILE=XxY, KFEM_BOX_UNEVEN=1: ranges of
# 32 planes and a short last one, as before), built on the development VM and carried: meshes 1-4,
# box-owner x none, the default verified, then two rounds of tiles 7 x 3 / 3 x 3 x even / uneven.
set -u
W=/tmp/s27-5; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-5.tgz -C $W . ; }
tar xJf build/carrypack/carry.tar.xz -C build
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export LD_LIBRARY_PATH=$PWD/build/carry/lib:/usr/local/cuda/targets/x86_64-linux/lib KFEM_PLOT=/nonexistent
K=build/carry/kfem; ldd $K | grep "not found"
B() { # name verify_limit "ENV=.." args...
  local name=$1 v=$2 envs=$3; shift 3
  printf "mesh: {sizes: [mesh1, mesh2, mesh3, mesh4]}\nbench: {warmup: 2, repetitions: 9, verify_limit: $v}\n" > /tmp/$name.yaml
  timeout 200 env $envs $K bench /tmp/$name.yaml "$@" --out $W/$name > $W/$name.txt 2>&1; echo "$name rc=$?"
  grep -E "^mesh[0-9]" $W/$name.txt | awk '{print $1, $2, $3, $5, $6, $NF}' | paste -sd ' '; el; save
}
B main 3000000 KFEM_X=0 --mapping pairs --mapping box-owner --race atomic --race none --scalar double --scalar float
for r in a b; do
  B t7x3$r 0 KFEM_X=0 --mapping box-owner --race none --scalar double --scalar float
  B t7x3u$r 0 KFEM_BOX_UNEVEN=1 --mapping box-owner --race none --scalar double --scalar float
  B t3x3$r 0 KFEM_BOX_TILE=3x3 --mapping box-owner --race none --scalar double --scalar float
  B t3x3u$r 0 "KFEM_BOX_TILE=3x3 KFEM_BOX_UNEVEN=1" --mapping box-owner --race none --scalar double --scalar float
done
