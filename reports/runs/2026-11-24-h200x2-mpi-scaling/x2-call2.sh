# Session 15, call 2 (nvidia-h200-x2): the scaling sweep at 4x mesh4 per GPU (1024x128x64 = 8,388,608
# elements per rank weak, the same mesh strong), CG capped at 200 iterations; above verify_limit
# (the mesh4-sized points of call 1 were all verified with the same code).
set -u
FINAL=$OUT; OUT=/tmp/o; mkdir -p $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=index,name,memory.total,driver_version,pci.bus_id --format=csv,noheader | tee $OUT/device.txt
mkdir -p /work && [ -e /work/main ] || ln -s $PWD /work/main
mkdir -p build && tar xzf .gpu-pack/bin.tgz -C build && B=/work/main/build/cuda-carry
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export OPAL_PREFIX=$S/usr PATH=$S/usr/bin:$PATH
export LD_LIBRARY_PATH=$PWD/.gpu-pack/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mca_base_component_show_load_errors=0
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PMIX_MCA_pcompress_base_silence_warning=1
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMP_NUM_THREADS=1
export KFEM_PLOT=/nonexistent
M="mpirun -x NCCL_NVLS_ENABLE -x TORCH_SYMM_MEM_DISABLE_MULTICAST -x NVSHMEM_DISABLE_NVLS -np"
sed -e 's/ranks: \[1, 2, 4, 8, 16\]/ranks: [1, 2]/' -e 's/verify_limit: 3000000/verify_limit: 3000000/' inputs/scaling.yaml > /tmp/scaling-x2.yaml
( while sleep 15; do nvidia-smi --query-gpu=index,memory.used --format=csv,noheader; done ) > $OUT/memory-used.txt 2>&1 &
timeout 540 $M 2 $B/kfem bench /tmp/scaling-x2.yaml --mesh 1024x128x64 --out $OUT/scaling-2gpu-8m > $OUT/scaling-2gpu-8m.txt 2>&1; echo "scaling rc=$?"
grep -E "^\[|^mode|^weak|^strong" $OUT/scaling-2gpu-8m.txt
sort -t, -k2 -n $OUT/memory-used.txt | tail -2
el
cp $OUT/*.txt $FINAL/ 2>/dev/null; tar czf $FINAL/results.tgz -C $OUT . ; ls $FINAL
