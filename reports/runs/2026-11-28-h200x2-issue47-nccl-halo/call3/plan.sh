# issue 47, call 3: NCCL on its own stream between events; the four transport pairs bit for bit;
# both halo transports on mesh4 per GPU and on 30 M elements per GPU; NCCL halo + MPI sums on mesh4.
NP=$(nvidia-smi -L | wc -l)
step halo-bits-np$NP python3 tests/parallel/check_halo_transports.py $kfem mpirun $NP $out/halo-np$NP --mesh 128x16x16
step halo-bits-np2-prism python3 tests/parallel/check_halo_transports.py $kfem mpirun 2 $out/halo-np2p --mesh prism:12x4x4 --order 2 --mapping team --race scatter
mpi scaling-${NP}gpu $NP $kfem bench inputs/scaling-gpus.yaml --out $out/scaling-${NP}gpu
mpi scaling-${NP}gpu-30m $NP $kfem bench inputs/scaling-gpus.yaml --mesh 1249x155x155 --out $out/scaling-${NP}gpu-30m
mpi scaling-${NP}gpu-nccl-halo-mpi-sums $NP $kfem bench inputs/scaling-gpus.yaml --halo nccl --sums mpi --out $out/scaling-${NP}gpu-nccl-halo-mpi-sums
