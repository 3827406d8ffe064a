# issue 44 on one H200, session 39 call 2: mesh4's and 30 M elements' set-up, main (004e985's code,
# "old") against the staged upload and the start-up reservations ("new"), alternated, same call.
xz -dc build/carry/kfem-main.xz > /tmp/kfem-old && chmod +x /tmp/kfem-old
old=/tmp/kfem-old new=$kfem
timed() { local name=$1; shift; step "$name" bash -c 'TIMEFORMAT="wall_s %R"; time "$@"' _ "$@"; }
step info-new $new info
step info-old $old info
for r in 1 2; do
  for v in old new; do
    bin=${!v}
    timed $v$r-pairs $bin run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda --report $out/$v$r-pairs.json
    timed $v$r-box-owner $bin run --mesh mesh4 --mapping box-owner --race none --no-solve --backend cuda --report $out/$v$r-box-owner.json
    timed $v$r-colored $bin run --mesh mesh4 --mapping pairs --race colored --coloring device --no-solve --backend cuda --report $out/$v$r-colored.json
    timed $v$r-sympairs $bin run --mesh mesh4 --mapping sympairs --race atomic --no-solve --backend cuda --report $out/$v$r-sympairs.json
  done
done
for v in old new; do
  bin=${!v}
  timed $v-m30-pairs $bin run --mesh 1249x155x155 --mapping pairs --race atomic --no-solve --backend cuda --report $out/$v-m30-pairs.json
  timed $v-m30-box-owner $bin run --mesh 1249x155x155 --mapping box-owner --race none --no-solve --backend cuda --report $out/$v-m30-box-owner.json
done
timed new-auto $new run --mesh mesh4 --mapping auto --no-solve --backend cuda --report $out/new-auto.json
export CUDA_LAUNCH_BLOCKING=1 KOKKOS_PROFILE_LIBRARY=$PWD/build/carry/libkfem_timeline.so
step timeline-new-pairs $new run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda
step timeline-old-pairs $old run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda
