# Call 2: the rest of the build, then the CUDA suite (the issue 75 criterion).
STEP_TIMEOUT=200 step build-tests2 cmake --build "$bdir" -j "$(nproc)" -- -k 0
left=$((330 - ($(date +%s) - start)))
STEP_TIMEOUT=$left step ctest bash -c "cd $bdir && ctest --output-on-failure --timeout 150 -j 4"
