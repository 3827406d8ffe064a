// Element-by-element operators (amorim's EbE-FEM, §III-A): y = A x applied element by element, the
// global matrix never assembled, for any family and operator of the generic kernels.
//   EbeV1  Ke computed once (any generic mapping into target::ElementMatrices) and kept on the
//          device; every product gathers x_e, multiplies by Ke and adds into y (amorim's EbE-v1).
//   EbeV2  Ke recomputed inside every product by a generic mapping whose target names global DOF
//          pairs (target::DofPairs) and whose adder does y(row) += Ke(i, j) x(col) (EbE-v2): less
//          memory, more arithmetic.
// Races: EbeRace::colored launches colour by colour with plain adds (the paper's way);
// EbeRace::atomic is one launch with atomic adds (beyond the paper: no colouring needed).
//
// Dirichlet conditions at element level (apply_dirichlet below): the operator then applies exactly
// the matrix that problems/dirichlet.hpp's apply_dirichlet makes of the assembled CSR, i.e. fixed
// rows and columns dropped and the fixed diagonal put back, d x(r) on a fixed row r. The diagonal
// (for Jacobi) is summed element by element likewise.
//   EbeV1<Exec, fe::Tri3, fe::Electrostatics<double>, double> A(exec, problem, ref, op, EbeRace::colored);
//   A.apply_dirichlet(exec, rhs, fixed_dofs, fixed_values);
//   A.apply(exec, x, y);   // y = A x of the constrained system
#pragma once
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "kfem/assembly/family_data.hpp"
#include "kfem/assembly/mapping/team_per_element.hpp"
#include "kfem/assembly/mapping/thread_per_element.hpp"
#include "kfem/assembly/problem.hpp"
#include "kfem/assembly/target/dof_pair.hpp"
#include "kfem/assembly/target/element_matrix.hpp"
#include "kfem/core/fill.hpp"
#include "kfem/core/types.hpp"
#include "kfem/fe/family.hpp"

namespace kfem {
enum class EbeRace { colored, atomic };

// Device bytes an operator holds in arrays proportional to the mesh. The colouring costs no device
// memory: elements are stored colour by colour and the colour offsets stay on the host. The
// family's reference tables (a few KB at most) are left out.
struct EbeMemory {
  ordinal_t elements = 0;
  std::size_t element_matrices = 0;  // v1: every Ke
  std::size_t element_dofs = 0;      // DOF nodes of every element
  std::size_t coordinates = 0;       // v2: vertex coordinates of every element
  std::size_t dofs = 0;              // per DOF: the Dirichlet diagonal
  double per_element() const {
    return elements > 0 ? double(element_matrices + element_dofs + coordinates) / elements : 0.0;
  }
};

namespace ebe_detail {
// Named functors rather than KOKKOS_LAMBDAs inside these class templates (nvcc's extended lambdas).

// Constraint state per DOF: diag(r) > 0 marks a fixed DOF and is its diagonal in the constrained
// matrix; `on` = false gives the unconstrained K (the rhs lift needs K g).
template <class S, class Mem>
struct Constraint {
  Kokkos::View<const S*, Mem> diag;
  bool on;
  KOKKOS_INLINE_FUNCTION bool fixed(ordinal_t r) const { return on && diag(r) != S(0); }
};

template <bool Atomic, class S>
KOKKOS_INLINE_FUNCTION void add(S& to, S v) {
  if constexpr (Atomic)
    Kokkos::atomic_add(&to, v);
  else
    to += v;
}

// y starts as the fixed rows' d x(r) (elements add nothing there) and 0 elsewhere.
template <class S, class Mem>
struct Start {
  Kokkos::View<const S*, Mem> x;
  Kokkos::View<S*, Mem> y;
  Constraint<S, Mem> c;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const { y(r) = c.fixed(r) ? c.diag(r) * x(r) : S(0); }
};

template <class S, class Mem>
struct FixDiagonal {
  Kokkos::View<S*, Mem> d;
  Constraint<S, Mem> c;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const {
    if (c.fixed(r)) d(r) = c.diag(r);
  }
};

// Homogeneous conditions: a unit diagonal and rhs 0 at the fixed DOFs.
template <class S, class Mem>
struct MarkUnit {
  Kokkos::View<S*, Mem> diag, rhs;
  Kokkos::View<const ordinal_t*, Mem> dofs;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i) const {
    diag(dofs(i)) = S(1);
    rhs(dofs(i)) = S(0);
  }
};

// Non-homogeneous conditions: a fixed DOF keeps K's diagonal (1 where not positive), as the CSR
// apply_dirichlet does.
template <class S, class Mem>
struct MarkKept {
  Kokkos::View<S*, Mem> diag;
  Kokkos::View<const ordinal_t*, Mem> dofs;
  Kokkos::View<const S*, Mem> kdiag;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i) const {
    const ordinal_t r = dofs(i);
    diag(r) = kdiag(r) > S(0) ? kdiag(r) : S(1);
  }
};

// Free rows: rhs -= (K g)(r), the known values moved right; fixed rows: rhs = d g(r).
template <class S, class Mem>
struct Lift {
  Kokkos::View<S*, Mem> rhs;
  Kokkos::View<const S*, Mem> kg, g;
  Constraint<S, Mem> c;
  KOKKOS_INLINE_FUNCTION void operator()(ordinal_t r) const {
    rhs(r) = c.fixed(r) ? c.diag(r) * g(r) : rhs(r) - kg(r);
  }
};

template <class S, class Mem>
struct Scatter {  // g(dofs(i)) = values(i)
  Kokkos::View<S*, Mem> g;
  Kokkos::View<const ordinal_t*, Mem> dofs;
  Kokkos::View<const S*, Mem> values;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i) const { g(dofs(i)) = values(i); }
};

// Local row i of an element = component i % C of its node i / C.
template <class Nodes>
KOKKOS_INLINE_FUNCTION ordinal_t dof_of(const Nodes& nodes, ordinal_t e, int i, int C) {
  return C * nodes(e, i / C) + i % C;
}

// tour: ebe-v1-product
// EbE-v1 product: one thread per (element, Ke row) of elements [begin, ...); a row's sum goes to
// y once. Rows of one element are distinct DOFs, so plain adds are safe within a colour.
template <class S, class Mem, class Nodes, bool Atomic>
struct StoredProduct {
  Kokkos::View<const S*, Mem> ke;
  Nodes nodes;
  Kokkos::View<const S*, Mem> x;
  Kokkos::View<S*, Mem> y;
  Constraint<S, Mem> c;
  int n, C;
  ordinal_t begin;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    const ordinal_t e = begin + ordinal_t(t / n);
    const int i = int(t % n);
    const ordinal_t r = dof_of(nodes, e, i, C);
    if (c.fixed(r)) return;
    const std::size_t row = (std::size_t(e) * n + i) * n;
    S sum = S(0);
    for (int j = 0; j < n; ++j) {
      const ordinal_t col = dof_of(nodes, e, j, C);
      if (!c.fixed(col)) sum += ke(row + j) * x(col);
    }
    add<Atomic>(y(r), sum);
  }
};
// tour: end ebe-v1-product

template <class S, class Mem, class Nodes, bool Atomic>
struct StoredDiagonal {
  Kokkos::View<const S*, Mem> ke;
  Nodes nodes;
  Kokkos::View<S*, Mem> d;
  int n, C;
  ordinal_t begin;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    const ordinal_t e = begin + ordinal_t(t / n);
    const int i = int(t % n);
    add<Atomic>(d(dof_of(nodes, e, i, C)), ke((std::size_t(e) * n + i) * n + i));
  }
};

// EbE-v2 adders: a generic mapping hands Ke(i, j) with its global (row, col).
template <class S, class Mem, bool Atomic>
struct PairProduct {
  Kokkos::View<const S*, Mem> x;
  Kokkos::View<S*, Mem> y;
  Constraint<S, Mem> c;
  KOKKOS_INLINE_FUNCTION const PairProduct& access() const { return *this; }
  KOKKOS_INLINE_FUNCTION void operator()(target::DofPair pr, S v) const {
    if (c.fixed(pr.row) || c.fixed(pr.col)) return;
    add<Atomic>(y(pr.row), v * x(pr.col));
  }
};

template <class S, class Mem, bool Atomic>
struct PairDiagonal {
  Kokkos::View<S*, Mem> d;
  KOKKOS_INLINE_FUNCTION const PairDiagonal& access() const { return *this; }
  KOKKOS_INLINE_FUNCTION void operator()(target::DofPair pr, S v) const {
    if (pr.row == pr.col) add<Atomic>(d(pr.row), v);
  }
};

// Whether a mapping gives each element to one thread: only then are plain adds into y(row) safe
// within a colour. Mappings with several lanes per element (team) share rows among the lanes, so
// EbeV2 uses atomics within the colours for them.
template <class Mapping>
inline constexpr bool one_thread_per_element = std::is_same_v<Mapping, mapping::ThreadPerElement>;
}  // namespace ebe_detail

// What both operators share: launch ranges (colours or one), the Dirichlet state, the constrained
// product and diagonal around the element work (add_products / add_diagonal). Every call runs on
// the instance it is given; x and y must not alias.
template <class Exec, class S>
class EbeOperator {
 public:
  using Mem = typename Exec::memory_space;
  using Vec = Kokkos::View<S*, Mem>;
  using ConstVec = Kokkos::View<const S*, Mem>;
  using Dofs = Kokkos::View<const ordinal_t*, Mem>;
  using Constraint = ebe_detail::Constraint<S, Mem>;

  virtual ~EbeOperator() = default;
  ordinal_t num_dofs() const { return num_dofs_; }
  ordinal_t num_elements() const { return offsets_.back(); }
  EbeRace race() const { return race_; }
  int num_launches() const { return int(offsets_.size()) - 1; }  // colours, or 1 (atomic)
  virtual EbeMemory memory() const = 0;
  double bytes_per_element() const { return memory().per_element(); }

  // y = A x, A the constrained matrix (K before any apply_dirichlet).
  void apply(const Exec& exec, const ConstVec& x, const Vec& y) const { product(exec, x, y, true); }
  // y = K x, ignoring the Dirichlet conditions.
  void apply_unconstrained(const Exec& exec, const ConstVec& x, const Vec& y) const {
    product(exec, x, y, false);
  }

  // d = diag(A): the elements' Ke(i, i) summed, fixed rows the Dirichlet diagonal.
  void diagonal(const Exec& exec, const Vec& d) const {
    diagonal_unconstrained(exec, d);
    Kokkos::parallel_for("kfem::ebe_fix_diagonal", policy(exec),
                         ebe_detail::FixDiagonal<S, Mem>{d, constraint(true)});
  }

  // Homogeneous conditions, as the CSR apply_dirichlet(exec, A, values, rhs, fixed_dofs): unit
  // diagonal, rhs 0 at the fixed DOFs. Replaces any earlier conditions.
  void apply_dirichlet(const Exec& exec, const Vec& rhs, const Dofs& fixed_dofs) {
    fill_zero(exec, fixed_diag_);
    Kokkos::parallel_for("kfem::ebe_dirichlet_mark", Kokkos::RangePolicy<Exec>(exec, 0, fixed_dofs.extent(0)),
                         ebe_detail::MarkUnit<S, Mem>{fixed_diag_, rhs, fixed_dofs});
  }

  // Non-homogeneous conditions, as the CSR apply_dirichlet(..., fixed_dofs, fixed_values): the
  // known values move to the rhs through one unconstrained product rhs -= K g (g = the values on
  // fixed DOFs, 0 elsewhere; only free rows keep it), fixed rows keep K's diagonal d (1 where
  // d <= 0) with rhs = d g. FixedValues: any view convertible to View<const S*, Mem>. Replaces
  // any earlier conditions.
  template <class FixedValues>
  void apply_dirichlet(const Exec& exec, const Vec& rhs, const Dofs& fixed_dofs,
                       const FixedValues& fixed_values) {
    const ConstVec values = fixed_values;
    const auto fixed = Kokkos::RangePolicy<Exec>(exec, 0, fixed_dofs.extent(0));
    const Vec g("kfem::ebe_dirichlet_values", num_dofs_);
    const Vec kdiag(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::ebe_k_diagonal"), num_dofs_);
    const Vec kg(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfem::ebe_k_g"), num_dofs_);
    fill_zero(exec, fixed_diag_);
    Kokkos::parallel_for("kfem::ebe_dirichlet_values", fixed,
                         ebe_detail::Scatter<S, Mem>{g, fixed_dofs, values});
    diagonal_unconstrained(exec, kdiag);
    product(exec, g, kg, false);
    Kokkos::parallel_for("kfem::ebe_dirichlet_mark", fixed,
                         ebe_detail::MarkKept<S, Mem>{fixed_diag_, fixed_dofs, kdiag});
    Kokkos::parallel_for("kfem::ebe_dirichlet_lift", policy(exec),
                         ebe_detail::Lift<S, Mem>{rhs, kg, g, constraint(true)});
    exec.fence();  // g, kdiag, kg die here
  }

 protected:
  EbeOperator(const Problem<Exec>& p, EbeRace race, int components) : race_(race), num_dofs_(p.num_dofs()) {
    if (p.components() != components)
      throw std::logic_error("problem and operator disagree on DOFs per node");
    if (race == EbeRace::colored) {
      if (p.coloring.num_colors() < 1) throw std::logic_error("coloured EbE needs Problem::coloring");
      offsets_ = p.coloring.offsets;
    } else {
      offsets_ = {0, p.num_elements()};
    }
    fixed_diag_ = Vec("kfem::ebe_fixed_diagonal", num_dofs_);
  }
  const auto& launch_order(const Problem<Exec>& p) const {
    return race_ == EbeRace::colored ? p.by_color : p.natural;
  }
  std::size_t dof_bytes() const { return sizeof(S) * fixed_diag_.extent(0); }

  // y += the element contributions of launch-order elements [begin, end), skipping the fixed rows
  // and columns of c; d += their Ke(i, i). Plain adds when coloured, atomic otherwise.
  virtual void add_products(const Exec& exec, const ConstVec& x, const Vec& y, const Constraint& c,
                            ordinal_t begin, ordinal_t end) const = 0;
  virtual void add_diagonal(const Exec& exec, const Vec& d, ordinal_t begin, ordinal_t end) const = 0;

  EbeRace race_;

 private:
  Kokkos::RangePolicy<Exec> policy(const Exec& exec) const {
    return Kokkos::RangePolicy<Exec>(exec, 0, num_dofs_);
  }
  Constraint constraint(bool on) const { return {fixed_diag_, on}; }

  void product(const Exec& exec, const ConstVec& x, const Vec& y, bool constrained) const {
    const Constraint c = constraint(constrained);
    Kokkos::parallel_for("kfem::ebe_start", policy(exec), ebe_detail::Start<S, Mem>{x, y, c});
    for (std::size_t k = 0; k + 1 < offsets_.size(); ++k)
      if (offsets_[k + 1] > offsets_[k]) add_products(exec, x, y, c, offsets_[k], offsets_[k + 1]);
  }
  void diagonal_unconstrained(const Exec& exec, const Vec& d) const {
    fill_zero(exec, d);
    for (std::size_t k = 0; k + 1 < offsets_.size(); ++k)
      if (offsets_[k + 1] > offsets_[k]) add_diagonal(exec, d, offsets_[k], offsets_[k + 1]);
  }

  ordinal_t num_dofs_;
  std::vector<ordinal_t> offsets_;
  Vec fixed_diag_;  // Constraint::diag: 0 on free DOFs
};

// EbE-v1: element matrices computed once by `Mapping` (any generic mapping) and kept on the device,
// row-major per element in launch order (N_sh C)^2 values each; products read them back.
template <class Exec, class Family, class Op, class S, class Mapping = mapping::TeamPerElement>
class EbeV1 final : public EbeOperator<Exec, S> {
  using Base = EbeOperator<Exec, S>;

 public:
  using typename Base::ConstVec;
  using typename Base::Mem;
  using typename Base::Vec;
  using Nodes = Kokkos::View<const ordinal_t**, typename Mapping::layout, Mem>;

  EbeV1(const Exec& exec, const Problem<Exec>& p, const fe::Reference<Family, S, Mem>& ref, const Op& op,
        EbeRace race, Mapping mapping = {})
      : Base(p, race, Op::components) {
    const auto els = make_family_elements<Family, S, typename Mapping::layout>(
        exec, p.mesh.coords, p.mesh.conn, p.dofs, this->launch_order(p), ref);
    nodes_ = els.nodes;  // the coordinates are dropped after set-up
    nsh_ = int(els.nodes.extent(1));
    n_ = Op::components * nsh_;
    const std::size_t nn = std::size_t(n_) * n_;
    const ordinal_t ne = els.num_elements;
    ke_ = Vec("kfem::ebe_element_matrices", nn * ne);
    mapping.launch(exec, family_inputs(els, target::ElementMatrices::make(0, Op::components, nsh_)), op, 0,
                   ne, target::ElementMatrices::Store<Vec>{ke_});
    exec.fence();
  }

  EbeMemory memory() const override {
    return {this->num_elements(), sizeof(S) * ke_.extent(0), sizeof(ordinal_t) * nodes_.size(), 0,
            this->dof_bytes()};
  }
  // Ke of launch-order element k: entries [k n^2, (k + 1) n^2), n = components * N_sh.
  ConstVec element_matrices() const { return ke_; }

 protected:
  using typename Base::Constraint;
  void add_products(const Exec& exec, const ConstVec& x, const Vec& y, const Constraint& c, ordinal_t begin,
                    ordinal_t end) const override {
    if (this->race_ == EbeRace::atomic)
      run("kfem::ebe_v1_product", exec, begin, end,
          ebe_detail::StoredProduct<S, Mem, Nodes, true>{ke_, nodes_, x, y, c, n_, Op::components, begin});
    else
      run("kfem::ebe_v1_product", exec, begin, end,
          ebe_detail::StoredProduct<S, Mem, Nodes, false>{ke_, nodes_, x, y, c, n_, Op::components, begin});
  }
  void add_diagonal(const Exec& exec, const Vec& d, ordinal_t begin, ordinal_t end) const override {
    if (this->race_ == EbeRace::atomic)
      run("kfem::ebe_v1_diagonal", exec, begin, end,
          ebe_detail::StoredDiagonal<S, Mem, Nodes, true>{ke_, nodes_, d, n_, Op::components, begin});
    else
      run("kfem::ebe_v1_diagonal", exec, begin, end,
          ebe_detail::StoredDiagonal<S, Mem, Nodes, false>{ke_, nodes_, d, n_, Op::components, begin});
  }

 private:
  template <class F>
  void run(const char* label, const Exec& exec, ordinal_t begin, ordinal_t end, const F& f) const {
    Kokkos::parallel_for(
        label,
        Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, std::int64_t(end - begin) * n_),
        f);
  }

  Vec ke_;
  Nodes nodes_;
  int nsh_ = 0, n_ = 0;
};

// EbE-v2: every product recomputes Ke through `Mapping` (any generic mapping) with target::DofPairs,
// the adder applying each entry to x on the fly. Holds the elements' coordinates and DOF nodes.
template <class Exec, class Family, class Op, class S, class Mapping = mapping::ThreadPerElement>
class EbeV2 final : public EbeOperator<Exec, S> {
  using Base = EbeOperator<Exec, S>;

 public:
  using typename Base::ConstVec;
  using typename Base::Mem;
  using typename Base::Vec;
  using Layout = typename Mapping::layout;

  EbeV2(const Exec& exec, const Problem<Exec>& p, const fe::Reference<Family, S, Mem>& ref, const Op& op,
        EbeRace race, Mapping mapping = {})
      : Base(p, race, Op::components), op_(op), mapping_(mapping) {
    in_.els = make_family_elements<Family, S, Layout>(exec, p.mesh.coords, p.mesh.conn, p.dofs,
                                                      this->launch_order(p), ref);
    in_.where = target::DofPairs<Layout, Mem>::make(exec, in_.els.nodes, Op::components);
    exec.fence();
  }

  EbeMemory memory() const override {
    return {this->num_elements(), 0, sizeof(ordinal_t) * in_.els.nodes.size(),
            sizeof(S) * in_.els.coords.size(), this->dof_bytes()};
  }

 protected:
  using typename Base::Constraint;
  // Atomic adds also within colours when the mapping shares an element among lanes.
  bool atomic() const {
    return this->race_ == EbeRace::atomic || !ebe_detail::one_thread_per_element<Mapping>;
  }

  void add_products(const Exec& exec, const ConstVec& x, const Vec& y, const Constraint& c, ordinal_t begin,
                    ordinal_t end) const override {
    if (atomic())
      mapping_.launch(exec, in_, op_, begin, end, ebe_detail::PairProduct<S, Mem, true>{x, y, c});
    else
      mapping_.launch(exec, in_, op_, begin, end, ebe_detail::PairProduct<S, Mem, false>{x, y, c});
  }
  void add_diagonal(const Exec& exec, const Vec& d, ordinal_t begin, ordinal_t end) const override {
    if (atomic())
      mapping_.launch(exec, in_, op_, begin, end, ebe_detail::PairDiagonal<S, Mem, true>{d});
    else
      mapping_.launch(exec, in_, op_, begin, end, ebe_detail::PairDiagonal<S, Mem, false>{d});
  }

 private:
  Op op_;
  Mapping mapping_;
  FamilyInputs<FamilyElements<Family, S, Layout, Mem>, target::DofPairs<Layout, Mem>> in_;
};
}  // namespace kfem
