# issue 44 on one H200, session 35 call 2: mesh4's set-up, main (6f15937, "old") against this session's
# changes ("new", same call); each with CUDA's default lazy module loading and with EAGER loading.
xz -dc build/carry/kfem-old.xz > /tmp/kfem-old && chmod +x /tmp/kfem-old
old=/tmp/kfem-old new=$kfem
timed() { local name=$1; shift; step "$name" bash -c 'TIMEFORMAT="wall_s %R"; time "$@"' _ "$@"; }
step info $new info
for v in old new; do
  bin=${!v}
  for load in LAZY EAGER; do
    timed $v-$load-pairs env CUDA_MODULE_LOADING=$load $bin run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda --report $out/$v-$load-pairs.json
    timed $v-$load-box-owner env CUDA_MODULE_LOADING=$load $bin run --mesh mesh4 --mapping box-owner --race none --no-solve --backend cuda --report $out/$v-$load-box-owner.json
    timed $v-$load-colored env CUDA_MODULE_LOADING=$load $bin run --mesh mesh4 --mapping pairs --race colored --coloring device --no-solve --backend cuda --report $out/$v-$load-colored.json
  done
done
k="ncu --clock-control none --kernel-name-base demangled --metrics gpu__time_duration.sum,dram__bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed --csv -c 45"
step ncu-new-colored $k $new run --mesh mesh4 --mapping pairs --race colored --coloring device --no-solve --backend cuda
step ncu-new-pairs $k $new run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda
timed new-30M-pairs $new run --mesh 1249x155x155 --mapping pairs --race atomic --no-solve --backend cuda --report $out/new-30M-pairs.json
timed new-auto $new run --mesh mesh4 --mapping auto --no-solve --backend cuda --report $out/new-auto.json
