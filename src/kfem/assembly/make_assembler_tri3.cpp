// Tri3's assemblers (electrostatics), every mapping x race x target that serves it: the one
// translation unit that compiles their kernels (see the end of make_assembler.hpp).
#include "kfem/assembly/make_assembler.hpp"

namespace kfem {
#define KFEM_TRI3_ASSEMBLERS(Exec) KFEM_MAKE_ASSEMBLER_BOTH_SCALARS(, Exec, fe::Tri3, fe::Electrostatics)
KFEM_FOR_EACH_EXEC_SPACE(KFEM_TRI3_ASSEMBLERS)
}  // namespace kfem
