# Session 14, call 3 (H200): p = 7 of the four paper variants without and with --symmetric-blocks with
# their results.json (call 2's sweeps were cut by their timeouts during p = 7); then Nsight Compute on
# issue 14's missed targets: reg-nojac in float at p = 4 (the paper variants' best, 22.4% of the FP32
# peak against 25%), the same with symmetric blocks, and gemm in double at p = 7 (35.4 us per element
# against 10 us).
set -u
FINAL=$OUT; OUT=/tmp/o3; mkdir -p $OUT
start=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
mkdir -p build && tar xzf .gpu-pack/bin.tgz -C build
S=/tmp/ompi; mkdir -p $S && tar xzf .gpu-pack/ompi.tgz -C $S
export LD_LIBRARY_PATH=$PWD/.gpu-pack/lib:$S/usr/lib/x86_64-linux-gnu:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64
G=build/cuda-carry/kfem
B="--order 7 --mapping reg-jac --mapping reg-nojac --mapping shm-jac --mapping shm-nojac --scalar double --scalar float --warmup 1 --repetitions 2"
timeout 150 $G bench inputs/banas.yaml $B --out $OUT/p7-all > $OUT/p7-all.txt 2>&1; echo "p7 all rc=$? elapsed $(( $(date +%s) - start )) s"
timeout 120 $G bench inputs/banas.yaml $B --symmetric-blocks --out $OUT/p7-sym > $OUT/p7-sym.txt 2>&1; echo "p7 sym rc=$? elapsed $(( $(date +%s) - start )) s"
grep -h "^\[" $OUT/p7-*.txt | cut -c1-120
for d in p7-all p7-sym; do mkdir -p $FINAL/$d; cp $OUT/$d/results.json $FINAL/$d/ 2>/dev/null; done
printf 'bench: {stages: true, warmup: 0, repetitions: 1}\n' > /tmp/ncu.yaml
cat inputs/banas.yaml | sed 's/^bench:.*/bench: {stages: true, warmup: 0, repetitions: 1}/' > /tmp/banas-ncu.yaml
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__inst_executed_pipe_fp64.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,launch__registers_per_thread"
run_ncu() {  # name, regex, kfem bench args
  local name=$1 re=$2; shift 2
  timeout 75 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:"$re" --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section Occupancy \
    --metrics $M --csv --page details $G bench /tmp/banas-ncu.yaml "$@" --out $OUT/b-$name > $OUT/ncu-$name.csv 2> $OUT/ncu-$name.err
  echo "ncu $name rc=$? elapsed $(( $(date +%s) - start )) s"
}
run_ncu regnojac-float-p4 'BanasBlocks' --order 4 --mapping reg-nojac --scalar float
run_ncu regnojac-float-p4-sym 'BanasBlocks' --order 4 --mapping reg-nojac --scalar float --symmetric-blocks
run_ncu gemm-double-p7 'GemmBlocks' --order 7 --mapping gemm --scalar double
for f in $OUT/ncu-*.csv; do echo "== $f"; grep -E 'Duration|Warp Cycles Per Issued|Stall|Registers|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Memory Throughput|Block Limit|Issue Slots Busy|Executed Ipc|Pipe' $f | awk -F'","' '{print $(NF-3)" | "$(NF-2)" | "$NF}' | head -40; done
cp $OUT/*.csv $OUT/*.err $OUT/*.txt $FINAL/ 2>/dev/null
echo "done $(( $(date +%s) - start )) s"
