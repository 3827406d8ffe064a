# issue 43 step 2 (2e04698, the point paths in src/kfem/pipeline): the new build's CUDA tests
build test_pipeline test_assembly test_solve test_problems
tests pipeline test_pipeline
tests assembly test_assembly
tests solve test_solve
tests problems test_problems
