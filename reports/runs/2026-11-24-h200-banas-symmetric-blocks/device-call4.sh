# Session 14, call 4 (H200): the final binary (symmetric_blocks a kernel of its own): banas' four
# paper variants, p = 1..7, double and float, full blocks (the default); every point verified.
# Run as: SYM= bash device-call4.sh (call 4), SYM=--symmetric-blocks bash device-call4.sh (call 5).
set -u
FINAL=$OUT; OUT=/tmp/o4; mkdir -p $OUT
start=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p build && tar xzf .gpu-pack/bin.tgz -C build
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export LD_LIBRARY_PATH=$PWD/.gpu-pack/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
G=build/cuda-carry/kfem; T=build/cuda-carry/tests/test_assembly
timeout 60 $T --gtest_filter='PrismIntegration*' > $OUT/test_prism_cuda.txt 2>&1; echo "tests rc=$?"; tail -3 $OUT/test_prism_cuda.txt
B="--mapping reg-jac --mapping reg-nojac --mapping shm-jac --mapping shm-nojac --scalar double --scalar float --warmup 1 --repetitions 2"
timeout 500 $G bench inputs/banas.yaml $B $SYM --out $OUT/b > $OUT/bench.txt 2>&1
echo "bench rc=$? elapsed $(( $(date +%s) - start )) s"; grep -c passed $OUT/bench.txt; grep -c FAILED $OUT/bench.txt
mkdir -p $FINAL/b; cp $OUT/b/results.json $FINAL/b/; cp $OUT/*.txt $FINAL/
echo "done $(( $(date +%s) - start )) s"
