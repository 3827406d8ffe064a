// The element-by-element solve's one instantiation per enabled space and scalar (ebe_cg.hpp).
#include "kfem/solve/ebe_cg.hpp"

namespace kfem {
#define KFEM_EBE_SOLVE_DEFINITIONS(Exec) KFEM_EBE_SOLVE(, Exec)
KFEM_FOR_EACH_EXEC_SPACE(KFEM_EBE_SOLVE_DEFINITIONS)
}  // namespace kfem
