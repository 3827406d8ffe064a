// The operator of block storage (solver.hpp's contract): y = A x for A in BSR (sparsity/bsr.hpp),
// blocks on the node graph, C DOFs per node; its members run on Exec's default instance. apply()
// runs kfem's block SpMV (bsr_spmv's automatic kernel) or Kokkos Kernels' BsrMatrix SpMV on the same
// arrays (the same block layout: no copy), whichever the caller asks for. Lower block storage
// (`lower`: blocks on the node graph's lower triangle) runs kfem's bsr_symmetric_spmv; Kokkos
// Kernels' BsrMatrix stores every block, so it takes full storage only.
#pragma once
#include <KokkosSparse_BsrMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#include <Kokkos_Core.hpp>
#include <stdexcept>
#include <string>

#include "kfem/core/exec_spaces.hpp"
#include "kfem/solve/block_jacobi.hpp"
#include "kfem/sparsity/bsr.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem {
// Whose block SpMV BsrOperator::apply runs. automatic: kfem's on host backends, Kokkos Kernels'
// BsrMatrix on devices, whichever of the two the benches (spmv, spmv_kokkos_kernels) measure faster
// on that kind of backend; lower block storage always runs kfem's (Kokkos Kernels has no symmetric one).
enum class BsrApply { automatic, kfem, kokkos_kernels };

template <class Exec, class S>
class BsrOperator {
 public:
  using Mem = typename Exec::memory_space;
  using Device = Kokkos::Device<Exec, Mem>;
  using Vec = Kokkos::View<S*, Device>;
  BsrOperator(const CsrGraph<Mem>& node, int components, const Kokkos::View<S*, Mem>& values,
              BsrApply how = BsrApply::automatic, bool lower = false)
      : node_(node), C_(components), values_(values), how_(resolve(how, lower)), lower_(lower) {
    if (C_ < 1 || C_ > bsr_most_components)
      throw std::invalid_argument("block storage takes 1 to " + std::to_string(bsr_most_components) +
                                  " DOFs per node, not " + std::to_string(C_));
    if (lower_ && how_ == BsrApply::kokkos_kernels)
      throw std::invalid_argument("Kokkos Kernels' BsrMatrix stores every block: no lower block storage");
    if (how_ == BsrApply::kokkos_kernels)
      mat_ = Matrix("kfem::bsr", node.num_rows, node.num_rows, values.extent(0), values, node.row_map,
                    node.cols, C_);
  }
  void apply(const Vec& x, const Vec& y) const {
    if (how_ == BsrApply::kokkos_kernels)
      KokkosSparse::spmv(Exec(), "N", S(1), mat_, x, S(0), y);
    else if (lower_)
      bsr_symmetric_spmv<Exec, S>(Exec(), node_, C_, values_, x, y);
    else
      bsr_spmv<Exec, S>(Exec(), node_, C_, values_, x, y);
  }
  // d(r) = 1 / A(r, r); 1 where the diagonal is 0, so the preconditioner stays finite.
  void inverse_diagonal(const Exec& exec, const Vec& d) const {
    bsr_inverse_diagonal<Exec, S>(exec, node_, C_, values_, d);
  }
  // d = the inverted C x C diagonal blocks (block_jacobi.hpp), C = 3.
  void inverse_block_diagonal(const Exec& exec, int C, const Vec& d) const {
    if (C != C_ || C != block_jacobi::most_components)
      throw std::invalid_argument("block Jacobi: C = 3, the storage's block size, only");
    block_jacobi::from_bsr<block_jacobi::most_components>(exec, node_, values_, d, lower_);
  }
  ordinal_t num_rows() const { return node_.num_rows * C_; }
  // Every entry on the host, in double (solver amg, amg.hpp): the blocks expanded row by row (a
  // lower storage's diagonal block up to the diagonal), then mirrored for lower storage.
  HostCsr<double> host_matrix() const {
    const auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), node_.row_map);
    const auto cols = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), node_.cols);
    const auto vals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values_);
    const std::size_t most = vals.extent(0);
    bsr_detail::AppendEntry<S> append{vals, Kokkos::View<ordinal_t*, Kokkos::HostSpace>("cols", most),
                                      Kokkos::View<double*, Kokkos::HostSpace>("vals", most), nullptr};
    offset_t next = 0;
    append.next = &next;
    HostCsr<double> A;
    A.num_rows = num_rows();
    A.row_map.push_back(0);
    for (ordinal_t r = 0; r < A.num_rows; ++r) {
      bsr_detail::for_each_in_dof_row(rows, cols, C_, lower_, r, append);
      A.row_map.push_back(next);
    }
    A.cols.assign(append.cols.data(), append.cols.data() + next);
    A.vals.assign(append.vals.data(), append.vals.data() + next);
    return full_symmetric(A, lower_);
  }

 private:
  static BsrApply resolve(BsrApply how, bool lower) {
    if (how != BsrApply::automatic) return how;
    return on_host<Exec> || lower ? BsrApply::kfem : BsrApply::kokkos_kernels;
  }
  using Matrix = KokkosSparse::Experimental::BsrMatrix<S, ordinal_t, Device, void, offset_t>;
  CsrGraph<Mem> node_;
  int C_;
  Kokkos::View<S*, Mem> values_;
  BsrApply how_;
  bool lower_;
  Matrix mat_;  // kokkos_kernels: a view of node_ and values_
};
}  // namespace kfem
