# issue 44 item 3 on one H200, session 35 call 5: does the tuner's sample (the first 262,144 elements)
# rank the candidates as mesh4 itself does? The first --mapping auto, then every full-storage
# candidate timed on the whole mesh as the tuner times them (1 warm-up, 3 runs), in the same call.
step auto $kfem run --mesh mesh4 --mapping auto --no-solve --backend cuda --report $out/auto.json
m=""; for x in element warp4 warp8 ppni4 ppni8 twokernel warp4-scratch warp4-atomic warp4-vreduce pairs pairs-mma owner batch batch-owner box-owner thread team; do m="$m --mapping $x"; done
bench full-mesh4 $m --race colored --race atomic --race scatter --race none --scalar double --backend cuda --warmup 1 --repetitions 3
