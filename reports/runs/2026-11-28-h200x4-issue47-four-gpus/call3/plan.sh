# issue 47, four H200s, call C: weak scaling at the largest per-GPU size (30 M elements per GPU) on 1
# and 4 GPUs, both halo transports.
sed 's/^  scaling:$/  scaling:\n    strong: false/; s/verify_limit: 3000000/verify_limit: 0/; s/ranks: \[1, 2, 4, 8\]/ranks: [1, 4]/' inputs/scaling-gpus.yaml >$out/weak.yaml
cat $out/weak.yaml | tail -6
mpi weak30m-4gpu 4 $kfem bench $out/weak.yaml --mesh 1249x155x155 --out $out/weak30m-4gpu
