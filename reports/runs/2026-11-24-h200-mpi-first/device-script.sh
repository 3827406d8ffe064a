# Session 10: MPI on one H200 (no x2 kind lent): CUDA ranks sharing the GPU (correctness, halo staging),
# and pure-MPI CPU scaling on the host's cores with the Serial backend (the carried build has CUDA + Serial).
set -u
start=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device.txt; cat $OUT/device.txt
nproc; lscpu | grep -E "Model name|Socket|Core|Thread" > $OUT/cpu.txt; cat $OUT/cpu.txt
mkdir -p /work && [ -e /work/main ] || ln -s $PWD /work/main
mkdir -p build && tar xzf .gpu-run/bin.tgz -C build && B=/work/main/build/cuda-carry
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-run/ompi.tgz -C $S
export OPAL_PREFIX=$S/usr PATH=$S/usr/bin:$PATH
export LD_LIBRARY_PATH=$PWD/.gpu-run/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0 OMPI_MCA_mca_base_component_show_load_errors=0
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMP_NUM_THREADS=1
M="mpirun --oversubscribe -np"
$M 2 $B/kfem info > $OUT/info2.txt 2>&1; tail -4 $OUT/info2.txt
$B/tests/test_parallel > $OUT/test_parallel.txt 2>&1; tail -2 $OUT/test_parallel.txt
for c in "2 cuda-hex8 --mesh 32x4x4" "3 cuda-prism2 --mesh prism:6x2x2 --order 2 --mapping team" "2 serial-hex8 --mesh 16x4x4 --backend serial"; do
  set -- $c; np=$1; name=$2; shift 2
  timeout 120 python3 tests/parallel/check_mpi_run.py $B/kfem mpirun $np $OUT/check-$name "$@" --repetitions 2 > $OUT/check-$name.txt 2>&1; echo "check $name rc=$?: $(tail -1 $OUT/check-$name.txt)"
done
# CUDA: mesh4 on 1 rank and on 2 ranks sharing the GPU (staging + halo cost, not scaling)
for np in 1 2; do
  timeout 150 $M $np $B/kfem run inputs/mpi-scaling.yaml --mesh mesh4 --report $OUT/cuda-mesh4-np$np.json > $OUT/cuda-mesh4-np$np.txt 2>&1; echo "cuda mesh4 np=$np rc=$?"; grep -E "assembly|CG  |verification|rank |imbalance" $OUT/cuda-mesh4-np$np.txt
  echo "elapsed $(( $(date +%s) - start )) s"
done
# CPU, Serial backend, one rank per core: strong (256x32x32) and weak (128x16x16 per rank, slabs)
for np in 1 2 4 8 16; do
  [ $(( $(date +%s) - start )) -gt 480 ] && break
  timeout 90 $M $np --bind-to core $B/kfem run inputs/mpi-scaling.yaml --backend serial --mesh 256x32x32 --report $OUT/cpu-strong-np$np.json > $OUT/cpu-strong-np$np.txt 2>&1; echo "cpu strong np=$np rc=$?"; grep -E "  assembly|CG  " $OUT/cpu-strong-np$np.txt
  nx=$(( 128 * np ))
  timeout 90 $M $np --bind-to core $B/kfem run inputs/mpi-scaling.yaml --backend serial --mesh ${nx}x16x16 --report $OUT/cpu-weak-np$np.json > $OUT/cpu-weak-np$np.txt 2>&1; echo "cpu weak np=$np rc=$?"; grep -E "  assembly|CG  " $OUT/cpu-weak-np$np.txt
  echo "elapsed $(( $(date +%s) - start )) s"
done
