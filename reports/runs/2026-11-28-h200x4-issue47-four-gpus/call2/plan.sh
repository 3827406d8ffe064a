# issue 47, four H200s, call B: the procurement figure of merit on 1, 2 and 4 GPUs; strong scaling of
# the largest mesh one H200 holds (30 M elements) over 1, 2, 4 GPUs, both halo transports; issue 44's
# set-up stages on one GPU (the DOF graph by incidence of ba3b9b0, box-owner's tables without a string
# per cell).
NP=$(nvidia-smi -L | wc -l)
timed() { local name=$1; shift; step "$name" bash -c 'TIMEFORMAT="wall_s %R"; time "$@"' _ "$@"; }
for m in "pairs atomic" "box-owner none"; do
  set -- $m
  timed m4-$1 $kfem run --mesh mesh4 --mapping $1 --race $2 --no-solve --backend cuda --report $out/m4-$1.json
done
mpi fom-1gpu 1 $kfem bench inputs/procurement.yaml --out $out/fom-1gpu
mpi fom-2gpu 2 $kfem bench inputs/procurement.yaml --out $out/fom-2gpu
mpi fom-${NP}gpu $NP $kfem bench inputs/procurement.yaml --out $out/fom-${NP}gpu
sed 's/^  scaling:$/  scaling:\n    weak: false/; s/verify_limit: 3000000/verify_limit: 0/' inputs/scaling-gpus.yaml >$out/strong.yaml
mpi strong30m-${NP}gpu $NP $kfem bench $out/strong.yaml --mesh 1249x155x155 --out $out/strong30m-${NP}gpu
