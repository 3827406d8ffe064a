# Call 3: hex8 round 2; prisms gemm p = 3 and 7 (banas deck, verified); a-COO on 2.5e6 triangles
# (capacitor:156250 made with Gmsh on the development machine, refined twice), no solve. main, then this tree.
r=2; source "$CARRY/hex8-ab.sh"
for p in 3 7; do
  for who in main k4; do
    bin=$kfem; [[ $who == main ]] && bin=$base
    step $who-gemm-p$p "$bin" bench "$here/inputs/banas.yaml" --order $p --mapping gemm --scalar double --scalar float \
      --out "$out/$who-gemm-p$p"
  done
done
xz -dc "$CARRY"/meshes/capacitor-156250.msh.xz >/tmp/capacitor-156250.msh
printf "problem: electrostatics\nmaterial: {permittivity: 1.0}\nbc:\n  dirichlet: {top_plate: 48.0, bottom_plate: 0.0}\nassembly: {mapping: thread, race: acoo, scalar: [double, float]}\nbench: {warmup: 2, repetitions: 9, solve: false}\n" >/tmp/acoo.yaml
for who in main k4; do
  bin=$kfem; [[ $who == main ]] && bin=$base
  step $who-acoo "$bin" bench /tmp/acoo.yaml --mesh /tmp/capacitor-156250.msh --refine 2 --out "$out/$who-acoo"
done
rm -f "$out"/*/*.vtu "$out"/*/*.mtx
