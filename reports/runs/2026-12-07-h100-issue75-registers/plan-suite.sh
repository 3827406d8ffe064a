# The CUDA test suite of this tree (Kokkos 4.6.01): every target, then ctest.
STEP_TIMEOUT=560 step build-tests cmake --build "$bdir" -j "$(nproc)" -- -k 0
STEP_TIMEOUT=560 step ctest bash -c "cd $bdir && ctest --output-on-failure --timeout 120 -j 4"
