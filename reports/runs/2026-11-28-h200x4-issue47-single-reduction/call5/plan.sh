# issue 47, four H200s, call I (session 36): CG's time per iteration with the solve's set-up apart
# (solve.cg_iteration_s; the scaling efficiencies use it). The transports bit for bit on 4 ranks,
# then mesh4 strong (unverified repeats of call H's verified points, same build but for the timers)
# single reduction twice and classic once, and weak single reduction (its 1-rank points verified).
NP=$(nvidia-smi -L | wc -l)
D="--mesh 128x16x16 --mapping pairs --race colored --repetitions 1 --single-reduction"
step bits-np$NP-single python3 tests/parallel/check_halo_transports.py $kfem mpirun $NP $out/bits-single $D
rm -rf $out/bits-single/*.vtu
sed 's/^  scaling:$/  scaling:\n    weak: false/' inputs/scaling-gpus.yaml >$out/strong.yaml
sed 's/verify_limit: 3000000/verify_limit: 1000/' $out/strong.yaml >$out/strong-unverified.yaml
sed 's/^  scaling:$/  scaling:\n    strong: false/' inputs/scaling-gpus.yaml >$out/weak.yaml
mpi strong-single-1 $NP $kfem bench $out/strong-unverified.yaml --single-reduction --out $out/strong-single-1
mpi strong-classic $NP $kfem bench $out/strong-unverified.yaml --out $out/strong-classic
mpi strong-single-2 $NP $kfem bench $out/strong-unverified.yaml --single-reduction --out $out/strong-single-2
mpi weak-single $NP $kfem bench $out/weak.yaml --single-reduction --out $out/weak-single
