// The CSR solver's one instantiation per enabled space and scalar (cg.hpp).
#include "kfem/solve/cg.hpp"

namespace kfem {
#define KFEM_CG_DEFINITIONS(Exec) KFEM_CG(, Exec)
KFEM_FOR_EACH_EXEC_SPACE(KFEM_CG_DEFINITIONS)
}  // namespace kfem
