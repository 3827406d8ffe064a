# issue 47, call 4: why an NCCL exchange costs ~2 ms inside CG and ~30 us alone; the bit-for-bit check
# with deterministic (coloured) assembly.
step env bash -c 'ls /usr/local/cuda/bin | tr "\n" " "; echo; which nsys; nproc; cat /sys/fs/cgroup/cpu.max 2>/dev/null; nvidia-smi topo -p2p r'
D="--mesh 128x16x16 --mapping pairs --race colored --repetitions 1"
step bits-np2 python3 tests/parallel/check_halo_transports.py $kfem mpirun 2 $out/bits $D
step bits-np2-prism python3 tests/parallel/check_halo_transports.py $kfem mpirun 2 $out/bitsp --mesh prism:12x4x4 --order 2 --mapping team --race colored --repetitions 1
mpi nccl-debug 2 -x NCCL_DEBUG=INFO $kfem run inputs/mpi-scaling.yaml $D --halo nccl --sums mpi --report $out/nccl-debug.json
for e in NCCL_LAUNCH_MODE=GROUP NCCL_P2P_DISABLE=1 NCCL_PROTO=Simple CUDA_DEVICE_MAX_CONNECTIONS=32; do
  mpi env-${e%%=*} 2 -x $e $kfem run inputs/mpi-scaling.yaml $D --halo nccl --sums mpi --report $out/env-${e%%=*}.json
done
NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
if [[ -n $NSYS ]]; then
  mpi nsys 2 $NSYS profile --trace=cuda,osrt --sample=none -o $out/prof-%q{OMPI_COMM_WORLD_RANK} $kfem run inputs/mpi-scaling.yaml $D --halo nccl --sums mpi --report $out/nsys.json
  step nsys-stats $NSYS stats --report cuda_api_sum,cuda_gpu_kern_sum,osrt_sum $out/prof-0.nsys-rep
fi
