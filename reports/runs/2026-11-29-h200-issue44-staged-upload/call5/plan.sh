# issue 44 on one H200, session 39 call 5: the DOF graph's node sort through warp shuffles ("new",
# built here from .gpu-pack) against call 4's tree ("c4") and main ("old"), alternated; the graph's
# tests on Cuda and Serial; ncu of the sort kernel in c4 and new.
build test_sparsity
tests test-sparsity test_sparsity
xz -dc build/c5/kfem-main.xz > /tmp/kfem-old && xz -dc build/c5/kfem-c4.xz > /tmp/kfem-c4 && chmod +x /tmp/kfem-old /tmp/kfem-c4
old=/tmp/kfem-old c4=/tmp/kfem-c4 new=$kfem
timed() { local name=$1; shift; step "$name" bash -c 'TIMEFORMAT="wall_s %R"; time "$@"' _ "$@"; }
k="ncu --clock-control none --kernel-name-base demangled --kernel-name regex:SortedNeighbours --metrics gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes.sum --csv"
step ncu-c4 $k $c4 run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda
step ncu-new $k $new run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda
for r in 1 2 3; do
  for v in old c4 new; do
    bin=${!v}
    timed $v$r-pairs $bin run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda --report $out/$v$r-pairs.json
    timed $v$r-box-owner $bin run --mesh mesh4 --mapping box-owner --race none --no-solve --backend cuda --report $out/$v$r-box-owner.json
  done
done
timed new-colored $new run --mesh mesh4 --mapping pairs --race colored --coloring device --no-solve --backend cuda --report $out/new-colored.json
timed new-sympairs $new run --mesh mesh4 --mapping sympairs --race atomic --no-solve --backend cuda --report $out/new-sympairs.json
for v in c4 new; do
  bin=${!v}
  timed $v-m30-pairs $bin run --mesh 1249x155x155 --mapping pairs --race atomic --no-solve --backend cuda --report $out/$v-m30-pairs.json
done
export CUDA_LAUNCH_BLOCKING=1 KOKKOS_PROFILE_LIBRARY=$PWD/build/c5/libkfem_timeline.so
step timeline-new-pairs $new run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda
