// The operator of block storage (solver.hpp's contract): y = A x for A in BSR (sparsity/bsr.hpp),
// blocks on the node graph, C DOFs per node; both members run on Exec's default instance.
#pragma once
#include <Kokkos_Core.hpp>
#include <stdexcept>
#include <string>

#include "kfem/solve/block_jacobi.hpp"
#include "kfem/sparsity/bsr.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem {
template <class Exec, class S>
class BsrOperator {
 public:
  using Mem = typename Exec::memory_space;
  using Device = Kokkos::Device<Exec, Mem>;
  using Vec = Kokkos::View<S*, Device>;
  BsrOperator(const CsrGraph<Mem>& node, int components, const Kokkos::View<S*, Mem>& values)
      : node_(node), C_(components), values_(values) {
    if (C_ < 1 || C_ > bsr_most_components)
      throw std::invalid_argument("block storage takes 1 to " + std::to_string(bsr_most_components) +
                                  " DOFs per node, not " + std::to_string(C_));
  }
  void apply(const Vec& x, const Vec& y) const { bsr_spmv<Exec, S>(Exec(), node_, C_, values_, x, y); }
  // d(r) = 1 / A(r, r); 1 where the diagonal is 0, so the preconditioner stays finite.
  void inverse_diagonal(const Exec& exec, const Vec& d) const {
    bsr_inverse_diagonal<Exec, S>(exec, node_, C_, values_, d);
  }
  // d = the inverted C x C diagonal blocks (block_jacobi.hpp), C = 3.
  void inverse_block_diagonal(const Exec& exec, int C, const Vec& d) const {
    if (C != C_ || C != block_jacobi::most_components)
      throw std::invalid_argument("block Jacobi: C = 3, the storage's block size, only");
    block_jacobi::from_bsr<block_jacobi::most_components>(exec, node_, values_, d);
  }
  ordinal_t num_rows() const { return node_.num_rows * C_; }

 private:
  CsrGraph<Mem> node_;
  int C_;
  Kokkos::View<S*, Mem> values_;
};
}  // namespace kfem
