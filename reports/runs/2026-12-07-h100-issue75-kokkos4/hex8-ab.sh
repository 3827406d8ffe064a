# Issue 75's A/B, hex8 part: main (Kokkos 3.4.01, $base) against this tree (Kokkos 4.6.01, $kfem), mesh4,
# both scalars, one process per tree and scalar, alternated; every point verified before it is timed.
# Sourced by the call plans with $r set (round).
for s in double float; do  # round $r
  for who in main k4; do
    bin=$kfem; [[ $who == main ]] && bin=$base
    step $who-hex8-$s-$r "$bin" bench "$deck" --mapping box-owner --mapping symbox-owner --mapping pairs \
      --mapping sympairs --mapping element --race none --race atomic --scalar $s --out "$out/$who-hex8-$s-$r"
  done
done
