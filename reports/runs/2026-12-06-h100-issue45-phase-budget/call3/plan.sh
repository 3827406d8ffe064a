# Issue 45, call 3: rounds 2 and 3 of call 2's mesh4 times (its build, carried over on the warm machine)
bench tbox-float-2 --mapping box-owner --race none --scalar float
bench tbox-double-2 --mapping box-owner --race none --scalar double
bench tsymbox-float-2 --mapping symbox-owner --race none --scalar float
bench tsymbox-double-2 --mapping symbox-owner --race none --scalar double
bench tpairs-float-2 --mapping pairs --race atomic --scalar float
bench tmma-double-2 --mapping pairs-mma --race atomic --scalar double
bench tbox-float-3 --mapping box-owner --race none --scalar float
bench tbox-double-3 --mapping box-owner --race none --scalar double
bench tsymbox-float-3 --mapping symbox-owner --race none --scalar float
bench tsymbox-double-3 --mapping symbox-owner --race none --scalar double
bench tpairs-float-3 --mapping pairs --race atomic --scalar float
bench tmma-double-3 --mapping pairs-mma --race atomic --scalar double
