// The element-by-element solver's one instantiation per enabled space and scalar (ebe_cg.hpp).
#include "kfem/solve/ebe_cg.hpp"

namespace kfem {
#define KFEM_EBE_CG_DEFINITIONS(Exec) KFEM_EBE_CG(, Exec)
KFEM_FOR_EACH_EXEC_SPACE(KFEM_EBE_CG_DEFINITIONS)
}  // namespace kfem
