# issue 47, four H200s, call G (session 36): where CG's time per iteration goes on mesh4 strong,
# single reduction, host-staged halo: ncu's kernel durations for 20 iterations on one rank of four
# (rank 1: two neighbours) and on one GPU alone, against the same runs' wall time per iteration.
NP=$(nvidia-smi -L | wc -l)
cat >$out/cg20.yaml <<'DECK'
mesh: {size: mesh4}
assembly: {mapping: pairs, race: atomic}
solver: {tolerance: 1.0e-30, max_iterations: 20, single_reduction: true}
parallel: {halo: mpi, sums: mpi}
bench: {warmup: 1, repetitions: 1, verify_limit: 1000}
DECK
cat >$out/under-ncu.sh <<'WRAP'
#!/bin/bash
# rank $1 runs under ncu, the others plainly
# (exit 0: 20 capped iterations do not converge, and one rank's exit 1 would stop the others)
if [[ ${OMPI_COMM_WORLD_RANK:-0} == $1 ]]; then shift; ncu --clock-control none --kernel-name-base demangled --metrics gpu__time_duration.sum --csv --log-file $KFEM_NCU_LOG "$@"; else shift; "$@"; fi
exit 0
WRAP
chmod +x $out/under-ncu.sh
mpi plain-np$NP $NP $out/under-ncu.sh -1 $kfem run $out/cg20.yaml --backend cuda --report $out/plain-np$NP.json
export KFEM_NCU_LOG=$out/ncu-np$NP-rank1.csv
mpi ncu-np$NP $NP -x KFEM_NCU_LOG $out/under-ncu.sh 1 $kfem run $out/cg20.yaml --backend cuda
