# session 38 call 2 on one H200: main against variant A (call 1's build plus launch bounds: box-owner
# 64 registers in float, 128 in double; pairs capped at 85 for every race), mesh4, rounds
# interleaved (round 1 verified); ncu of variant A's box-owner (both scalars) and pairs in float, mesh2.
for b in main a; do xz -dc build/carry/kfem-$b.xz >/tmp/kfem-$b && chmod +x /tmp/kfem-$b; done
main=/tmp/kfem-main a=/tmp/kfem-a
d=build/device
step ab-main-1 $main bench $d/s38-ab.yaml --out $out/ab-main-1
step ab-a-1 $a bench $d/s38-ab.yaml --out $out/ab-a-1
step ab-main-2 $main bench $d/s38-ab-fast.yaml --out $out/ab-main-2
step ab-a-2 $a bench $d/s38-ab-fast.yaml --out $out/ab-a-2
rm -f $out/ab-*/*.vtu $out/ab-*/*.mtx; save
nc() {  # NAME BINARY REGEX kfem run args...
  local name=$1 bin=$2 re=$3; shift 3
  step $name ncu --clock-control none --kernel-name-base demangled --kernel-name "regex:$re" --launch-count 1 \
    --section SpeedOfLight --section InstructionStats --section SourceCounters --section Occupancy \
    --section LaunchStats --section WarpStateStats -f -o /tmp/$name $bin run --mesh mesh2 --no-solve --backend cuda "$@"
  ncu -i /tmp/$name.ncu-rep --page source --csv --print-source sass >$out/$name.sass.csv 2>$out/$name.sass.err
  ncu -i /tmp/$name.ncu-rep --page details --csv >$out/$name.details.csv 2>&1
  xz -9 $out/$name.sass.csv; save
}
nc ncu-a-box-float $a 'Hex8BoxOwner<[^>]*>::launch' --mapping box-owner --race none --scalar float
nc ncu-a-box-double $a 'Hex8BoxOwner<[^>]*>::launch' --mapping box-owner --race none
nc ncu-a-pairs-float $a 'Hex8Pairs<[^>]*>::launch' --mapping pairs --race atomic --scalar float
