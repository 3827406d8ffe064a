// Dirichlet conditions on an assembled CSR matrix, device side: rows and columns of the fixed DOFs
// become zero except the diagonal, so the system stays symmetric and each fixed DOF decouples.
// Works on any CSR storage of a symmetric matrix, full or its lower triangle
// (CgOptions::symmetric_storage): entry (r, c) is zeroed when r or c is fixed, whichever half holds it.
// Requires every fixed DOF's diagonal in the pattern.
#pragma once
#include <Kokkos_Core.hpp>

#include "kfem/core/types.hpp"
#include "kfem/solve/symmetric_spmv.hpp"
#include "kfem/sparsity/csr.hpp"

namespace kfem {
namespace dirichlet_detail {
// Kernels of header templates are named functors, not KOKKOS_LAMBDAs: the library and several
// tests instantiate them (core/fill.hpp; scripts/check-kernel-lambdas).
template <class Mem>
struct MarkFixed {
  Kokkos::View<unsigned char*, Mem> fixed;
  Kokkos::View<const ordinal_t*, Mem> dofs;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i) const { fixed(dofs(i)) = 1; }
};
template <class Mem, class S>
struct ZeroFixed {
  Kokkos::View<const unsigned char*, Mem> fixed;
  Kokkos::View<const offset_t*, Mem> row_map;
  Kokkos::View<const ordinal_t*, Mem> cols;
  Kokkos::View<S*, Mem> values, rhs;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const {
    const bool row_fixed = fixed(r);
    if (row_fixed) rhs(r) = S(0);
    for (offset_t k = row_map(r); k < row_map(r + 1); ++k) {
      const ordinal_t c = cols(k);
      if (row_fixed || fixed(c)) values(k) = (c == r) ? S(1) : S(0);
    }
  }
};
template <class Mem>
struct UpperRows {
  Kokkos::View<const offset_t*, Mem> row_map;
  Kokkos::View<const ordinal_t*, Mem> cols;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r, ordinal_t& count) const {
    if (row_map(r + 1) > row_map(r) && cols(row_map(r + 1) - 1) > r) ++count;
  }
};
}  // namespace dirichlet_detail

// Homogeneous conditions (kiran §5.1): a unit diagonal and rhs zero at the fixed DOFs, which solve
// to exactly 0 (their residual starts and stays 0, so the unit scale next to ~1e11 stiffness is
// harmless: Jacobi scaling removes it).
template <class Exec, class S>
void apply_dirichlet(const Exec& exec, const CsrGraph<typename Exec::memory_space>& A,
                     const Kokkos::View<S*, typename Exec::memory_space>& values,
                     const Kokkos::View<S*, typename Exec::memory_space>& rhs,
                     const Kokkos::View<const ordinal_t*, typename Exec::memory_space>& fixed_dofs) {
  using Mem = typename Exec::memory_space;
  using policy = Kokkos::RangePolicy<Exec>;
  // A byte mask makes "is column c fixed?" O(1) inside the row loop.
  Kokkos::View<unsigned char*, Mem> fixed("kfem::dirichlet_mask", A.num_rows);
  Kokkos::parallel_for("kfem::dirichlet_mark", policy(exec, 0, fixed_dofs.extent(0)),
                       dirichlet_detail::MarkFixed<Mem>{fixed, fixed_dofs});
  Kokkos::parallel_for("kfem::dirichlet_apply", policy(exec, 0, A.num_rows),
                       dirichlet_detail::ZeroFixed<Mem, S>{fixed, A.row_map, A.cols, values, rhs});
}

// Whether the pattern holds only its lower triangle: no row has a column above the diagonal
// (columns are sorted, so the last one of each row tells). A diagonal pattern counts as lower,
// which is harmless: then both storages are the same.
template <class Exec>
bool is_lower_storage(const Exec& exec, const CsrGraph<typename Exec::memory_space>& A) {
  using Mem = typename Exec::memory_space;
  ordinal_t upper = 0;  // rows with an entry above the diagonal
  Kokkos::parallel_reduce("kfem::is_lower_storage", Kokkos::RangePolicy<Exec>(exec, 0, A.num_rows),
                          dirichlet_detail::UpperRows<Mem>{A.row_map, A.cols}, upper);
  exec.fence();
  return upper == 0;
}

// Non-homogeneous conditions: DOF fixed_dofs(i) takes fixed_values(i). The known values move to
// the right-hand side (rhs(r) -= A(r, c) * value(c) for free r and fixed c, read before zeroing),
// rows and columns of the fixed DOFs are zeroed, and a fixed row keeps its diagonal d (1 where
// d <= 0) with rhs(r) = d * value: the equation still reads x(r) = value and the free part solves
// the lifted system. Keeping d rather than a unit diagonal keeps every row on the matrix's scale:
// with eps0 = 8.85e-12 in K (or E = 2e11), unit rows holding the values would dominate ||b|| and
// CG's relative-residual test would stop long before the free DOFs converge (seen: a capacitance
// 80% off). The storage (full or lower) is detected from the pattern; in lower storage A(r, c)
// with c > r sits in row c as A(c, r), so a fixed row scatters into the free rows it holds, with
// atomics (rounding then depends on the order). With all values 0 the result differs from the
// homogeneous overload's only on the fixed diagonal.
namespace dirichlet_detail {
// The two passes of the non-homogeneous conditions. As named functors, not KOKKOS_LAMBDAs, from the
// start: in CUDA builds nvcc's extended-lambda wrappers of this function template called a null
// pointer when run on Serial (seen on the H200 with nvcc 13; the Cuda instances ran fine).
template <class Mem, class S>
struct Mark {
  Kokkos::View<unsigned char*, Mem> fixed;
  Kokkos::View<S*, Mem> g;
  Kokkos::View<const ordinal_t*, Mem> dofs;
  Kokkos::View<const S*, Mem> values;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i) const {
    fixed(dofs(i)) = 1;
    g(dofs(i)) = values(i);
  }
};

// The entries of DOF row r of a pattern, in order: CSR (entry k is slot k) or blocks (BSR,
// sparsity/bsr.hpp: entry j of row C n + c is component j % C of node block j / C).
template <class Mem>
struct CsrRows {
  Kokkos::View<const offset_t*, Mem> row_map;
  Kokkos::View<const ordinal_t*, Mem> cols;
  KOKKOS_INLINE_FUNCTION offset_t begin(ordinal_t r) const { return row_map(r); }
  KOKKOS_INLINE_FUNCTION offset_t end(ordinal_t r) const { return row_map(r + 1); }
  KOKKOS_INLINE_FUNCTION ordinal_t col(ordinal_t, offset_t k) const { return cols(k); }
  KOKKOS_INLINE_FUNCTION offset_t slot(ordinal_t, offset_t k) const { return k; }
};
// Lower block storage (lower): the diagonal block is last in its node row, and DOF row C n + c holds
// its c + 1 entries on and left of the diagonal.
template <class Mem>
struct BlockRows {
  Kokkos::View<const offset_t*, Mem> node_rows;
  Kokkos::View<const ordinal_t*, Mem> node_cols;
  int C;
  bool lower;
  KOKKOS_INLINE_FUNCTION offset_t begin(ordinal_t) const { return 0; }
  KOKKOS_INLINE_FUNCTION offset_t end(ordinal_t r) const {
    return C * (node_rows(r / C + 1) - node_rows(r / C)) - (lower ? C - 1 - r % C : 0);
  }
  KOKKOS_INLINE_FUNCTION ordinal_t col(ordinal_t r, offset_t j) const {
    return C * node_cols(node_rows(r / C) + j / C) + ordinal_t(j % C);
  }
  KOKKOS_INLINE_FUNCTION offset_t slot(ordinal_t r, offset_t j) const {
    return ((node_rows(r / C) + j / C) * C + r % C) * C + j % C;
  }
};

template <class Mem, class S, class Rows = CsrRows<Mem>>
struct Lift {
  Rows rows;
  Kokkos::View<S*, Mem> values, rhs;
  Kokkos::View<const unsigned char*, Mem> fixed;
  Kokkos::View<const S*, Mem> g;
  bool lower;
  // Row r reads and zeroes only its own entries, so lifting and zeroing share one pass; rhs of a
  // free row may also receive scatters from fixed rows (lower storage only), hence the atomics.
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const {
    const bool row_fixed = fixed(r);
    S lift = S(0), diag = S(1);
    for (offset_t j = rows.begin(r); j < rows.end(r); ++j) {
      const ordinal_t c = rows.col(r, j);
      const offset_t k = rows.slot(r, j);
      if (c == r) {
        if (row_fixed && values(k) > S(0)) diag = values(k);
        if (row_fixed) values(k) = diag;
        continue;
      }
      const bool col_fixed = fixed(c);
      if (!row_fixed && col_fixed) lift += values(k) * g(c);
      if (lower && row_fixed && !col_fixed) Kokkos::atomic_add(&rhs(c), -values(k) * g(r));
      if (row_fixed || col_fixed) values(k) = S(0);
    }
    if (row_fixed)
      rhs(r) = diag * g(r);
    else if (lower)
      Kokkos::atomic_add(&rhs(r), -lift);
    else
      rhs(r) -= lift;
  }
};
// The mask of the fixed DOFs among `rows` and their prescribed values (0 on free DOFs), on exec.
template <class Mem, class S>
struct Marked {
  Kokkos::View<unsigned char*, Mem> fixed;
  Kokkos::View<S*, Mem> g;
};
template <class S, class Exec, class FixedValues>
Marked<typename Exec::memory_space, S> marked(
    const Exec& exec, ordinal_t rows,
    const Kokkos::View<const ordinal_t*, typename Exec::memory_space>& fixed_dofs,
    const FixedValues& fixed_values) {
  using Mem = typename Exec::memory_space;
  Marked<Mem, S> m{Kokkos::View<unsigned char*, Mem>("kfem::dirichlet_mask", rows),
                   Kokkos::View<S*, Mem>("kfem::dirichlet_values", rows)};
  Kokkos::parallel_for("kfem::dirichlet_mark_values",
                       Kokkos::RangePolicy<Exec>(exec, 0, fixed_dofs.extent(0)),
                       Mark<Mem, S>{m.fixed, m.g, fixed_dofs, fixed_values});
  return m;
}
}  // namespace dirichlet_detail

// FixedValues: any view convertible to View<const S*, Mem> (its own template parameter, so S is
// deduced from `values` alone).
template <class Exec, class S, class FixedValues>
void apply_dirichlet(const Exec& exec, const CsrGraph<typename Exec::memory_space>& A,
                     const Kokkos::View<S*, typename Exec::memory_space>& values,
                     const Kokkos::View<S*, typename Exec::memory_space>& rhs,
                     const Kokkos::View<const ordinal_t*, typename Exec::memory_space>& fixed_dofs,
                     const FixedValues& fixed_values) {
  using Mem = typename Exec::memory_space;
  const bool lower = is_lower_storage(exec, A);
  const auto m = dirichlet_detail::marked<S>(exec, A.num_rows, fixed_dofs, fixed_values);
  Kokkos::parallel_for("kfem::dirichlet_apply_values", Kokkos::RangePolicy<Exec>(exec, 0, A.num_rows),
                       dirichlet_detail::Lift<Mem, S>{{A.row_map, A.cols}, values, rhs, m.fixed, m.g, lower});
}

// The same conditions on block storage (sparsity/bsr.hpp: blocks on the node graph `node`, C DOFs
// per node; with `lower`, lower block storage on the node graph's lower triangle): rows and columns
// of the fixed DOFs zeroed inside their blocks, the fixed diagonal kept as above.
template <class Exec, class S, class FixedValues>
void apply_dirichlet_blocks(const Exec& exec, const CsrGraph<typename Exec::memory_space>& node, int C,
                            const Kokkos::View<S*, typename Exec::memory_space>& values,
                            const Kokkos::View<S*, typename Exec::memory_space>& rhs,
                            const Kokkos::View<const ordinal_t*, typename Exec::memory_space>& fixed_dofs,
                            const FixedValues& fixed_values, bool lower = false) {
  using Mem = typename Exec::memory_space;
  using Rows = dirichlet_detail::BlockRows<Mem>;
  const ordinal_t rows = node.num_rows * C;
  const auto m = dirichlet_detail::marked<S>(exec, rows, fixed_dofs, fixed_values);
  Kokkos::parallel_for("kfem::dirichlet_apply_blocks", Kokkos::RangePolicy<Exec>(exec, 0, rows),
                       dirichlet_detail::Lift<Mem, S, Rows>{Rows{node.row_map, node.cols, C, lower}, values,
                                                            rhs, m.fixed, m.g, lower});
}
}  // namespace kfem
