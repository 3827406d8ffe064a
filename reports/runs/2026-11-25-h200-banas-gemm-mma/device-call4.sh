# Session 16, call 4 (nvidia-h100-x1): call 3's binary on an H100: PrismIntegration on the CUDA
# space; banas gemm double + float p = 1..7, new (matrix units) against a747f03 (vector), alternated;
# reg-nojac double in the same run.
set -u
FINAL=$OUT; OUT=/tmp/s16c4; rm -rf $OUT; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p /tmp/pk /tmp/v3; tar xJf .gpu-pack/bin-s16c3.txz -C /tmp/v3; xz -dc .gpu-pack/kfem-a747.xz > /tmp/v3/kfem-old
chmod +x /tmp/v3/*; tar xzf .gpu-pack/lib.tgz -C /tmp/pk
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export LD_LIBRARY_PATH=/tmp/pk/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export KFEM_PLOT=/nonexistent
N=/tmp/v3/kfem; O=/tmp/v3/kfem-old; T=/tmp/v3/test_assembly
timeout 120 $T --gtest_filter='PrismIntegration/Cuda*' > $OUT/test_prism_cuda.txt 2>&1; echo "prism tests rc=$?"; tail -1 $OUT/test_prism_cuda.txt; el
B="--mapping gemm --scalar double --scalar float --warmup 1 --repetitions 3"
for v in new old new2; do
  K=$N; [ $v = old ] && K=$O
  timeout 120 $K bench inputs/banas.yaml $B --out $OUT/gemm-$v > $OUT/gemm-$v.txt 2>&1; echo "gemm $v rc=$?"
  grep -E "^\[" $OUT/gemm-$v.txt | awk '{print $2, $5, $7, $9}' | paste -sd ' ' ; el
done
timeout 100 $N bench inputs/banas.yaml --mapping reg-nojac --scalar double --warmup 1 --repetitions 3 --out $OUT/regnojac > $OUT/regnojac.txt 2>&1
echo "reg-nojac rc=$?"; grep -E "^\[" $OUT/regnojac.txt | awk '{print $2, $7, $9}' | paste -sd ' '; el
cd $OUT; tar czf $FINAL/results.tgz . ; cp device.txt $FINAL/; el
