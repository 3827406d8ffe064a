# Session 12, call 2 (H200): the largest mesh, assembled and solved: the procurement bench on one
# GPU at 30 M hex8 elements per rank (pairs x atomic, double; verified on 32x8x8, CG to 1e-8).
set -u
FINAL=$OUT; OUT=/tmp/o2; mkdir -p $OUT
start=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p /work && [ -e /work/main ] || ln -s $PWD /work/main
mkdir -p build && tar xzf .gpu-run/bin.tgz -C build
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-run/ompi.tgz -C $S
export LD_LIBRARY_PATH=$PWD/.gpu-run/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
G=/work/main/build/cuda-carry/kfem
export KFEM_PLOT=/work/main/reports/plot.py
sed 's/mapping: \[pairs, warp4, ppni4, element\]/mapping: [pairs]/; s/race: \[atomic, colored\]/race: [atomic]/; s/elements_per_rank: 2097152 .*/elements_per_rank: 30000000/' \
  inputs/procurement.yaml > /tmp/big.yaml
grep -E "mapping|race|elements_per_rank" /tmp/big.yaml
( while sleep 20; do nvidia-smi --query-gpu=memory.used --format=csv,noheader; done ) > $OUT/memory-used.txt 2>&1 &
timeout 520 $G bench /tmp/big.yaml --out $OUT/big > $OUT/big.txt 2> $OUT/big.err
echo "big rc=$? elapsed $(( $(date +%s) - start )) s"; cat $OUT/big.txt; tail -12 $OUT/big.err; sort -n $OUT/memory-used.txt | tail -1
kill %1 2>/dev/null
cp $OUT/*.txt $OUT/*.err $FINAL/ 2>/dev/null; tar czf $FINAL/results.tgz -C $OUT . ; ls $FINAL | head
