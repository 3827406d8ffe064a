# issue 43 step cf45434: the new build's CUDA tests (the library set-up and model included)
build test_pipeline test_assembly test_solve test_problems
