# Session 25, call 2 (machine still warm from call 1, builds kept): Nsight Compute of gemm's matrix-
# unit kernel at p = 7 (first launch, natural clocks), new (change.patch) and old (main), with SASS-level
# stall samples; SASS of both.
set -u
W=/tmp/s25-2; rm -rf $W; mkdir -p $W $OUT
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-2.tgz -C $W . ; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export PATH=$PATH:/usr/local/cuda/bin
export LD_LIBRARY_PATH=$PWD/.gpu-pack/sysroot/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib
export KFEM_PLOT=/nonexistent
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for v in ${VARIANTS:-new old}; do
  cuobjdump -sass build/dev-$v/kfem 2>/dev/null | awk '/Function : /{p = /gemm_mma/} p' > $W/sass-$v.txt; wc -l $W/sass-$v.txt
  timeout 200 $NCU --clock-control none --set full --import-source no --kernel-name-base demangled --kernel-name regex:gemm_mma::Kernel --launch-count 1 -o $W/ncu-$v \
    build/dev-$v/kfem bench inputs/banas.yaml --mapping gemm --scalar double --order 7 --warmup 0 --repetitions 1 \
    --out $W/bench-$v > $W/ncu-$v.log 2>&1; echo "ncu $v rc=$?"; el
  $NCU -i $W/ncu-$v.ncu-rep --page details --csv > $W/ncu-$v.csv 2>&1
  $NCU -i $W/ncu-$v.ncu-rep --page source --csv --print-source sass > $W/ncu-src-$v.csv 2>&1
  grep -E '"Duration"|"Registers Per Thread"|"Achieved Occupancy"|"Issue Slots Busy"|L1/TEX Hit Rate|"Executed Instructions"' $W/ncu-$v.csv | cut -c1-200 | head -12
  save
done; el
