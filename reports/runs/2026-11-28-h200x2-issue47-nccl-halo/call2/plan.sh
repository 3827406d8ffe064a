# issue 47, call 2 (the fix of cc402fa's GPU test): NCCL against host-staged bit for bit, both sweeps on
# mesh4, the figure of merit on 1 and NP GPUs.
NP=$(nvidia-smi -L | wc -l)
step topo nvidia-smi topo -m
step halo-bits-np$NP python3 tests/parallel/check_halo_transports.py $kfem mpirun $NP $out/halo-np$NP --mesh 128x16x16
step halo-bits-np2-prism python3 tests/parallel/check_halo_transports.py $kfem mpirun 2 $out/halo-np2p --mesh prism:12x4x4 --order 2 --mapping team --race scatter
step mpi-run-np$NP python3 tests/parallel/check_mpi_run.py $kfem mpirun $NP $out/mpirun-np$NP --mesh 64x8x8 --repetitions 1
mpi scaling-${NP}gpu $NP $kfem bench inputs/scaling-gpus.yaml --out $out/scaling-${NP}gpu
mpi scaling-${NP}gpu-nccl-halo-mpi-sums $NP $kfem bench inputs/scaling-gpus.yaml --halo nccl --sums mpi --out $out/scaling-${NP}gpu-nccl-halo-mpi-sums
mpi fom-1gpu 1 $kfem bench inputs/procurement.yaml --out $out/fom-1gpu
mpi fom-${NP}gpu $NP $kfem bench inputs/procurement.yaml --out $out/fom-${NP}gpu
