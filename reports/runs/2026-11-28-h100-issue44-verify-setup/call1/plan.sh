# issue 44 item 2 (99724fe): the default check by products on CUDA; mesh4 wall, products vs entries
build test_pipeline
tests verify test_pipeline --gtest_filter=*Oracle*:*Verification*
k=$bdir/kfem
timed() { local name=$1; shift; step "$name" bash -c 'TIMEFORMAT="wall_s %R"; time "$@"' _ "$@"; }
timed wall-pairs $k run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda --report $out/wall-pairs.json
timed wall-box-owner $k run --mesh mesh4 --mapping box-owner --race none --no-solve --backend cuda --report $out/wall-box-owner.json
timed wall-pairs-entries $k run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda --verify entries --report $out/wall-pairs-entries.json
timed wall-prism3 $k run --mesh prism:32x24x20 --order 3 --mapping gemm --no-solve --backend cuda --distort 0.1 --report $out/wall-prism3.json
timed wall-acoo $k run inputs/amorim.yaml --mesh tri:1120x1120 --problem electrostatics --mapping thread --race acoo --no-solve --backend cuda --report $out/wall-acoo.json
timed wall-auto $k run --mesh mesh4 --mapping auto --no-solve --backend cuda --report $out/wall-auto.json
