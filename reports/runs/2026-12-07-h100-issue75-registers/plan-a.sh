# Issue 75/77, one call: "k4" = main b70b66e ($base, Kokkos 4.6, no carveout preference) against this
# tree ($kfem: box-owner's policy asks DesiredOccupancy(100); storage axis; block storage), both
# built by device-run side by side. This tree's a-COO GPU refusal is taken out, to see where a-COO stops.
k4=$base
ncu_box() {  # WHO BIN SCALAR
  step ncu-$1-$3 ncu --clock-control none --kernel-name-base demangled --kernel-name "regex:Hex8BoxOwner" \
    --launch-skip 1 --launch-count 1 --section LaunchStats --section Occupancy --section SpeedOfLight \
    "$2" bench "$deck" --mapping box-owner --race none --scalar $3 --repetitions 1 --warmup 1 --out "$out/ncu-$1-$3"
}
ncu_box k4 "$k4" double
ncu_box new "$kfem" double
for s in double float; do
  for who in k4 new; do
    bin=$kfem; [[ $who == k4 ]] && bin=$k4
    step $who-hex8-$s "$bin" bench "$deck" --mapping box-owner --mapping symbox-owner --mapping pairs \
      --mapping sympairs --race none --race atomic --scalar $s --out "$out/$who-hex8-$s"
  done
  step new-bsr-$s "$kfem" bench "$deck" --mapping pairs --mapping element --race atomic --storage csr \
    --storage bsr --scalar $s --out "$out/new-bsr-$s"
done
STEP_TIMEOUT=45 step acoo-small "$kfem" run --mesh 4x2x2 --race acoo --no-solve --repetitions 1 --warmup 0 \
  --report "$out/acoo-small.json"
STEP_TIMEOUT=60 step acoo-kernels ncu --clock-control none --kernel-name-base demangled --section LaunchStats \
  "$kfem" run --mesh 4x2x2 --race acoo --no-solve --repetitions 1 --warmup 0 --report "$out/acoo-kernels.json"
