# Window 2, one call: kfem and test_acoo built on the development machine (CUDA sm_90, host code at -O0,
# the working tree of this session) and carried. 1. a-COO on CUDA: the assembler tests, the probe, the
# driver's a-COO on the capacitor (1.6e5 and 2.5e6 triangles). 2. block storage on mesh4 against the
# CSR kinds, both scalars: box-owner, symbox-owner, pairs, sympairs. 3. CG on mesh1: csr-lower vs bsr-lower.
xz -dc "$CARRY"/test_acoo.xz >/tmp/test_acoo && chmod +x /tmp/test_acoo
STEP_TIMEOUT=200 step acoo-tests /tmp/test_acoo --gtest_filter='Acoo/Cuda*:AcooProbe/Cuda*'
xz -dc "$CARRY"/capacitor-156250.msh.xz >/tmp/capacitor-156250.msh
printf "problem: electrostatics\nmaterial: {permittivity: 1.0}\nbc:\n  dirichlet: {top_plate: 48.0, bottom_plate: 0.0}\nassembly: {mapping: thread, race: acoo, scalar: [double, float]}\nbench: {warmup: 2, repetitions: 9, solve: false}\n" >/tmp/acoo.yaml
for r in 0 2; do STEP_TIMEOUT=90 step acoo-r$r "$kfem" bench /tmp/acoo.yaml --mesh /tmp/capacitor-156250.msh --refine $r --out "$out/acoo-r$r"; done
s2=(--scalar double --scalar float)
STEP_TIMEOUT=90 bench box "${s2[@]}" --mapping box-owner --race none --storage csr --storage bsr
STEP_TIMEOUT=90 bench symbox "${s2[@]}" --mapping symbox-owner --race none --storage csr-lower --storage bsr-lower
STEP_TIMEOUT=90 bench pairs "${s2[@]}" --mapping pairs --race atomic --storage csr --storage bsr
STEP_TIMEOUT=90 bench sympairs "${s2[@]}" --mapping sympairs --race atomic --storage csr-lower --storage bsr-lower
for st in csr-lower bsr-lower; do
  STEP_TIMEOUT=60 run cg-$st --mesh mesh1 --mapping sympairs --race atomic --storage $st --repetitions 1 --warmup 0
done
