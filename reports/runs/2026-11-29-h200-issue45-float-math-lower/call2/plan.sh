# issue 45 on one H200, session 37 call 2: three builds in one call, mesh4 (verified in round 1):
# main (ecc0858), call 1's build (97e1bd1: box-owner's float math in float, symbox-owner) and the
# next step (box-owner's flush: one place load per neighbour for the three rows; pairs-mma and
# box-owner in double: J^-1 once per Gauss point), rounds interleaved; then ncu's SASS counts.
for b in main c1; do xz -dc build/carry/kfem-$b.xz >/tmp/kfem-$b && chmod +x /tmp/kfem-$b; done
main=/tmp/kfem-main c1=/tmp/kfem-c1
d=build/device
step ab-main-1 $main bench $d/i45-c2-main.yaml --out $out/ab-main-1
step ab-c1-1 $c1 bench $d/i45-c2-new.yaml --out $out/ab-c1-1
step ab-new-1 $kfem bench $d/i45-c2-new.yaml --out $out/ab-new-1
step ab-main-2 $main bench $d/i45-c2-main-fast.yaml --out $out/ab-main-2
step ab-c1-2 $c1 bench $d/i45-c2-new-fast.yaml --out $out/ab-c1-2
step ab-new-2 $kfem bench $d/i45-c2-new-fast.yaml --out $out/ab-new-2
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
nc ncu-new-box-float $kfem 'Hex8BoxOwner<[^>]*>::launch' --mapping box-owner --race none --scalar float
nc ncu-new-box-double $kfem 'Hex8BoxOwner<[^>]*>::launch' --mapping box-owner --race none
nc ncu-new-pairsmma-double $kfem 'Hex8PairsMma<[^>]*>::launch' --mapping pairs-mma --race atomic
nc ncu-c1-box-double $c1 'Hex8BoxOwner<[^>]*>::launch' --mapping box-owner --race none
step fom $kfem bench inputs/procurement.yaml --out $out/fom
rm -f $out/fom/*.vtu $out/fom/*.mtx; save
