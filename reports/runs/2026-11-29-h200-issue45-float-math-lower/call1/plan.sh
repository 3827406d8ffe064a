# issue 45 on one H200, session 37 call 1: A/B of main (ecc0858) against the change (box-owner's float
# math in float, symbox-owner), mesh4, every point verified; then ncu's per-instruction counts
# (SourceCounters, SASS page) of the hex8 kernels on mesh2 for the instruction budget.
xz -dc build/carry/kfem-main.xz >/tmp/kfem-main && chmod +x /tmp/kfem-main
main=/tmp/kfem-main
ncu --version >$out/ncu-version.txt 2>&1
d=build/device
step ab-main-1 $main bench $d/i45-main.yaml --out $out/ab-main-1
step ab-new-1 $kfem bench $d/i45-new.yaml --out $out/ab-new-1
# the same binaries and points again, unverified (verified above), for the spread between rounds
step ab-main-2 $main bench $d/i45-main-fast.yaml --out $out/ab-main-2
step ab-new-2 $kfem bench $d/i45-new-fast.yaml --out $out/ab-new-2
rm -f $out/ab-*/*.vtu $out/ab-*/*.mtx; save
# ncu: one launch of the assembly kernel, per-instruction executed counts, SASS text
nc() {  # NAME BINARY REGEX kfem run args...
  local name=$1 bin=$2 re=$3; shift 3
  step $name ncu --clock-control none --kernel-name-base demangled --kernel-name "regex:$re" --launch-count 1 \
    --section SpeedOfLight --section InstructionStats --section SourceCounters --section Occupancy \
    --section LaunchStats -f -o /tmp/$name $bin run --mesh mesh2 --no-solve --backend cuda "$@"
  ncu -i /tmp/$name.ncu-rep --page source --csv --print-source sass >$out/$name.sass.csv 2>$out/$name.sass.err ||
    ncu -i /tmp/$name.ncu-rep --page source --csv >$out/$name.sass.csv 2>>$out/$name.sass.err
  ncu -i /tmp/$name.ncu-rep --page details --csv >$out/$name.details.csv 2>&1
  ncu -i /tmp/$name.ncu-rep --page raw --csv >$out/$name.raw.csv 2>&1
  xz -9 $out/$name.sass.csv; save
}
nc ncu-new-box-float $kfem 'Hex8BoxOwner<[^>]*>::launch' --mapping box-owner --race none --scalar float
nc ncu-main-box-float $main 'Hex8BoxOwner::launch' --mapping box-owner --race none --scalar float
nc ncu-new-box-double $kfem 'Hex8BoxOwner<[^>]*>::launch' --mapping box-owner --race none
nc ncu-new-symbox-float $kfem 'Hex8BoxOwner<[^>]*>::launch' --mapping symbox-owner --race none --scalar float
nc ncu-new-pairs-double $kfem 'Hex8Pairs<[^>]*>::launch' --mapping pairs --race atomic
nc ncu-new-pairs-float $kfem 'Hex8Pairs<[^>]*>::launch' --mapping pairs --race atomic --scalar float
nc ncu-new-pairsmma-double $kfem 'Hex8PairsMma<[^>]*>::launch' --mapping pairs-mma --race atomic
