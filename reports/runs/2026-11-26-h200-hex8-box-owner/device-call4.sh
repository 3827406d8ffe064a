# Session 26, call 7: kfem of the landed tree (0144df9 = ecadd6b's code), built on the development
# VM (KFEM_CUDA_BUILD=build/cuda-carry scripts/build-cuda -DKFEM_WITH_GMSH=OFF), stripped into
# build/carry with the shared libraries ldd names beyond glibc and cudart (build/carry/lib), and
# carried as build/carrypack/carry.tar.xz (12 MB; the tree itself takes 40 of the 64 MiB):
# box-owner x none against pairs x atomic on meshes 1-4, double and float, all verified.
set -u
W=/tmp/s26-4; rm -rf $W; mkdir -p $W
save() { tar czf $OUT/results-7.tgz -C $W . ; }
tar xJf build/carrypack/carry.tar.xz -C build
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export LD_LIBRARY_PATH=$PWD/build/carry/lib:/usr/local/cuda/targets/x86_64-linux/lib
export KFEM_PLOT=/nonexistent
printf 'mesh: {sizes: [mesh1, mesh2, mesh3, mesh4]}\nassembly: {mapping: [pairs, box-owner], race: [atomic, none], scalar: [double, float]}\nbench: {warmup: 2, repetitions: 5, verify_limit: 3000000}\n' > /tmp/meshes.yaml
ldd build/carry/kfem | grep "not found"; timeout 240 build/carry/kfem bench /tmp/meshes.yaml --out $W/meshes > $W/meshes.txt 2>&1; echo "bench rc=$?"
grep -E "^mesh[0-9]" $W/meshes.txt; save
