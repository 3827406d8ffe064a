# Issue 45 call 4: box-owner's per-team cell table against main (82bd077), H100/H200 mesh4, two
# interleaved rounds (every round verified), kfem verify of the new kernel on a small distorted box with
# random numbering, and the new kernel's ncu counts on mesh2 (float, double).
while [ ! -f /tmp/base-rc ]; do sleep 3; done
log "main's build: exit $(cat /tmp/base-rc)"; tail -n 2 /tmp/base-build.log; cp /tmp/base-build.log "$out/base-build.log"
base=/tmp/kfem-base/kfem
for r in 1 2; do
  for c in "box-owner float" "box-owner double" "symbox-owner double"; do
    set -- $c; n=$1-$2
    step main-$n-$r "$base" bench "$deck" --mapping $1 --race none --scalar $2 --out "$out/main-$n-$r"
    bench table-$n-$r --mapping $1 --race none --scalar $2
  done
done
step verify "$kfem" verify --mesh 13x7x9 --renumber random --distort 0.1 --backend cuda --scalar float \
  --mapping box-owner --mapping symbox-owner
step verify-double "$kfem" verify --mesh 13x7x9 --renumber random --distort 0.1 --backend cuda --scalar double \
  --mapping box-owner
d2=$out/mesh2.yaml
printf "mesh: {sizes: [mesh2]}\nbench: {warmup: 0, repetitions: 1, verify_limit: 1000}\n" >"$d2"
for s in float double; do
  mkdir -p "$out/ncu-$s"
  step ncu-$s ncu --clock-control none --kernel-name-base demangled \
    --kernel-name "regex:Hex8BoxOwner<\(bool\)0>::Kernel<Kokkos::Cuda, kfem::mapping::Hex8BoxOwnerData<$s" --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats --section InstructionStats \
    -f -o "$out/ncu-$s/rep" "$kfem" bench "$d2" --mapping box-owner --race none --scalar $s --out "$out/ncu-$s/bench"
  ncu --import "$out/ncu-$s/rep.ncu-rep" --page details --csv >"$out/ncu-$s/details.csv" 2>&1
  xz -T8 "$out/ncu-$s"/*.csv; rm -f "$out/ncu-$s/rep.ncu-rep"; save
done
rm -f "$out"/*/*.vtu "$out"/*/*.mtx
