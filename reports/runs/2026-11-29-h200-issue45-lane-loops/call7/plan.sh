# session 38 call 7 on one H200: main against variant B1 (one-pass lane loops under a constant mask
# only where no value lives across them: box-owner's coordinate load, prefetch and the flush's
# diagonal blocks), mesh4, rounds interleaved (round 1 verified); ncu of box-owner, both builds, mesh2.
for b in main; do xz -dc build/carry/kfem-$b.xz >/tmp/kfem-$b && chmod +x /tmp/kfem-$b; done
main=/tmp/kfem-main
d=build/device
step ab-main-1 $main bench $d/s38-ab.yaml --out $out/ab-main-1
step ab-new-1 $kfem bench $d/s38-ab.yaml --out $out/ab-new-1
step ab-main-2 $main bench $d/s38-ab-fast.yaml --out $out/ab-main-2
step ab-new-2 $kfem bench $d/s38-ab-fast.yaml --out $out/ab-new-2
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
for b in main new; do
  bin=$main; [ $b = new ] && bin=$kfem
  nc ncu-$b-box-float $bin 'Hex8BoxOwner<[^>]*>::launch' --mapping box-owner --race none --scalar float
  nc ncu-$b-box-double $bin 'Hex8BoxOwner<[^>]*>::launch' --mapping box-owner --race none
done
