// Prism's assemblers (elasticity), every mapping x race x target that serves it: the one
// translation unit that compiles their kernels (see the end of make_assembler.hpp).
#include "kfem/assembly/make_assembler.hpp"

namespace kfem {
#define KFEM_PRISM_ASSEMBLERS(Exec) KFEM_MAKE_ASSEMBLER_BOTH_SCALARS(, Exec, fe::Prism, fe::Elasticity)
KFEM_FOR_EACH_EXEC_SPACE(KFEM_PRISM_ASSEMBLERS)
}  // namespace kfem
