# Session 28, call 2 (same warm machine): the CUDA typed tests, then one verified mesh4 bench.
tests assembly test_assembly
tests solve test_solve
tests problems test_problems
bench mesh4 --mapping pairs --mapping box-owner --race atomic --race none --scalar double --scalar float
