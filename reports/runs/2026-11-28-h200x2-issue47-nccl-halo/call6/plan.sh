# issue 47, call 6: NCCL with one CTA per operation (this revision's default) inside CG.
D="--mesh 128x16x16 --mapping pairs --race colored --repetitions 1"
run1() { local name=$1 env=$2; shift 2; mpi $name 2 $env $kfem run inputs/mpi-scaling.yaml $D "$@" --report $out/$name.json; grep -E "CG  |ranks  " $out/$name.txt; }
run1 mpi-mpi "" --halo mpi --sums mpi
run1 nccl-mpi "" --halo nccl --sums mpi
run1 nccl-nccl "" --halo nccl --sums nccl
run1 mpi-nccl "" --halo mpi --sums nccl
run1 nccl-mpi-cta2 "-x NCCL_MAX_CTAS=2" --halo nccl --sums mpi
step bits-np2 python3 tests/parallel/check_halo_transports.py $kfem mpirun 2 $out/bits $D
cat >$out/strong.yaml <<EOD
mesh: {size: mesh4}
solver: {tolerance: 1.0e-30, max_iterations: 200}
parallel: {halo: [mpi, nccl], sums: mpi}
bench: {warmup: 2, repetitions: 5, verify_limit: 0, scaling: {ranks: [1, 2]}}
EOD
mpi scaling-m4 2 $kfem bench $out/strong.yaml --out $out/scaling-m4
mpi scaling-m4-ncclsums 2 $kfem bench $out/strong.yaml --halo nccl --sums nccl --out $out/scaling-m4-ncclsums
sed -i 's/{ranks: \[1, 2\]}/{ranks: [1, 2], weak: false}/' $out/strong.yaml
mpi scaling-30m-strong 2 $kfem bench $out/strong.yaml --mesh 1249x155x155 --out $out/scaling-30m-strong
