# the new build's CUDA tests, then old main (63c6338, carried in build/old-main): the driver alone, in /tmp/kfem-old
tests assembly test_assembly
tests pipeline test_pipeline
step build-old bash -c 'prefix=$(scripts/bootstrap-kokkos cuda | tail -n 1) && cmake -S build/old-main -B /tmp/kfem-old -G Ninja -DCMAKE_BUILD_TYPE=Release -DKFEM_ENABLE_TESTS=OFF -DCMAKE_CXX_COMPILER=$prefix/bin/nvcc_wrapper -DKokkos_ROOT=$prefix -DKokkosKernels_ROOT=$prefix $(scripts/offline-cmake-args $PWD/.gpu-pack) >/dev/null && cmake --build /tmp/kfem-old -j 16 --target kfem 2>&1 | tail -n 3'
