# Call 4: the CUDA suite again, with more tests at once, within the call.
STEP_TIMEOUT=400 step ctest2 bash -c "cd $bdir && ctest --timeout 150 -j 8 -E 'BlockJacobiOnEveryAssembledStorage|Hex8ThroughAcooAndEbe|BenchSolvesEveryPoint'"
STEP_TIMEOUT=30 step failed bash -c "cat $bdir/Testing/Temporary/LastTestsFailed.log"
