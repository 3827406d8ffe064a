# Session 15, call 1 (nvidia-h200-x2): issue 19's multi-GPU runs. One rank per H200.
# 1) the two GPUs and their link; kfem info under mpirun (each rank's device)
# 2) check_mpi_run.py on 2 GPUs (gathered matrix, solution, read-out vs one rank)
# 3) inputs/scaling.yaml on 1 and 2 GPUs of one launch (weak: mesh4 per GPU; strong: mesh4), all verified
# 4) inputs/procurement.yaml on 2 GPUs (figure of merit)
set -u
FINAL=$OUT; OUT=/tmp/o; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=index,name,memory.total,driver_version,pci.bus_id --format=csv,noheader | tee $OUT/device.txt
nvidia-smi topo -m | tee $OUT/topo.txt
nproc; lscpu | grep -E "Model name|Socket|Core|Thread|NUMA" | tee $OUT/cpu.txt
mkdir -p /work && [ -e /work/main ] || ln -s $PWD /work/main
mkdir -p build && tar xzf .gpu-pack/bin.tgz -C build && B=/work/main/build/cuda-carry
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export OPAL_PREFIX=$S/usr PATH=$S/usr/bin:$PATH
export LD_LIBRARY_PATH=$PWD/.gpu-pack/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mca_base_component_show_load_errors=0
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMP_NUM_THREADS=1
export KFEM_PLOT=/nonexistent
M="mpirun -x NCCL_NVLS_ENABLE -x TORCH_SYMM_MEM_DISABLE_MULTICAST -x NVSHMEM_DISABLE_NVLS -np"
timeout 60 $M 2 $B/kfem info > $OUT/info-np2.txt 2>&1; echo "info rc=$?"; grep -iE "rank|device|gpu" $OUT/info-np2.txt | head -20
[ -x $B/tests/test_parallel ] && { timeout 60 $B/tests/test_parallel > $OUT/test_parallel.txt 2>&1; echo "test_parallel rc=$?"; tail -3 $OUT/test_parallel.txt; }
for c in "cuda-hex8 --mesh 64x8x8" "cuda-hex8-thread-atomic --mesh 10x3x2 --mapping thread --race atomic" "cuda-prism2-team-scatter --mesh prism:6x2x2 --order 2 --mapping team --race scatter"; do
  set -- $c; name=$1; shift
  timeout 120 python3 tests/parallel/check_mpi_run.py $B/kfem "mpirun" 2 /tmp/chk-$name "$@" --repetitions 2 > $OUT/check-$name.txt 2>&1; echo "check $name rc=$?: $(tail -1 $OUT/check-$name.txt)"
done
el
sed -e 's/ranks: \[1, 2, 4, 8, 16\]/ranks: [1, 2]/' -e 's/verify_limit: 3000000/verify_limit: 5000000/' inputs/scaling.yaml > /tmp/scaling-x2.yaml
timeout 300 $M 2 $B/kfem bench /tmp/scaling-x2.yaml --out $OUT/scaling-2gpu > $OUT/scaling-2gpu.txt 2>&1; echo "scaling rc=$?"
grep -B2 -A10 "^mode\|^| mode\|weak\|strong" $OUT/scaling-2gpu.txt | head -40
el
if [ $(( $(date +%s) - start )) -lt 300 ]; then
  timeout 250 $M 2 $B/kfem bench inputs/procurement.yaml --out $OUT/fom-2gpu > $OUT/fom-2gpu.txt 2>&1; echo "fom rc=$?"
  tail -5 $OUT/fom-2gpu.txt
fi
el
cp $OUT/*.txt $FINAL/ 2>/dev/null; tar czf $FINAL/results.tgz -C $OUT . ; ls $FINAL
