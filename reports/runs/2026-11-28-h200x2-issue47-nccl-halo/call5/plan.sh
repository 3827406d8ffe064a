# issue 47, call 5: NCCL inside CG, host-blocking against stream-ordered, and NCCL's channel count.
D="--mesh 128x16x16 --mapping pairs --race colored --repetitions 1"
run1() { local name=$1 env=$2; shift 2; mpi $name 2 $env $kfem run inputs/mpi-scaling.yaml $D "$@" --report $out/$name.json; grep -E "CG  " $out/$name.txt; }
run1 mpi-mpi "" --halo mpi --sums mpi
run1 nccl-mpi "" --halo nccl --sums mpi
run1 nccl-mpi-blocking "-x KFEM_NCCL_BLOCKING=1" --halo nccl --sums mpi
run1 nccl-nccl-blocking "-x KFEM_NCCL_BLOCKING=1" --halo nccl --sums nccl
run1 nccl-mpi-ch1 "-x NCCL_MAX_NCHANNELS=1" --halo nccl --sums mpi
run1 nccl-mpi-ch4 "-x NCCL_MAX_NCHANNELS=4" --halo nccl --sums mpi
run1 nccl-mpi-LL "-x NCCL_PROTO=LL" --halo nccl --sums mpi
run1 nccl-mpi-blocking-ch4 "-x KFEM_NCCL_BLOCKING=1 -x NCCL_MAX_NCHANNELS=4" --halo nccl --sums mpi
D="--mesh 1024x64x64 --mapping pairs --race atomic --repetitions 1"
run1 m4-mpi-mpi "" --halo mpi --sums mpi
run1 m4-nccl-mpi-blocking "-x KFEM_NCCL_BLOCKING=1" --halo nccl --sums mpi
run1 m4-nccl-nccl-blocking "-x KFEM_NCCL_BLOCKING=1" --halo nccl --sums nccl
