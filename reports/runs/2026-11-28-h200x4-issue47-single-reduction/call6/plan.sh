# issue 47, four H200s, call J (session 36): the NCCL halo connects to its peers in its constructor
# (one exchange, counted in setup.nccl_init_s), not in the first solve. The transports bit for bit on
# 4 ranks, 4 ranks against 1, then mesh4 strong single reduction twice (unverified repeats of call
# H's verified points).
NP=$(nvidia-smi -L | wc -l)
D="--mesh 128x16x16 --mapping pairs --race colored --repetitions 1 --single-reduction"
step bits-np$NP-single python3 tests/parallel/check_halo_transports.py $kfem mpirun $NP $out/bits-single $D
rm -rf $out/bits-single/*.vtu
step mpi-run-np$NP-single python3 tests/parallel/check_mpi_run.py $kfem mpirun $NP $out/mpirun-np$NP --mesh 64x8x8 --repetitions 1 --single-reduction
rm -rf $out/mpirun-np$NP/*.mtx $out/mpirun-np$NP/*.vtu
sed 's/^  scaling:$/  scaling:\n    weak: false/' inputs/scaling-gpus.yaml >$out/strong.yaml
sed 's/verify_limit: 3000000/verify_limit: 1000/' $out/strong.yaml >$out/strong-unverified.yaml
mpi strong-single-1 $NP $kfem bench $out/strong-unverified.yaml --single-reduction --out $out/strong-single-1
mpi strong-single-2 $NP $kfem bench $out/strong-unverified.yaml --single-reduction --out $out/strong-single-2
