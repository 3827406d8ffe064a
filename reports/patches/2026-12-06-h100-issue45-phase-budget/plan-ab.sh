# Issue 45's A/B, not yet run: box-owner's per-team cell table (box-owner-cell-table.patch, applied to
# the working tree) against main (82bd077), mesh4, two interleaved rounds, each verified; kfem verify of
# the new kernel on a small distorted box with random numbering; its ncu counts on mesh2. Set-up on the
# development machine:
#   git apply reports/patches/2026-12-06-h100-issue45-phase-budget/box-owner-cell-table.patch
#   mkdir -p build/carry/base && git archive 82bd077 CMakeLists.txt CMakePresets.json cmake src miniapp \
#     tests inputs scripts | tar -x -C build/carry/base
#   cp reports/patches/2026-12-06-h100-issue45-phase-budget/plan-ab.sh build/carry/ && scripts/pack-gpu
# The call (carry ["build/carry", ".gpu-pack"]); device-run builds both trees side by side:
#   KFEM_BASE_TREE=build/carry/base KFEM_BASE_REVISION=82bd077b11dd CXXFLAGS=-lineinfo STEP_TIMEOUT=90 \
#     scripts/device-run build/carry/plan-ab.sh
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
