# issue 47, four H200s, call A (d245ad4: CG with two waits per iteration): the GPUs and links; the four
# transport pairs bit for bit on 4 ranks (hex8, prism p = 2); 4 ranks' matrices and solutions against
# 1 rank; mesh4 weak and strong on 1, 2, 4 GPUs with both halo transports; then mesh4 strong again with
# the previous CG (f2b60fa, three waits and a copy of p per iteration) for the A/B in one call.
NP=$(nvidia-smi -L | wc -l)
step topo nvidia-smi topo -m
mpi info-np$NP $NP $kfem info
D="--mesh 128x16x16 --mapping pairs --race colored --repetitions 1"
step bits-np$NP python3 tests/parallel/check_halo_transports.py $kfem mpirun $NP $out/bits $D
step bits-np$NP-prism python3 tests/parallel/check_halo_transports.py $kfem mpirun $NP $out/bitsp --mesh prism:16x4x4 --order 2 --mapping team --race colored --repetitions 1
step mpi-run-np$NP python3 tests/parallel/check_mpi_run.py $kfem mpirun $NP $out/mpirun-np$NP --mesh 64x8x8 --repetitions 1
mpi scaling-${NP}gpu $NP $kfem bench inputs/scaling-gpus.yaml --out $out/scaling-${NP}gpu
old=/tmp/kfem-old && xz -dc build/carry/kfem-old.xz >$old && chmod +x $old
sed 's/^  scaling:$/  scaling:\n    weak: false/' inputs/scaling-gpus.yaml >$out/strong.yaml
mpi strong-${NP}gpu-old $NP $old bench $out/strong.yaml --out $out/strong-${NP}gpu-old
mpi strong-${NP}gpu-new $NP $kfem bench $out/strong.yaml --out $out/strong-${NP}gpu-new
