# issue 43 (one assembly stack) + issue 44 (DOF graph by incidence and lanes): the new build's CUDA tests
build test_pipeline test_assembly test_sparsity test_solve
tests sparsity test_sparsity
tests assembly test_assembly
tests pipeline test_pipeline
