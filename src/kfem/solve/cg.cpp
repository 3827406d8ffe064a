// The CSR solve's one instantiation per enabled space and scalar (solver.hpp).
#include "kfem/solve/solver.hpp"

namespace kfem {
#define KFEM_CSR_SOLVE_DEFINITIONS(Exec) KFEM_CSR_SOLVE(, Exec)
KFEM_FOR_EACH_EXEC_SPACE(KFEM_CSR_SOLVE_DEFINITIONS)
}  // namespace kfem
