# issue 47, four H200s, call F (session 36): the host-staged halo overlapped with the owned columns'
# product (page-locked staging) and CG's single-reduction recurrence (solver.single_reduction).
# Checks: the four transport pairs bit for bit on 4 ranks (single reduction), 4 ranks against 1.
# Then mesh4 strong on 1, 2, 4 GPUs, both halo transports: the new build with single reduction
# (verified), then unverified A/B repeats (the same meshes): the previous build (6f15937, no MPI
# overlap, classic), the new build classic, the new build single reduction, the previous build again;
# and weak with single reduction.
NP=$(nvidia-smi -L | wc -l)
D="--mesh 128x16x16 --mapping pairs --race colored --repetitions 1 --single-reduction"
step bits-np$NP-single python3 tests/parallel/check_halo_transports.py $kfem mpirun $NP $out/bits-single $D
rm -rf $out/bits-single/*.vtu
step mpi-run-np$NP-single python3 tests/parallel/check_mpi_run.py $kfem mpirun $NP $out/mpirun-np$NP --mesh 64x8x8 --repetitions 1 --single-reduction
rm -rf $out/mpirun-np$NP/*.mtx $out/mpirun-np$NP/*.vtu
prev=/tmp/kfem-prev && xz -dc build/carry/kfem-prev.xz >$prev && chmod +x $prev
sed 's/^  scaling:$/  scaling:\n    weak: false/' inputs/scaling-gpus.yaml >$out/strong.yaml
sed 's/verify_limit: 3000000/verify_limit: 1000/' $out/strong.yaml >$out/strong-unverified.yaml
sed 's/^  scaling:$/  scaling:\n    strong: false/' inputs/scaling-gpus.yaml >$out/weak.yaml
mpi strong-single $NP $kfem bench $out/strong.yaml --single-reduction --out $out/strong-single
mpi ab-prev-1 $NP $prev bench $out/strong-unverified.yaml --out $out/ab-prev-1
mpi ab-classic-1 $NP $kfem bench $out/strong-unverified.yaml --out $out/ab-classic-1
mpi ab-single-1 $NP $kfem bench $out/strong-unverified.yaml --single-reduction --out $out/ab-single-1
mpi weak-single $NP $kfem bench $out/weak.yaml --single-reduction --out $out/weak-single
mpi ab-prev-2 $NP $prev bench $out/strong-unverified.yaml --out $out/ab-prev-2
mpi ab-single-2 $NP $kfem bench $out/strong-unverified.yaml --single-reduction --out $out/ab-single-2
mpi ab-classic-2 $NP $kfem bench $out/strong-unverified.yaml --out $out/ab-classic-2
