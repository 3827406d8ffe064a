# issue 45 on one H200, session 37 call 3: call 2's build (af4c1f0) against pair_nodes by compares
# (no square root), mesh4, rounds interleaved (round 1 verified); then the tuner (--mapping auto,
# a fresh cache) in both scalars with the new build.
xz -dc build/carry/kfem-c2.xz >/tmp/kfem-c2 && chmod +x /tmp/kfem-c2
c2=/tmp/kfem-c2
d=build/device
step ab-c2-1 $c2 bench $d/i45-c3.yaml --out $out/ab-c2-1
step ab-new-1 $kfem bench $d/i45-c3.yaml --out $out/ab-new-1
step ab-c2-2 $c2 bench $d/i45-c3-fast.yaml --out $out/ab-c2-2
step ab-new-2 $kfem bench $d/i45-c3-fast.yaml --out $out/ab-new-2
rm -f $out/ab-*/*.vtu $out/ab-*/*.mtx; save
export KFEM_TUNER_CACHE=/tmp/tuner.json
step tuner-double $kfem run --mesh mesh4 --mapping auto --no-solve --report $out/tuner-double/report.json
step tuner-float $kfem run --mesh mesh4 --mapping auto --no-solve --scalar float --report $out/tuner-float/report.json
rm -f $out/tuner-*/*.vtu; save
