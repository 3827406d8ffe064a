# Issue 45, call 2: pairs-mma's source counters (call 1's regex missed its lambda), the kernels' SASS
# with line info again (the same build flags), and mesh4 times of the final state, verified.
d2=$out/mesh2.yaml
printf "mesh: {sizes: [mesh2]}\nbench: {warmup: 0, repetitions: 1, verify_limit: 1000}\n" >"$d2"
mkdir -p "$out/mma-double"
step mma-double ncu --clock-control none --kernel-name-base demangled \
  --kernel-name 'regex:Hex8PairsMma<\(bool\)0>::launch<Kokkos::Cuda, kfem::Hex8ElementData<double.*Atomic' --launch-count 1 \
  --section SourceCounters --section SpeedOfLight --section Occupancy --section WarpStateStats \
  --section LaunchStats --section InstructionStats --section MemoryWorkloadAnalysis --import-source yes \
  -f -o "$out/mma-double/rep" "$kfem" bench "$d2" --mapping pairs-mma --race atomic --scalar double --out "$out/mma-double/bench"
ncu --import "$out/mma-double/rep.ncu-rep" --page source --csv --print-source sass >"$out/mma-double/sass.csv" 2>&1
ncu --import "$out/mma-double/rep.ncu-rep" --page details --csv >"$out/mma-double/details.csv" 2>&1
xz -T8 "$out/mma-double"/*.csv; rm -f "$out/mma-double/rep.ncu-rep"; save
step disasm bash -c '
  mkdir -p /tmp/cub && cd /tmp/cub && cuobjdump -xelf make_assembler_hex8.sm_90.cubin "$0" >/dev/null; ls -la
  nvdisasm --print-line-info --print-line-info-inline make_assembler_hex8.sm_90.cubin 2>&1 |
    awk "/^[[:space:]]*\\.section[[:space:]]+\\.text\\./ { keep = (\$0 ~ /Hex8BoxOwner|Hex8Pairs/) } keep" |
    xz -T8 >"$1/disasm-make_assembler_hex8.sm_90.cubin.xz"' "$kfem" "$out"
bench t-box-float --mapping box-owner --race none --scalar float
bench t-box-double --mapping box-owner --race none --scalar double
bench t-symbox-float --mapping symbox-owner --race none --scalar float
bench t-symbox-double --mapping symbox-owner --race none --scalar double
bench t-pairs-float --mapping pairs --race atomic --scalar float
bench t-mma-double --mapping pairs-mma --race atomic --scalar double
