# Session 14, call 2 (H200), after the fix of block_count (host-only, called from the kernel):
# PrismIntegration on the CUDA space and the equivalence test, then banas' stage bench for the four
# paper variants without and with --symmetric-blocks (same binary, same call), double and float.
set -u
FINAL=$OUT; OUT=/tmp/o1; mkdir -p $OUT
start=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p build && tar xzf .gpu-pack/bin.tgz -C build
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export LD_LIBRARY_PATH=$PWD/.gpu-pack/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export KFEM_PLOT=$PWD/reports/plot.py
G=build/cuda-carry/kfem; T=build/cuda-carry/tests/test_assembly
$G info > $OUT/info.txt 2>&1; head -5 $OUT/info.txt
timeout 240 $T --gtest_filter='PrismIntegration*:Equivalence/Cuda.*' > $OUT/test_assembly_cuda.txt 2>&1
echo "tests rc=$? elapsed $(( $(date +%s) - start )) s"; grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran" $OUT/test_assembly_cuda.txt | head -20
B="--mapping reg-jac --mapping reg-nojac --mapping shm-jac --mapping shm-nojac --scalar double --scalar float --warmup 1 --repetitions 2"
timeout 200 $G bench inputs/banas.yaml $B --out $OUT/blocks-all > $OUT/blocks-all.txt 2>&1
echo "all blocks rc=$? elapsed $(( $(date +%s) - start )) s"
timeout 200 $G bench inputs/banas.yaml $B --symmetric-blocks --out $OUT/blocks-sym > $OUT/blocks-sym.txt 2>&1
echo "symmetric rc=$? elapsed $(( $(date +%s) - start )) s"
grep -h -c '"passed"' $OUT/blocks-*/results.json; grep -h -c 'FAILED' $OUT/blocks-*/results.json
for d in blocks-all blocks-sym; do mkdir -p $FINAL/$d; cp $OUT/$d/results.json $OUT/$d/*.md $FINAL/$d/ 2>/dev/null; done
cp $OUT/*.txt $FINAL/
echo "done $(( $(date +%s) - start )) s"
