# Session 27, call 1: kfem of the working tree with Kokkos 3.4 patched for shared memory beyond
# 48 KB (cmake/patches/kokkos-3.4.01-hopper-shmem-opt-in.patch) and the EXPERIMENT switch of
# tile-env.patch (KFEM_BOX_TILE), built on the development VM and carried as in session 26's call 7:
# box-owner tiles 3 / 5 / 7 against pairs x atomic on mesh4, double and float; ncu of tiles 3 and 7.
set -u
W=/tmp/s27-1; rm -rf $W; mkdir -p $W
start=$(date +%s); el() { echo "elapsed $(( $(date +%s) - start )) s"; }
save() { tar czf $OUT/results-1.tgz -C $W . ; }
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
# Default tile (7 with the opt-in) verified against the oracle, with pairs x atomic beside it.
B main 3000000 KFEM_X=0 --mapping pairs --mapping box-owner --race atomic --race none --scalar double --scalar float
B t3 0 KFEM_BOX_TILE=3 --mapping box-owner --race none --scalar double --scalar float
B t5 0 KFEM_BOX_TILE=5 --mapping box-owner --race none --scalar double --scalar float
B t7p64 0 "KFEM_BOX_TILE=7 KFEM_BOX_PLANES=64" --mapping box-owner --race none --scalar double
B t7p16 0 "KFEM_BOX_TILE=7 KFEM_BOX_PLANES=16" --mapping box-owner --race none --scalar double
printf 'mesh: {size: mesh4}\nassembly: {mapping: [box-owner], race: none, scalar: [double]}\nbench: {warmup: 0, repetitions: 1, verify_limit: 0}\n' > /tmp/ncu.yaml
M=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__shared_mem_per_block_dynamic,launch__block_size,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum
for s in barrier long_scoreboard short_scoreboard mio_throttle wait math_pipe_throttle not_selected; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
for t in 3 7; do
  timeout 120 env KFEM_BOX_TILE=$t ncu --clock-control none --kernel-name-base demangled --kernel-name regex:'Hex8BoxOwner::launch' --launch-count 1 --csv --metrics $M \
    $K bench /tmp/ncu.yaml --out /tmp/ncu > $W/ncu-t$t.csv 2> $W/ncu-t$t.err; echo "ncu t$t rc=$?"
  awk -F'","' '{print $13, $15}' $W/ncu-t$t.csv | grep -E "duration|inst_executed.sum|issue_active|warps_active|registers|dynamic|stalled_(wait|barrier|long)" | paste -sd ' '; el; save
done
