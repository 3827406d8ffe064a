# Issue 45, the instruction budget per phase: main built with line info (CXXFLAGS=-lineinfo at
# configure), ncu's source counters of one launch of each hex8 kernel on mesh2, and the SASS of
# those kernels with nvdisasm's line and inline information, to attribute each instruction to a phase.
d2=$out/mesh2.yaml
printf "mesh: {sizes: [mesh2]}\nbench: {warmup: 0, repetitions: 1, verify_limit: 1000}\n" >"$d2"
src() {  # NAME KERNEL bench-options
  local name=$1 kernel=$2; shift 2
  mkdir -p "$out/$name"
  step "$name" ncu --clock-control none --kernel-name-base demangled --kernel-name "regex:$kernel" --launch-count 1 \
    --section SourceCounters --section SpeedOfLight --section Occupancy --section WarpStateStats \
    --section LaunchStats --section InstructionStats --section MemoryWorkloadAnalysis --import-source yes \
    -f -o "$out/$name/rep" "$kfem" bench "$d2" "$@" --out "$out/$name/bench"
  ncu --import "$out/$name/rep.ncu-rep" --page source --csv --print-source sass >"$out/$name/sass.csv" 2>&1
  ncu --import "$out/$name/rep.ncu-rep" --page details --csv >"$out/$name/details.csv" 2>&1
  ncu --import "$out/$name/rep.ncu-rep" --page source --csv --print-source cuda,sass >"$out/$name/cuda-sass.csv" 2>&1
  head -c 600 "$out/$name/cuda-sass.csv"; echo
  xz -T8 "$out/$name"/*.csv; rm -f "$out/$name/rep.ncu-rep"
  save
}
src box-float 'Hex8BoxOwner<\(bool\)0>::Kernel<Kokkos::Cuda, kfem::mapping::Hex8BoxOwnerData<float' --mapping box-owner --race none --scalar float
src box-double 'Hex8BoxOwner<\(bool\)0>::Kernel<Kokkos::Cuda, kfem::mapping::Hex8BoxOwnerData<double' --mapping box-owner --race none --scalar double
src pairs-float 'Hex8Pairs<\(bool\)0>::Kernel' --mapping pairs --race atomic --scalar float
src mma-double 'Hex8PairsMma<\(bool\)0>::Kernel' --mapping pairs-mma --race atomic --scalar double
src symbox-float 'Hex8BoxOwner<\(bool\)1>::Kernel<Kokkos::Cuda, kfem::mapping::Hex8BoxOwnerData<float' --mapping symbox-owner --race none --scalar float
# The kernels' SASS with line info: the cubins holding them, disassembled, kept to those functions.
step disasm bash -c '
  mkdir -p /tmp/cub && cd /tmp/cub && cuobjdump -xelf all "$0" >/dev/null; ls -la
  for f in *.cubin; do
    grep -q -a -E "Hex8BoxOwner|Hex8Pairs" "$f" || continue
    nvdisasm --print-line-info --print-line-info-inline "$f" 2>&1 |
      awk "/^[[:space:]]*\\.section[[:space:]]+\\.text\\./ { keep = (\$0 ~ /Hex8BoxOwner|Hex8Pairs/) } keep" |
      xz -T8 >"$1/disasm-$f.xz"
    ls -la "$1/disasm-$f.xz"
  done' "$kfem" "$out"
