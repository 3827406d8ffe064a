# Call 1 (the plan of every call: reports/runs/2026-12-07-h100-issue75-kokkos4/README.md): device-run has built both drivers (this tree, and main under build/carry/base with its own
# Kokkos 3.4.01); hex8 round 1.
r=1; source "$CARRY/hex8-ab.sh"
