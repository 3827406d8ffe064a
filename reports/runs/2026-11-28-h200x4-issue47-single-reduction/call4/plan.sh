# issue 47, four H200s, call H (session 36): the halo's waits on a mark (a CUDA event after the pack
# and its copy), not on the stream, so the device runs the product while the host waits; NCCL's
# messages enqueued after the product's launch; the ghost columns' product over their entries alone.
# Checks: the four transport pairs bit for bit on 4 ranks (single reduction), 4 ranks against 1.
# Then mesh4 strong on 1, 2, 4 GPUs, both halo transports, single reduction: the new build verified,
# then unverified A/B repeats: call F's build (wip: overlap + single reduction) against the new.
NP=$(nvidia-smi -L | wc -l)
D="--mesh 128x16x16 --mapping pairs --race colored --repetitions 1 --single-reduction"
step bits-np$NP-single python3 tests/parallel/check_halo_transports.py $kfem mpirun $NP $out/bits-single $D
rm -rf $out/bits-single/*.vtu
step mpi-run-np$NP-single python3 tests/parallel/check_mpi_run.py $kfem mpirun $NP $out/mpirun-np$NP --mesh 64x8x8 --repetitions 1 --single-reduction
rm -rf $out/mpirun-np$NP/*.mtx $out/mpirun-np$NP/*.vtu
wip=/tmp/kfem-wip && xz -dc build/carry/kfem-wip.xz >$wip && chmod +x $wip
sed 's/^  scaling:$/  scaling:\n    weak: false/' inputs/scaling-gpus.yaml >$out/strong.yaml
sed 's/verify_limit: 3000000/verify_limit: 1000/' $out/strong.yaml >$out/strong-unverified.yaml
sed 's/^  scaling:$/  scaling:\n    strong: false/' inputs/scaling-gpus.yaml >$out/weak.yaml
mpi strong-single $NP $kfem bench $out/strong.yaml --single-reduction --out $out/strong-single
mpi ab-wip-1 $NP $wip bench $out/strong-unverified.yaml --single-reduction --out $out/ab-wip-1
mpi ab-new-1 $NP $kfem bench $out/strong-unverified.yaml --single-reduction --out $out/ab-new-1
mpi ab-wip-2 $NP $wip bench $out/strong-unverified.yaml --single-reduction --out $out/ab-wip-2
mpi ab-new-2 $NP $kfem bench $out/strong-unverified.yaml --single-reduction --out $out/ab-new-2
mpi ab-new-classic $NP $kfem bench $out/strong-unverified.yaml --out $out/ab-new-classic
mpi weak-single $NP $kfem bench $out/weak.yaml --single-reduction --out $out/weak-single
