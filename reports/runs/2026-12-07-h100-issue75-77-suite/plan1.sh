# Call 1: the CUDA build of this tree (kfem by device-run), then every test target, within the call.
left=$((575 - ($(date +%s) - start)))
STEP_TIMEOUT=$left step build-tests cmake --build "$bdir" -j "$(nproc)" -- -k 0
