# Session 27, call 2: as call 1, with tiles of x by y node columns (KFEM_BOX_TILE=XxY) and a
# 288 x 2 launch bound (KFEM_BOX_LB=1: two teams of 9 warps per SM for tile 5 x 5): mesh4,
# box-owner x none against pairs x atomic, double and float; ncu of 7 x 3 and 5 x 5 bounded.
set -u
W=/tmp/s27-2; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-2.tgz -C $W . ; }
tar xJf build/carrypack/carry.tar.xz -C build
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $W/device.txt
export LD_LIBRARY_PATH=$PWD/build/carry/lib:/usr/local/cuda/targets/x86_64-linux/lib KFEM_PLOT=/nonexistent
K=build/carry/kfem; ldd $K | grep "not found"
B() { # name verify_limit "ENV=.." args...
  local name=$1 v=$2 envs=$3; shift 3
  printf "mesh: {sizes: [mesh4]}\nbench: {warmup: 2, repetitions: 9, verify_limit: $v}\n" > /tmp/$name.yaml
  timeout 150 env $envs $K bench /tmp/$name.yaml "$@" --out $W/$name > $W/$name.txt 2>&1; echo "$name rc=$?"
  grep -E "^mesh4" $W/$name.txt | awk '{print $2, $3, $5, $NF}' | paste -sd ' '; el; save
}
B t7x3 3000000 KFEM_BOX_TILE=7x3 --mapping pairs --mapping box-owner --race atomic --race none --scalar double --scalar float
B t3x3 0 KFEM_BOX_TILE=3x3 --mapping box-owner --race none --scalar double --scalar float
B t3x7 0 KFEM_BOX_TILE=3x7 --mapping box-owner --race none --scalar double
B t5x3 0 KFEM_BOX_TILE=5x3 --mapping box-owner --race none --scalar double
B t5x5lb 3000000 "KFEM_BOX_TILE=5x5 KFEM_BOX_LB=1" --mapping box-owner --race none --scalar double --scalar float
B t7x3p64 0 "KFEM_BOX_TILE=7x3 KFEM_BOX_PLANES=64" --mapping box-owner --race none --scalar double
printf 'mesh: {size: mesh4}\nassembly: {mapping: [box-owner], race: none, scalar: [double]}\nbench: {warmup: 0, repetitions: 1, verify_limit: 0}\n' > /tmp/ncu.yaml
M=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__shared_mem_per_block_dynamic,launch__block_size,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum
for s in barrier long_scoreboard short_scoreboard mio_throttle wait math_pipe_throttle not_selected; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
for v in "7x3 KFEM_X=0" "5x5 KFEM_BOX_LB=1"; do set -- $v
  timeout 120 env KFEM_BOX_TILE=$1 $2 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:'Hex8BoxOwner::launch' --launch-count 1 --csv --metrics $M \
    $K bench /tmp/ncu.yaml --out /tmp/ncu > $W/ncu-t$1.csv 2> $W/ncu-t$1.err; echo "ncu t$1 rc=$?"
  awk -F'","' '{print $13, $15}' $W/ncu-t$1.csv | grep -E "duration|inst_executed.sum|issue_active|warps_active|registers|dynamic|local|stalled_(wait|barrier|long|math)" | paste -sd ' '; el; save
done
