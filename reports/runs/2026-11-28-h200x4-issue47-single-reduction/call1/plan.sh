# issue 47, four H200s, call E (session 36): the host-staged halo overlapped with the owned columns'
# product (MPI exchanges while the spmv runs; page-locked staging), and CG's single-reduction
# recurrence (solver.single_reduction: one wait per iteration). Checks first: the transports bit for
# bit on 4 ranks with each recurrence, 4 ranks against 1. Then mesh4 strong on 1, 2, 4 GPUs, both
# halo transports: the previous build (6f15937, no MPI overlap), the new build classic, the new
# build single reduction, then again in reverse order; weak with the new build, both recurrences.
NP=$(nvidia-smi -L | wc -l)
D="--mesh 128x16x16 --mapping pairs --race colored --repetitions 1"
step bits-np$NP python3 tests/parallel/check_halo_transports.py $kfem mpirun $NP $out/bits $D
step bits-np$NP-single python3 tests/parallel/check_halo_transports.py $kfem mpirun $NP $out/bits-single $D --single-reduction
step mpi-run-np$NP-single python3 tests/parallel/check_mpi_run.py $kfem mpirun $NP $out/mpirun-np$NP --mesh 64x8x8 --repetitions 1 --single-reduction
prev=/tmp/kfem-prev && xz -dc build/carry/kfem-prev.xz >$prev && chmod +x $prev
sed 's/^  scaling:$/  scaling:\n    weak: false/' inputs/scaling-gpus.yaml >$out/strong.yaml
sed 's/^  scaling:$/  scaling:\n    strong: false/' inputs/scaling-gpus.yaml >$out/weak.yaml
step upload-probe build/device/probe/upload
mpi strong-prev-1 $NP $prev bench $out/strong.yaml --out $out/strong-prev-1
mpi strong-classic-1 $NP $kfem bench $out/strong.yaml --out $out/strong-classic-1
mpi strong-single-1 $NP $kfem bench $out/strong.yaml --single-reduction --out $out/strong-single-1
mpi weak-single $NP $kfem bench $out/weak.yaml --single-reduction --out $out/weak-single
mpi strong-single-2 $NP $kfem bench $out/strong.yaml --single-reduction --out $out/strong-single-2
mpi strong-classic-2 $NP $kfem bench $out/strong.yaml --out $out/strong-classic-2
mpi strong-prev-2 $NP $prev bench $out/strong.yaml --out $out/strong-prev-2
mpi weak-classic $NP $kfem bench $out/weak.yaml --out $out/weak-classic
rm -rf $out/bits*/*.vtu $out/mpirun-np$NP/*.mtx $out/mpirun-np$NP/*.vtu
