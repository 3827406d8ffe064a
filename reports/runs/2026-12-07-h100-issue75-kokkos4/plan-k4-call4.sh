# Call 4 (the a-COO hang, smaller): capacitor:156250 unrefined, double, 3 repetitions; this tree under a
# 45 s limit, then main.
step k4-acoo-r0 timeout 45 "$kfem" bench /tmp/acoo.yaml --mesh /tmp/capacitor-156250.msh --refine 0 --scalar double --repetitions 3 --warmup 1 --out "$out/k4-acoo-r0"
step main-acoo-r0 "$base" bench /tmp/acoo.yaml --mesh /tmp/capacitor-156250.msh --refine 0 --scalar double --repetitions 3 --warmup 1 --out "$out/main-acoo-r0"
