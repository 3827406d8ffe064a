# issue 45 groundwork on one H200, session 35 call 4: ncu's instruction statistics of the hex8 kernels
# (one launch each, mesh2, double), raw page, for the instruction budget per element.
k="ncu --clock-control none --kernel-name-base demangled --launch-count 1 --section SpeedOfLight --section InstructionStats --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats --page raw --csv"
for m in pairs pairs-mma sympairs; do
  step ncu-$m $k --kernel-name regex:"Hex8Pairs" $kfem run --mesh mesh2 --mapping $m --race atomic --no-solve --backend cuda
done
step ncu-box-owner $k --kernel-name regex:"Hex8BoxOwner" $kfem run --mesh mesh2 --mapping box-owner --race none --no-solve --backend cuda
