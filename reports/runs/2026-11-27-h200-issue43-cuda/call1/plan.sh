# Session 28, call 1: build kfem and the CUDA test binaries of main after issue 43's steps (names from
# the registries, problems by name, layers; no kernel body changed).
build test_assembly test_solve test_problems
