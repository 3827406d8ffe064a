# Issue 75: box-owner with a launch bound of 512 threads x 1 block (at most 128 registers) -- "new",
# this tree -- against main b70b66e ("k4", unbounded); both built on the development machine for
# sm_90 (Kokkos 4.6.01) and carried. ncu first (registers, occupancy), then the A/B, then a-COO
# (its GPU refusal taken out of both carried builds) on the meshes where it stopped.
xz -dc "$CARRY/kfem-k4.xz" >/tmp/kfem-k4 && chmod +x /tmp/kfem-k4
k4=/tmp/kfem-k4
ncu_box() {  # WHO BIN SCALAR
  step ncu-$1-$3 ncu --clock-control none --kernel-name-base demangled --kernel-name "regex:Hex8BoxOwner" \
    --launch-skip 1 --launch-count 1 --section LaunchStats --section Occupancy --section SpeedOfLight \
    "$2" bench "$deck" --mapping box-owner --race none --scalar $3 --repetitions 1 --warmup 1 --out "$out/ncu-$1-$3"
}
ncu_box new "$kfem" double
ncu_box new "$kfem" float
ncu_box k4 "$k4" float
for r in 1 2; do
  for s in double float; do
    for who in k4 new; do
      bin=$kfem; [[ $who == k4 ]] && bin=$k4
      step $who-box-$s-$r "$bin" bench "$deck" --mapping box-owner --mapping symbox-owner --race none \
        --scalar $s --out "$out/$who-box-$s-$r"
    done
  done
done
printf "problem: electrostatics\nbc: {dirichlet: {xmin: 0.0, ymax: 1.0}}\n" >/tmp/tri.yaml
STEP_TIMEOUT=40 step acoo-tri "$kfem" run /tmp/tri.yaml --mesh tri:400x200 --race acoo --no-solve --repetitions 1 \
  --warmup 0 --report "$out/acoo-tri.json"
xz -dc "$CARRY/capacitor-156250.msh.xz" >/tmp/capacitor.msh
printf "problem: electrostatics\nbc: {dirichlet: {top_plate: 48.0, bottom_plate: 0.0}}\n" >/tmp/cap.yaml
STEP_TIMEOUT=40 step acoo-cap "$kfem" run /tmp/cap.yaml --mesh /tmp/capacitor.msh --race acoo --no-solve \
  --repetitions 1 --warmup 0 --report "$out/acoo-cap.json"
STEP_TIMEOUT=40 step acoo-cap-k4 "$k4" run /tmp/cap.yaml --mesh /tmp/capacitor.msh --race acoo --no-solve \
  --repetitions 1 --warmup 0 --report "$out/acoo-cap-k4.json"
