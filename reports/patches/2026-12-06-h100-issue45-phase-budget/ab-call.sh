#!/usr/bin/env bash
# Issue 45 call 4 (the command run on the device): main (82bd077, build/carry/base) and the working tree
# (box-owner's per-team cell table) built side by side with the same flags (-lineinfo), then
# build/carry/plan-ab.sh. Before the call, on the development machine, with the patch applied:
#   mkdir -p build/carry/base && git archive 82bd077 CMakeLists.txt CMakePresets.json cmake src miniapp \
#     tests inputs scripts | tar -x -C build/carry/base
#   cp reports/patches/2026-12-06-h100-issue45-phase-budget/{ab-call.sh,plan-ab.sh} build/carry/
#   scripts/pack-gpu
# then the device tool: command "bash build/carry/ab-call.sh", carry ["build/carry", ".gpu-pack"].
here=$PWD
export PATH=$PATH:/usr/local/cuda/bin KFEM_CACHE=/tmp/kfem-cache KFEM_KOKKOS_SRC_PACK=$here/.gpu-pack/kokkos-src.tar.gz
export LD_LIBRARY_PATH=$here/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
prefix=$(scripts/bootstrap-kokkos cuda 2>/tmp/kokkos.log | tail -n 1)
rm -f /tmp/base-rc
( export CXXFLAGS=-lineinfo KFEM_GIT_REVISION=82bd077b11dd
  cmake -S build/carry/base -B /tmp/kfem-base -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" -DKokkos_ROOT="$prefix" -DKokkosKernels_ROOT="$prefix" \
    $(scripts/offline-cmake-args "$here/.gpu-pack") >/tmp/base-configure.log 2>&1 &&
  cmake --build /tmp/kfem-base -j 8 --target kfem >/tmp/base-build.log 2>&1
  echo $? >/tmp/base-rc ) &
CXXFLAGS=-lineinfo STEP_TIMEOUT=90 scripts/device-run build/carry/plan-ab.sh
