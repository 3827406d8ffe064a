# issue 47, call 7 (the committed revision: NCCL with one CTA, sums through MPI by default): the GPUs,
# the four transport pairs bit for bit (hex8, prism p = 2), 2 ranks against 1 with the default halo
# (NCCL), and mesh4 weak and strong with both halo transports, every point verified.
NP=$(nvidia-smi -L | wc -l)
step topo nvidia-smi topo -m
mpi info-np$NP $NP $kfem info
D="--mesh 128x16x16 --mapping pairs --race colored --repetitions 1"
step bits-np$NP python3 tests/parallel/check_halo_transports.py $kfem mpirun $NP $out/bits $D
step bits-np2-prism python3 tests/parallel/check_halo_transports.py $kfem mpirun 2 $out/bitsp --mesh prism:12x4x4 --order 2 --mapping team --race colored --repetitions 1
step mpi-run-np$NP python3 tests/parallel/check_mpi_run.py $kfem mpirun $NP $out/mpirun-np$NP --mesh 64x8x8 --repetitions 1
mpi scaling-${NP}gpu $NP $kfem bench inputs/scaling-gpus.yaml --out $out/scaling-${NP}gpu
