# Call 5: ncu of box-owner float (registers, occupancy) and pairs float, the two points slower than 3.4.
STEP_TIMEOUT=90 step ncu-box-float ncu --clock-control none --kernel-name-base demangled \
  --kernel-name "regex:Hex8BoxOwner" --launch-skip 1 --launch-count 1 --section LaunchStats --section Occupancy \
  --section SpeedOfLight "$kfem" bench "$deck" --mapping box-owner --race none --scalar float --repetitions 1 \
  --warmup 1 --out "$out/ncu-box-float"
STEP_TIMEOUT=60 step ncu-pairs-float ncu --clock-control none --kernel-name-base demangled \
  --kernel-name "regex:Pairs" --launch-skip 1 --launch-count 1 --section LaunchStats --section Occupancy \
  --section SpeedOfLight "$kfem" bench "$deck" --mapping pairs --race atomic --scalar float --repetitions 1 \
  --warmup 1 --out "$out/ncu-pairs-float"
