// Moved: the cantilever conditions live in problems/cantilever.hpp, apply_dirichlet in
// problems/dirichlet.hpp. Kept so existing includes compile.
#pragma once
#include "kfem/problems/cantilever.hpp"
#include "kfem/problems/dirichlet.hpp"
