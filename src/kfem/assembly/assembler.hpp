// The two assemblers every strategy runs through (src/kfem/README.md, "Two launch interfaces"):
//   ElementAssembler: element-centric mappings, `mapping.launch(exec, in, op, begin, end, add)` over
//     elements [begin, end) of the launch order, colliding adds made safe by the race handling;
//   OwnerAssembler: owner-computes mappings, `mapping.launch(exec, data, op, write)`, every value
//     written once by its owner (race `none`).
// `in` is what the mapping reads (the Inputs tag): the family's elements + a target for generic
// mappings, hex8's element data with its compact index for the hex8 fast paths.
//   ElementAssembler<Exec, fe::Hex8, fe::Elasticity<double>, mapping::Hex8Warp<4>, race::Colored,
//                    inputs::Hex8, double> a(exec, problem, reference, op);
//   a.assemble(values);   // zero values + element work + scatter: the part benchmarks time
// Construction does the per-strategy setup (inputs gathered in launch order, the target's index).
#pragma once
#include <Kokkos_Core.hpp>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "kfem/assembly/family_data.hpp"
#include "kfem/assembly/hex8_element_data.hpp"
#include "kfem/assembly/mapping_traits.hpp"
#include "kfem/assembly/problem.hpp"
#include "kfem/core/fill.hpp"
#include "kfem/fe/elasticity.hpp"
#include "kfem/fe/operator.hpp"
#include "kfem/mesh/renumber.hpp"

namespace kfem {
template <class Exec, class S>
class AssemblerBase {  // type-erased face for the driver's registry
 public:
  using Values = Kokkos::View<S*, typename Exec::memory_space>;
  virtual ~AssemblerBase() = default;
  virtual void assemble(const Values& values) = 0;
  virtual bool lower() const = 0;  // writes the lower triangle (Problem::lower) instead of the full pattern
  // Element computation alone (sanfui Fig. 4-5): the same kernels over all elements, writing nothing.
  virtual void compute_only(const Values& values) = 0;
  // Memory of the "where does Ke(i, j) go" data per element (CSR index), in bytes.
  virtual double index_bytes_per_element() const = 0;
};

// The adder of compute_only: it stores a value only if it is NaN, which a valid element never
// produces, so the compiler must still compute every entry while index loads and adds drop out.
// It takes any target's key (a CSR slot, a DOF pair) and ignores it.
template <class Values>
struct Discard {
  Values v;
  KOKKOS_INLINE_FUNCTION const Discard& access() const { return *this; }
  template <class Key>
  KOKKOS_INLINE_FUNCTION void operator()(const Key&, typename Values::value_type x) const {
    if (x != x) v(0) = x;
  }
  KOKKOS_INLINE_FUNCTION void add(slot_t s, typename Values::value_type x) const { (*this)(s, x); }
};

// The writer of owner-computes mappings: each value has one writer, which stores it (and, where the
// owner sums its elements into the value itself, adds to it afterwards: the batch owner-computes mapping).
template <class Values>
struct StoreOnce {
  Values v;
  KOKKOS_INLINE_FUNCTION void operator()(slot_t s, typename Values::value_type x) const { v(s) = x; }
  KOKKOS_INLINE_FUNCTION void add(slot_t s, typename Values::value_type x) const { v(s) += x; }
};

// What every assembler shares: the launch order (colour by colour or all at once), the race
// handling's runner bound to the output array, and the zeroing. `run` assembles; `discard` runs the
// same kernels with every add dropped (compute_only).
template <class Exec, class Race, class S>
class RaceDriven : public AssemblerBase<Exec, S> {
 public:
  using Values = typename AssemblerBase<Exec, S>::Values;

 protected:
  // `runs`: a colouring of runs of consecutive elements, which a coloured race follows instead of
  // p's element colouring (see MappingTraits::run).
  RaceDriven(const Exec& exec, const Problem<Exec>& p, std::optional<Coloring> runs = std::nullopt)
      : exec_(exec), runner_(Values()) {
    if (Race::needs_coloring && runs) {
      offsets_ = runs->offsets;
      run_order_ = device_order(exec, *runs);
    } else if (Race::needs_coloring) {
      if (p.coloring.num_colors() < 1)
        throw std::logic_error("coloured race handling needs Problem::coloring");
      offsets_ = p.coloring.offsets;
    } else {
      offsets_ = {0, p.num_elements()};
    }
  }
  const auto& launch_order(const Problem<Exec>& p) const {
    if (run_order_.extent(0) > 0) return run_order_;
    if (Race::needs_coloring) return p.by_color;
    return p.uncolored.extent(0) > 0 ? p.uncolored : p.natural;
  }

  template <class Launch>
  void run(const Values& values, Launch&& launch) {
    if (runner_values_.data() != values.data()) {  // ScatterView binds to the output array
      runner_ = typename Race::template Runner<Exec, Values>(values);
      runner_values_ = values;
    }
    fill_zero(exec_, values);
    runner_(exec_, values, offsets_, launch);
  }
  template <class Launch>
  void discard(const Values& values, Launch&& launch) const {
    launch(offsets_.front(), offsets_.back(), Discard<Values>{values});
  }

  Exec exec_;

 private:
  typename Race::template Runner<Exec, Values> runner_;
  Values runner_values_;
  std::vector<ordinal_t> offsets_;
  Kokkos::View<ordinal_t*, typename Exec::memory_space> run_order_;  // set when following a colouring of runs
};

namespace inputs {
// Generic mappings read the family's elements (coordinates, DOF nodes, reference tables) and a
// target (TargetTag: target::Index, target::Search) that says where each Ke(i, j) goes.
template <class TargetTag>
struct Family {
  template <class F, class Mapping, class S, class Mem>
  using type = FamilyInputs<FamilyElements<F, S, typename Mapping::layout, Mem>,
                            typename TargetTag::template type<typename Mapping::layout, Mem>>;
  template <class Mapping, class Exec, class F, class S, class Order>
  static auto make(const Exec& exec, const Problem<Exec>& p,
                   const fe::Reference<F, S, typename Exec::memory_space>& ref, const Order& order) {
    using In = type<F, Mapping, S, typename Exec::memory_space>;
    In in;
    in.els = make_family_elements<F, S, typename Mapping::layout>(exec, p.mesh.coords, p.mesh.conn, p.dofs,
                                                                  order, ref);
    if constexpr (MappingTraits<Mapping>::host_geometry) prepare_host_jacobian(exec, in.els);
    in.where = In::target_type::make(exec, in.els.nodes, p.graph);
    return in;
  }
  template <class In>
  static double index_bytes_per_element(const In& in) {
    return in.where.bytes_per_element();
  }
};

// The hex8 fast paths read hex8's element data: coordinates and the compact CSR index, for the
// full pattern or, when the mapping stores the lower triangle (Mapping::lower), for Problem::lower;
// with Blocks, the index of block storage (the node graph's 3 x 3 blocks, sparsity/bsr.hpp), on
// Problem::node_lower for a lower mapping.
template <bool Blocks>
struct Hex8Of {
  template <class F, class Mapping, class S, class Mem>
  using type = Hex8ElementData<S, typename Mapping::layout, Mem, MappingTraits<Mapping>::lower, Blocks>;
  template <class Mapping, class Exec, class F, class S, class Order>
  static auto make(const Exec& exec, const Problem<Exec>& p,
                   const fe::Reference<F, S, typename Exec::memory_space>&, const Order& order) {
    static_assert(std::is_same_v<F, fe::Hex8>, "hex8 element data serves hex8 meshes only");
    constexpr bool lower = MappingTraits<Mapping>::lower;
    if (lower && !Blocks && p.lower.num_rows != p.graph.dof.num_rows)
      throw std::logic_error("symmetric mapping needs Problem::lower");
    if (lower && Blocks && p.node_lower.num_rows != p.graph.node.num_rows)
      throw std::logic_error("lower block storage needs Problem::node_lower");
    const auto& target = Blocks ? (lower ? p.node_lower : p.graph.node) : lower ? p.lower : p.graph.dof;
    return make_hex8_element_data<S, typename Mapping::layout, lower, Blocks>(
        exec, p.mesh.coords, p.mesh.conn, order, p.graph, target, p.spare.take());
  }
  template <class In>
  static double index_bytes_per_element(const In&) {
    return hex8_index_bytes;
  }
};
using Hex8 = Hex8Of<false>;
using Hex8Blocks = Hex8Of<true>;
}  // namespace inputs

// The element-centric assembler: one family with its operator, one work mapping, one race
// handling, and what the mapping reads (Inputs: inputs::Family<target> or inputs::Hex8).
template <class Exec, class Family, class Op, class Mapping, class Race, class Inputs, class S>
class ElementAssembler final : public RaceDriven<Exec, Race, S> {
 public:
  using Mem = typename Exec::memory_space;
  using Values = Kokkos::View<S*, Mem>;
  using In = typename Inputs::template type<Family, Mapping, S, Mem>;
  static constexpr bool Lower = MappingTraits<Mapping>::lower;

  ElementAssembler(const Exec& exec, const Problem<Exec>& p, const fe::Reference<Family, S, Mem>& ref,
                   const Op& op, Mapping mapping = {})
      : RaceDriven<Exec, Race, S>(exec, p, run_coloring(p)), op_(op), mapping_(mapping) {
    if (p.components() != Op::components)
      throw std::logic_error("problem and operator disagree on DOFs per node");
    in_ = Inputs::template make<Mapping>(exec, p, ref, this->launch_order(p));
    exec.fence();
  }

  void assemble(const Values& values) override {
    this->run(values, [&](ordinal_t begin, ordinal_t end, const auto& adder) {
      mapping_.launch(this->exec_, in_, op_, begin, end, adder);
    });
  }
  void compute_only(const Values& values) override {
    this->discard(values, [&](ordinal_t begin, ordinal_t end, const auto& adder) {
      mapping_.launch(this->exec_, in_, op_, begin, end, adder);
    });
  }
  bool lower() const override { return Lower; }
  double index_bytes_per_element() const override { return Inputs::index_bytes_per_element(in_); }
  const In& inputs() const { return in_; }

 private:
  // Runs of elements coloured as units, for a mapping that assembles them per thread: runs of the
  // Morton order, compact blocks whose elements share most of their rows.
  static std::optional<Coloring> run_coloring(const Problem<Exec>& p) {
    constexpr ordinal_t run = MappingTraits<Mapping>::template run<Exec, S>;
    if (!Race::needs_coloring || run == 1) return std::nullopt;
    const Mesh mesh = to_host(p.mesh);
    return greedy_coloring(mesh, run, morton_order(mesh));
  }

  Op op_;
  Mapping mapping_;
  In in_;
};

// tour: owner-assembler
// Owner-computes mappings (Mapping::owner_computes): every value is written once by the owner of
// its row, so there is nothing to zero and no race to handle (race `none`).
template <class Exec, class Op, class Mapping, class S>
class OwnerAssembler final : public AssemblerBase<Exec, S> {
 public:
  using Values = typename AssemblerBase<Exec, S>::Values;

  OwnerAssembler(const Exec& exec, const Problem<Exec>& p, const Op& op, Mapping mapping = {})
      : exec_(exec), op_(op), mapping_(mapping), data_(mapping_.template make_data<S>(exec, p)) {
    exec.fence();
  }
  void assemble(const Values& values) override {
    mapping_.launch(exec_, data_, op_, StoreOnce<Values>{values});
  }
  void compute_only(const Values& values) override {
    mapping_.launch(exec_, data_, op_, Discard<Values>{values});
  }
  bool lower() const override { return MappingTraits<Mapping>::lower; }
  double index_bytes_per_element() const override { return Mapping::index_bytes_per_element(data_); }

 private:
  Exec exec_;
  Op op_;
  Mapping mapping_;
  decltype(std::declval<const Mapping&>().template make_data<S>(std::declval<Exec>(),
                                                                std::declval<Problem<Exec>>())) data_;
};
// tour: end owner-assembler
}  // namespace kfem
