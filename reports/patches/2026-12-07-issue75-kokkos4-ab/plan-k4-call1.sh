# Call 1: device-run has built both drivers (this tree, and main under build/carry/base with its own
# Kokkos 3.4.01); hex8 round 1.
r=1; source "$CARRY/hex8-ab.sh"
