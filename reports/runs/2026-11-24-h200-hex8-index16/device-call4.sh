# Session 15, call 4 (nvidia-h200): issue 18's compact hex8 element index (8 64-bit row starts + 64
# 16-bit block offsets instead of 64 64-bit slots). The CUDA tests of the index and the hex8
# equivalence, then mesh4 with the new and the previous binary (027a012), alternated new/old twice.
set -u
FINAL=$OUT; OUT=/tmp/o4; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p /work && [ -e /work/main ] || ln -s $PWD /work/main
mkdir -p build/cuda-carry/tests /tmp/old /tmp/pk && tar xJf .gpu-pack/bin-new.txz -C /tmp/pk && xz -dc .gpu-pack/kfem-old.xz > /tmp/old/kfem && chmod +x /tmp/old/kfem
mv /tmp/pk/kfem build/cuda-carry/ && mv /tmp/pk/test_* build/cuda-carry/tests/ && tar xzf .gpu-pack/lib.tgz -C /tmp/pk
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export LD_LIBRARY_PATH=/tmp/pk/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export KFEM_PLOT=/nonexistent OMP_PROC_BIND=false
B=/work/main/build/cuda-carry; G=$B/kfem; O=/tmp/old/kfem
$G info > $OUT/info.txt 2>&1; grep -E "^  (full|lower)" $OUT/info.txt
timeout 60 $B/tests/test_sparsity > $OUT/test_sparsity.txt 2>&1; echo "test_sparsity rc=$?"; tail -1 $OUT/test_sparsity.txt
timeout 200 $B/tests/test_assembly --gtest_filter='Equivalence/Cuda.*' > $OUT/test_equivalence_cuda.txt 2>&1; echo "equivalence cuda rc=$?"; tail -1 $OUT/test_equivalence_cuda.txt
el
for r in 1 2; do
  for v in new old; do
    K=$G; [ $v = old ] && K=$O
    timeout 110 $K bench inputs/hex8-check.yaml --out $OUT/d-$v-$r > $OUT/d-$v-$r.txt 2>&1; echo "double $v $r rc=$?"
    grep -E "^mesh4" $OUT/d-$v-$r.txt
  done
  el
done
for v in new old; do
  K=$G; [ $v = old ] && K=$O
  timeout 100 $K bench inputs/hex8-check.yaml --scalar float --out $OUT/f-$v > $OUT/f-$v.txt 2>&1; echo "float $v rc=$?"
  grep -E "^mesh4" $OUT/f-$v.txt
  timeout 100 $K bench inputs/hex8-check.yaml --mapping pairs --mapping ppni8 --mapping element --race colored --out $OUT/c-$v > $OUT/c-$v.txt 2>&1; echo "colored $v rc=$?"
  grep -E "^mesh4" $OUT/c-$v.txt
  el
done
tar czf $FINAL/results.tgz -C $OUT . ; cp $OUT/device.txt $FINAL/
