# Call 3 (mesh4, 2 warm-ups, 9 runs, every point verified first): ncu of box-owner (registers,
# occupancy under LaunchBounds<512,1>), the issue 75 speed points, BSR against CSR (assembly, SpMV,
# CG with Jacobi and block Jacobi), scripts/baseline-cupy against kfem on the same meshes.
STEP_TIMEOUT=120 step ncu-box-double ncu --clock-control none --kernel-name-base demangled \
  --kernel-name "regex:Hex8BoxOwner" --launch-skip 1 --launch-count 1 --section LaunchStats --section Occupancy \
  --section SpeedOfLight "$kfem" bench "$deck" --mapping box-owner --race none --scalar double --repetitions 1 \
  --warmup 1 --out "$out/ncu-box-double"
for s in double float; do
  bench box-$s --mapping box-owner --mapping symbox-owner --race none --scalar $s
  bench pairs-$s --mapping pairs --mapping sympairs --race atomic --scalar $s
done
bench bsr-double --mapping pairs --race atomic --storage csr --storage bsr --scalar double
printf "mesh: {sizes: [mesh1]}\nsolver: {tolerance: 1e-8}\n" >/tmp/solve1.yaml
printf "mesh: {sizes: [mesh4]}\nsolver: {max_iterations: 300, tolerance: 1e-14}\n" >/tmp/solve4.yaml
for m in 1; do
  for st in csr bsr; do
    for pc in jacobi block-jacobi; do
      STEP_TIMEOUT=120 step solve$m-$st-$pc "$kfem" run /tmp/solve$m.yaml --mapping pairs --race atomic \
        --storage $st --preconditioner $pc --repetitions 3 --warmup 1 --report "$out/solve$m-$st-$pc.json"
    done
  done
done
printf "mesh: {sizes: [mesh2, mesh3]}\nbench: {warmup: 2, repetitions: 9, verify_limit: 3000000}\n" >/tmp/m23.yaml
STEP_TIMEOUT=200 step kfem-m23 "$kfem" bench /tmp/m23.yaml --mapping box-owner --mapping pairs --race default \
  --out "$out/kfem-m23"
for m in mesh2 mesh3; do
  STEP_TIMEOUT=150 step cupy-$m python3 scripts/baseline-cupy --mesh $m --check-mesh 16x4x4 \
    --check-mtx "$CARRY/K-16x4x4.mtx" --out "$out/cupy-$m.json"
done
