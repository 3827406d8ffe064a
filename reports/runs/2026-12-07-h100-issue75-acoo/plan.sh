STEP_TIMEOUT=420 step build-ta cmake --build "$bdir" -j 16 --target test_assembly
# Window 1, call 2: the probe (if call 1 had no time), cuda-gdb on the hang, memcheck; then the benches.
t=$(find "$bdir/tests" -name test_assembly -type f | head -n 1)
[[ -f $out/probe.txt ]] || STEP_TIMEOUT=120 step probe "$t" --gtest_filter='AcooProbe/Cuda*'
f='Acoo/Cuda.Tri3OfCapacitorSizeMatchesGraphCsr:Acoo*Cuda*Tri3OfCapacitorSize*'
STEP_TIMEOUT=90 step acoo-gdb bash -c "\"$t\" --gtest_filter='$f' & p=\$!; sleep 30; cuda-gdb -p \$p -batch -ex 'info cuda kernels' -ex 'info cuda threads' -ex 'bt 12' -ex 'thread apply all bt 6' 2>&1 | head -n 200; kill -9 \$p"
STEP_TIMEOUT=120 step acoo-memcheck compute-sanitizer --tool memcheck "$t" --gtest_filter="AcooProbe/Cuda*"
for s in double float; do bench bsr-$s --mapping pairs --race atomic --storage csr --storage bsr --scalar $s; done
for s in double float; do bench box-$s --mapping box-owner --mapping symbox-owner --race none --scalar $s; done
