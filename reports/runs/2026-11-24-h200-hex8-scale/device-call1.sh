# Session 12, call 1 (H200): 64-bit CSR slots. kfem info (memory per element); meshes 1-4 with the
# new binary (every point verified); mesh4 with the previous binary (32-bit slots) in the same call;
# a mesh past 2^31 CSR entries verified against the host oracle (the 64-bit slots really used).
set -u
FINAL=$OUT; OUT=/tmp/o; mkdir -p $OUT
start=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p /work && [ -e /work/main ] || ln -s $PWD /work/main
mkdir -p build /tmp/old && tar xzf .gpu-run/bin.tgz -C build && tar xzf .gpu-run/old-bin.tgz -C /tmp/old
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-run/ompi.tgz -C $S
export LD_LIBRARY_PATH=$PWD/.gpu-run/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
G=/work/main/build/cuda-carry/kfem; O=/tmp/old/cuda-carry/kfem
export KFEM_PLOT=/work/main/reports/plot.py
$G info > $OUT/info.txt 2>&1; tail -6 $OUT/info.txt
# 1. meshes 1-4, new binary
timeout 230 $G bench inputs/sanfui-symmetry.yaml --mesh mesh1 --mesh mesh2 --mesh mesh3 --mesh mesh4 \
  --mapping element --mapping ppni8 --mapping pairs --mapping sympairs --out $OUT/meshes > $OUT/meshes.txt 2>&1
echo "meshes rc=$? elapsed $(( $(date +%s) - start )) s"; tail -40 $OUT/meshes.txt | grep -E "mesh4|FAIL" | head -20
# 2. mesh4, previous binary (32-bit slots), same call
timeout 70 $O bench inputs/sanfui-symmetry.yaml --mesh mesh4 --mapping pairs --mapping sympairs --race atomic \
  --out $OUT/mesh4-old > $OUT/mesh4-old.txt 2>&1
echo "old rc=$? elapsed $(( $(date +%s) - start )) s"; grep -E "mesh4" $OUT/mesh4-old.txt | head
# 3. 9.4 M elements (> 2^31 CSR entries): pairs x atomic double, verified
cat > /tmp/past31.yaml <<'Y'
mesh: {sizes: [1024x128x72]}
assembly: {mapping: [pairs], race: [atomic], scalar: [double]}
bench: {warmup: 1, repetitions: 5, verify_limit: 20000000}
Y
timeout 240 $G bench /tmp/past31.yaml --out $OUT/past31 > $OUT/past31.txt 2>&1
echo "past31 rc=$? elapsed $(( $(date +%s) - start )) s"; tail -6 $OUT/past31.txt
cp $OUT/*.txt $FINAL/ 2>/dev/null; tar czf $FINAL/results.tgz -C $OUT . ; ls $FINAL | head
