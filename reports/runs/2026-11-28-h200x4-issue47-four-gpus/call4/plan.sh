# issue 47, four H200s, call D: CG's product in two parts, the owned columns' share while NCCL moves
# the ghosts (the halo/product overlap). The transports bit for bit on 4 ranks, 4 ranks against 1,
# the mesh4 sweep (weak and strong, 1, 2, 4 GPUs, both halo transports), then mesh4 strong with the
# previous build (701db59, no overlap) in the same call.
NP=$(nvidia-smi -L | wc -l)
D="--mesh 128x16x16 --mapping pairs --race colored --repetitions 1"
step bits-np$NP python3 tests/parallel/check_halo_transports.py $kfem mpirun $NP $out/bits $D
step mpi-run-np$NP python3 tests/parallel/check_mpi_run.py $kfem mpirun $NP $out/mpirun-np$NP --mesh 64x8x8 --repetitions 1
mpi scaling-${NP}gpu $NP $kfem bench inputs/scaling-gpus.yaml --out $out/scaling-${NP}gpu
prev=/tmp/kfem-prev && xz -dc build/carry/kfem-prev.xz >$prev && chmod +x $prev
sed 's/^  scaling:$/  scaling:\n    weak: false/' inputs/scaling-gpus.yaml >$out/strong.yaml
mpi strong-${NP}gpu-prev $NP $prev bench $out/strong.yaml --out $out/strong-${NP}gpu-prev
rm -rf $out/bits/*.vtu $out/mpirun-np$NP/*.mtx $out/mpirun-np$NP/*.vtu
