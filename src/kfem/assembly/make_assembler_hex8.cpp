// Hex8's assemblers (elasticity), every mapping x race x target that serves it: the one
// translation unit that compiles their kernels (see the end of make_assembler.hpp).
#include "kfem/assembly/make_assembler.hpp"

namespace kfem {
#define KFEM_HEX8_ASSEMBLERS(Exec) KFEM_MAKE_ASSEMBLER_BOTH_SCALARS(, Exec, fe::Hex8, fe::Elasticity)
KFEM_FOR_EACH_EXEC_SPACE(KFEM_HEX8_ASSEMBLERS)
}  // namespace kfem
