build test_pipeline
t=$(find $bdir/tests -name test_pipeline -type f | head -n 1)
for f in 'PipelineSetup/Serial.*' 'PipelineSetup/Cuda.*' 'OracleProducts.*' 'Verification/Serial.*' 'Verification/Cuda.*'; do
  step "dbg-$(echo ${f%%.*} | tr / -)" bash -c "stdbuf -oL $t --gtest_filter='$f' 2>&1 | tail -n 25"
done
command -v gdb >/dev/null && step gdb gdb -batch -ex run -ex bt --args $t --gtest_filter='PipelineSetup*:Verification*'
