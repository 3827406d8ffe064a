# issue 44 on one H200, session 39 call 7: the DOF graph's row expansion without vector loops (lane k
# writes neighbour k's entries; "new", built here from the pack: a0fc750 + that change) against main
# (004e985's code, "old", whose expand_rows and sort are a0fc750's and the vector-loop sort), alternated;
# test_sparsity on Cuda and Serial; ncu of the graph's kernels in both.
build test_sparsity
tests test-sparsity test_sparsity
xz -dc build/c7/kfem-main.xz > /tmp/kfem-old && chmod +x /tmp/kfem-old
mkdir -p /tmp/ompi-old && tar xzf build/c7/ompi.tgz -C /tmp/ompi-old  # main's build links Open MPI and METIS
oldlib=$PWD/build/c7/oldsys/usr/lib/x86_64-linux-gnu:/tmp/ompi-old/usr/lib/x86_64-linux-gnu
old="env LD_LIBRARY_PATH=$oldlib:$LD_LIBRARY_PATH /tmp/kfem-old" new=$kfem
timed() { local name=$1; shift; step "$name" bash -c 'TIMEFORMAT="wall_s %R"; time "$@"' _ "$@"; }
k="ncu --clock-control none --kernel-name-base demangled --kernel-name regex:ExpandRows|SortedNeighbours --metrics gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes.sum --csv"
step ncu-old $k $old run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda
step ncu-new $k $new run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda
for r in 1 2 3; do
  for v in old new; do
    bin=${!v}
    timed $v$r-pairs $bin run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda --report $out/$v$r-pairs.json
    timed $v$r-box-owner $bin run --mesh mesh4 --mapping box-owner --race none --no-solve --backend cuda --report $out/$v$r-box-owner.json
  done
done
timed new-colored $new run --mesh mesh4 --mapping pairs --race colored --coloring device --no-solve --backend cuda --report $out/new-colored.json
timed new-sympairs $new run --mesh mesh4 --mapping sympairs --race atomic --no-solve --backend cuda --report $out/new-sympairs.json
timed new-m30-pairs $new run --mesh 1249x155x155 --mapping pairs --race atomic --no-solve --backend cuda --report $out/new-m30-pairs.json
timed new-m30-box-owner $new run --mesh 1249x155x155 --mapping box-owner --race none --no-solve --backend cuda --report $out/new-m30-box-owner.json
export CUDA_LAUNCH_BLOCKING=1 KOKKOS_PROFILE_LIBRARY=$PWD/build/c7/libkfem_timeline.so
step timeline-new-pairs $new run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda
