// The P_p family's assemblers (elasticity on prisms and tetrahedra) in double, every mapping x race x
// target that serves it: one of the two translation units that compile their kernels, one per
// scalar, so that a parallel build runs the two halves of the library's longest compile side by
// side (see the end of make_assembler.hpp).
#include "kfem/assembly/make_assembler.hpp"

namespace kfem {
#define KFEM_LAGRANGE_ASSEMBLERS_DOUBLE(Exec) \
  KFEM_MAKE_ASSEMBLER(, Exec, fe::Lagrange, double, fe::Elasticity)
KFEM_FOR_EACH_EXEC_SPACE(KFEM_LAGRANGE_ASSEMBLERS_DOUBLE)
}  // namespace kfem
