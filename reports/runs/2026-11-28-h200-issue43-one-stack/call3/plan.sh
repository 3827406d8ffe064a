# issue 43's speed table (old main /tmp/kfem-old 63c6338 vs new ca8c35f, alternated) and issue 44's set-up stages
old=/tmp/kfem-old/kfem new=$bdir/kfem d=build/device
timed() { local name=$1; shift; step "$name" bash -c 'TIMEFORMAT="wall_s %R"; time "$@"' _ "$@"; }
for v in old new; do
  k=${!v}
  step hex8-$v-1 $k bench $d/hex8.yaml --backend cuda --out $out/hex8-$v-1
done
for v in old new; do
  k=${!v}
  step prism3-$v $k bench inputs/banas.yaml --mesh prism:32x24x20 --order 3 --mapping gemm --scalar double --distort 0.1 --backend cuda --out $out/prism3-$v
  step prism7-$v $k bench inputs/banas.yaml --mesh prism:16x12x10 --order 7 --mapping gemm --scalar double --distort 0.1 --backend cuda --out $out/prism7-$v
  step acoo-$v $k run inputs/amorim.yaml --mesh tri:1120x1120 --problem electrostatics --mapping thread --race acoo --scalar double --backend cuda --no-solve --report $out/acoo-$v/report.json
  for m in "pairs atomic" "box-owner none"; do
    set -- $m
    timed m4-$1-$v $k run --mesh mesh4 --mapping $1 --race $2 --no-solve --backend cuda --report $out/m4-$1-$v.json
  done
done
for v in old new; do
  k=${!v}
  step hex8-$v-2 $k bench $d/hex8.yaml --backend cuda --out $out/hex8-$v-2
done
step ncu-graph ncu --clock-control none --kernel-name-base demangled --kernel-name "regex:graph_detail|scan_detail" --section SpeedOfLight --csv $new run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda --report $out/ncu-graph.json
