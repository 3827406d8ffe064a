# Session 18, call 2 (the same warm machine as call 1, an H100: call 1 built there and then ran past
# its limit in the OpenMP build). The CUDA builds of call 1 (working tree /tmp/bn, main 6c083e0
# /tmp/bo): (a) Equivalence + PrismIntegration on the CUDA space; (b) banas gemm double p = 7 and 4,
# new/old; (c) mesh4 double pairs x colored new/old, verified. Everything lands in $OUT as it runs.
set -u
start=$(date +%s); left() { echo $(( 370 - ($(date +%s) - start) )); }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
export KFEM_PLOT=/nonexistent
N=/tmp/bn/kfem; O=/tmp/bo/kfem
timeout 100 /tmp/bn/tests/test_assembly --gtest_filter='Equivalence*:PrismIntegration*:FamilyEquivalence*' > $OUT/test_cuda.txt 2>&1
echo "tests rc=$?"; grep -E "^\[  (PASSED|FAILED)|tests ran|FAILED  \]" $OUT/test_cuda.txt | tail -6; echo "t=$(( $(date +%s) - start ))"
for p in 7 4; do for v in new old; do
  K=$N; [ $v = old ] && K=$O
  timeout $(left) $K bench inputs/banas.yaml --order $p --mapping gemm --scalar double --warmup 1 --repetitions 3 --out /tmp/g$p$v > $OUT/gemm-p$p-$v.txt 2>&1
  echo "gemm p=$p $v rc=$? $(grep -E '^\[' $OUT/gemm-p$p-$v.txt | awk '{print $2, $7}' | paste -sd ' ') t=$(( $(date +%s) - start ))"
done; done
for v in new old; do
  K=$N; [ $v = old ] && K=$O
  timeout $(left) $K bench inputs/hex8-check.yaml --mapping pairs --race colored --warmup 1 --repetitions 5 --out /tmp/h$v > $OUT/pairs-colored-$v.txt 2>&1
  echo "pairs colored $v rc=$? $(grep -E '^mesh4' $OUT/pairs-colored-$v.txt) t=$(( $(date +%s) - start ))"
done
