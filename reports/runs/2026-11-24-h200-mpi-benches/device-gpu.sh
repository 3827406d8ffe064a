# Session 11, call 1 (GPU): procurement figure of merit on one GPU (1 rank), and the scaling bench's
# CUDA path on 1 and 2 ranks sharing the GPU (a check of the machinery, not a scaling figure).
set -u
FINAL=$OUT; OUT=/tmp/o; mkdir -p $OUT
start=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p /work && [ -e /work/main ] || ln -s $PWD /work/main
mkdir -p build && tar xzf .gpu-run/bin.tgz -C build
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-run/ompi.tgz -C $S
export OPAL_PREFIX=$S/usr PATH=$S/usr/bin:$PATH
export LD_LIBRARY_PATH=$PWD/.gpu-run/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0 OMPI_MCA_mca_base_component_show_load_errors=0
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1
G=/work/main/build/cuda-carry/kfem
export KFEM_PLOT=/work/main/reports/plot.py
timeout 330 $G bench inputs/procurement.yaml --out $OUT/fom-1gpu > $OUT/fom-1gpu.txt 2> $OUT/fom-1gpu.err; echo "fom rc=$?"
cat $OUT/fom-1gpu.txt; tail -20 $OUT/fom-1gpu.err
echo "elapsed $(( $(date +%s) - start )) s"
# the sub-communicator sweep on CUDA: 1 and 2 ranks of one launch, both on this GPU
sed 's/ranks: \[1, 2, 4, 8, 16\]/ranks: [1, 2]/' inputs/scaling.yaml > /tmp/scaling-2.yaml
timeout 150 mpirun -np 2 $G bench /tmp/scaling-2.yaml --mesh 256x32x32 --out $OUT/scal-cuda-shared > $OUT/scal-cuda-shared.txt 2>&1; echo "scaling shared rc=$?"
grep -A8 "^mode" $OUT/scal-cuda-shared.txt
echo "elapsed $(( $(date +%s) - start )) s"
cp $OUT/*.txt $FINAL/ 2>/dev/null; tar czf $FINAL/results.tgz -C $OUT . ; ls $FINAL | head
