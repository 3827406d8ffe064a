# issue 44 (a3d8ac9): device Morton order, box-owner places on the device, fast verification, first_matrix_s
tests setup test_pipeline
tests boxowner test_assembly --gtest_filter=*Box*
k=$bdir/kfem
timed() { local name=$1; shift; step "$name" bash -c 'TIMEFORMAT="wall_s %R"; time "$@"' _ "$@"; }
for m in "pairs atomic" "box-owner none" "sympairs atomic" "owner none"; do
  set -- $m
  timed m4-$1 $k run --mesh mesh4 --mapping $1 --race $2 --no-solve --backend cuda --report $out/m4-$1.json
done
timed m4-default $k run --mesh mesh4 --no-solve --backend cuda --report $out/m4-default.json
rm -f ~/.cache/kfem/tuner.json
timed m4-auto $k run --mesh mesh4 --mapping auto --no-solve --backend cuda --report $out/m4-auto.json
timed m16-pairs $k run --mesh 256x256x256 --mapping pairs --race atomic --no-solve --backend cuda --report $out/m16-pairs.json
timed m16-pairs-verified $k run build/device/m16-verified.yaml --mapping pairs --race atomic --no-solve --backend cuda --report $out/m16-pairs-verified.json
