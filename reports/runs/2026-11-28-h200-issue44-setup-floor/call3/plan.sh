# issue 44 on one H200, session 35 call 3: the session's final tree, built here from .gpu-pack. The suites that test what changed
# (DOF graph, colouring, set-up) on Cuda + Serial; mesh4's set-up with kfem's own (eager) module
# loading and with CUDA's lazy default asked for; 30 M elements; ncu of the set-up kernels.
build test_sparsity test_coloring test_pipeline
for t in sparsity coloring pipeline; do tests test-$t test_$t; done
timed() { local name=$1; shift; step "$name" bash -c 'TIMEFORMAT="wall_s %R"; time "$@"' _ "$@"; }
step info $kfem info
timed m4-pairs $kfem run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda --report $out/m4-pairs.json
timed m4-box-owner $kfem run --mesh mesh4 --mapping box-owner --race none --no-solve --backend cuda --report $out/m4-box-owner.json
timed m4-colored $kfem run --mesh mesh4 --mapping pairs --race colored --coloring device --no-solve --backend cuda --report $out/m4-colored.json
timed m4-sympairs $kfem run --mesh mesh4 --mapping sympairs --race atomic --no-solve --backend cuda --report $out/m4-sympairs.json
timed m4-pairs-lazy env CUDA_MODULE_LOADING=LAZY $kfem run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda --report $out/m4-pairs-lazy.json
timed m30-pairs $kfem run --mesh 1249x155x155 --mapping pairs --race atomic --no-solve --backend cuda --report $out/m30-pairs.json
k="ncu --clock-control none --kernel-name-base demangled --metrics gpu__time_duration.sum,dram__bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed --csv -c 40"
step ncu-colored $k $kfem run --mesh mesh4 --mapping pairs --race colored --coloring device --no-solve --backend cuda
