# issue 44 on one H200, session 35 call 1: where mesh4's set-up time goes, per kernel, at 6f15937.
timed() { local name=$1; shift; step "$name" bash -c 'TIMEFORMAT="wall_s %R"; time "$@"' _ "$@"; }
timed m4-pairs $kfem run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda --report $out/m4-pairs.json
timed m4-box-owner $kfem run --mesh mesh4 --mapping box-owner --race none --no-solve --backend cuda --report $out/m4-box-owner.json
timed m4-pairs-colored $kfem run --mesh mesh4 --mapping pairs --race colored --coloring device --no-solve --backend cuda --report $out/m4-pairs-colored.json
k="ncu --clock-control none --kernel-name-base demangled --metrics gpu__time_duration.sum,dram__bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed --csv -c 80"
step ncu-pairs $k $kfem run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda
step ncu-box-owner $k $kfem run --mesh mesh4 --mapping box-owner --race none --no-solve --backend cuda
step ncu-colored $k $kfem run --mesh mesh4 --mapping pairs --race colored --coloring device --no-solve --backend cuda
