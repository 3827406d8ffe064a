# issue 43's speed table: old main (/tmp/kfem-old, 2082d87) and new (cf45434) alternated in one call
old=/tmp/kfem-old/kfem new=$bdir/kfem d=build/device
for round in 1 2; do
  for v in old new; do
    k=${!v}
    step hex8-$v-$round $k bench $d/hex8.yaml --backend cuda --out $out/hex8-$v-$round
  done
done
for v in old new; do
  k=${!v}
  step prism3-$v $k bench inputs/banas.yaml --mesh prism:32x24x20 --order 3 --mapping gemm --scalar double --distort 0.1 --backend cuda --out $out/prism3-$v
  step prism7-$v $k bench inputs/banas.yaml --mesh prism:16x12x10 --order 7 --mapping gemm --scalar double --distort 0.1 --backend cuda --out $out/prism7-$v
  step acoo-$v $k run inputs/amorim.yaml --mesh tri:1120x1120 --problem electrostatics --mapping thread --race acoo --scalar double --backend cuda --no-solve --report $out/acoo-$v/report.json
done
