# issue 44 on one H200, session 35 call 7: a host timeline of mesh4's set-up through libkfem_timeline.so
# (miniapp/timeline), kernels completed before the next step (CUDA_LAUNCH_BLOCKING=1), modules loaded eagerly.
export CUDA_MODULE_LOADING=EAGER CUDA_LAUNCH_BLOCKING=1 KOKKOS_PROFILE_LIBRARY=$PWD/build/carry/libkfem_timeline.so
step timeline-pairs $kfem run --mesh mesh4 --mapping pairs --race atomic --no-solve --backend cuda
step timeline-box-owner $kfem run --mesh mesh4 --mapping box-owner --race none --no-solve --backend cuda
step timeline-colored $kfem run --mesh mesh4 --mapping pairs --race colored --coloring device --no-solve --backend cuda
