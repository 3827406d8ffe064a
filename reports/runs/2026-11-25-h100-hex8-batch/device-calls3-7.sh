# Session 18, calls 3-7: one-line commands on the warm H100 of calls 1-2 (binaries /tmp/bn = working
# tree, /tmp/bo = main 6c083e0, both built in call 1), as they were run; outputs in call3-7/.
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib KFEM_PLOT=/nonexistent
# call 3: the prism typed tests on the CUDA space
timeout 60 /tmp/bn/tests/test_assembly --gtest_filter='PrismIntegration*' > $OUT/test_prism_cuda.txt 2>&1
# call 4: pairs x atomic, mesh4 double, new/old, unverified (Equivalence covers correctness)
printf 'mesh: {size: mesh4}\nassembly: {mapping: pairs, race: atomic, scalar: double}\nbench: {warmup: 1, repetitions: 5, verify_limit: 0}\n' > /tmp/a.yaml
for v in n o; do /tmp/b$v/kfem bench /tmp/a.yaml --out /tmp/a$v > $OUT/pairs-atomic-$v.txt 2>&1; done
# call 5: pairs x colored new/old/new/old, then batch x atomic and x colored on the GPU (same deck form)
for r in 1 2; do for v in n o; do /tmp/b$v/kfem bench /tmp/pairscolored.yaml --out /tmp/c$v$r > $OUT/pairs-colored-$v$r.txt 2>&1; done; done
for m in batchatomic batchcolored; do /tmp/bn/kfem bench /tmp/$m.yaml --out /tmp/$m > $OUT/$m-gpu.txt 2>&1; done
# call 6: banas gemm double p = 6, new/old (files in reports/runs/2026-11-25-h200-gemm-m16n8k4/call4-h100)
for v in n o; do /tmp/b$v/kfem bench inputs/banas.yaml --order 6 --mapping gemm --scalar double --warmup 1 --repetitions 3 --out /tmp/g6$v > $OUT/gemm-p6-$v.txt 2>&1; done
