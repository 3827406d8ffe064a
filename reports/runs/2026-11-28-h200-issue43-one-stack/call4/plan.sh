# issue 44: 16.8 M elements and a first --mapping auto, old (63c6338) and new (ca8c35f); the new build's test_solve
old=/tmp/kfem-old/kfem new=$bdir/kfem
timed() { local name=$1; shift; step "$name" bash -c 'TIMEFORMAT="wall_s %R"; time "$@"' _ "$@"; }
for v in old new; do
  k=${!v}
  timed m16-pairs-$v $k run --mesh 256x256x256 --mapping pairs --race atomic --no-solve --backend cuda --report $out/m16-pairs-$v.json
  export KFEM_TUNER_CACHE=/tmp/tuner-$v.json; rm -f $KFEM_TUNER_CACHE
  timed m4-auto-$v $k run --mesh mesh4 --mapping auto --no-solve --backend cuda --report $out/m4-auto-$v.json
done
tests solve test_solve
