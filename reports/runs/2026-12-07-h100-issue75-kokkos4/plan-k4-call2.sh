# Call 2: the CUDA test suite of this tree (Kokkos 4.6.01): build every target, then ctest.
step build-tests cmake --build "$bdir" -j "$(nproc)"
STEP_TIMEOUT=420 step ctest bash -c "cd $bdir && ctest --output-on-failure --timeout 240"
