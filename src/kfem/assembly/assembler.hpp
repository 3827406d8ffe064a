// An assembler composes one work mapping with one race handling over a Problem:
//   Assembler<Exec, mapping::Warp<4>, race::Colored, double> a(exec, problem, material);
//   a.assemble(values);   // zero values + element work + scatter: the part benchmarks time
// Construction does the per-strategy setup (element layout in launch order, CSR index).
#pragma once
#include <Kokkos_Core.hpp>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "kfem/assembly/element_data.hpp"
#include "kfem/assembly/problem.hpp"
#include "kfem/core/fill.hpp"
#include "kfem/fe/elasticity.hpp"

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
};

// The adder of compute_only: it stores a value only if it is NaN, which a valid element never
// produces, so the compiler must still compute every entry while index loads and adds drop out.
template <class Values>
struct Discard {
  Values v;
  KOKKOS_INLINE_FUNCTION const Discard& access() const { return *this; }
  KOKKOS_INLINE_FUNCTION void operator()(slot_t s, typename Values::value_type x) const {
    if (x != x) v(s) = x;
  }
};

// Mappings that compute only Ke's lower triangle declare `static constexpr bool lower = true`.
template <class M, class = void>
struct stores_lower : std::false_type {};
template <class M>
struct stores_lower<M, std::void_t<decltype(M::lower)>> : std::integral_constant<bool, M::lower> {};

template <class Exec, class Mapping, class Race, class S>
class Assembler final : public AssemblerBase<Exec, S> {
 public:
  using Mem = typename Exec::memory_space;
  using Values = Kokkos::View<S*, Mem>;
  static constexpr bool Lower = stores_lower<Mapping>::value;
  using Data = ElementData<S, typename Mapping::layout, Mem, Lower>;

  Assembler(const Exec& exec, const Problem<Exec>& p, const Isotropic<S>& m, Mapping mapping = {})
      : exec_(exec), material_(m), mapping_(mapping), runner_(Values()) {
    if (Race::needs_coloring) {
      if (p.coloring.num_colors() < 1) throw std::logic_error("coloured race handling needs Problem::coloring");
      offsets_ = p.coloring.offsets;
    } else {
      offsets_ = {0, p.num_elements()};
    }
    if (Lower && p.lower.num_rows != p.graph.dof.num_rows) throw std::logic_error("symmetric mapping needs Problem::lower");
    data_ = make_element_data<S, typename Mapping::layout, Lower>(
        exec, p.mesh.coords, p.mesh.conn, Race::needs_coloring ? p.by_color : p.natural, p.graph,
        Lower ? p.lower : p.graph.dof);
    exec.fence();
  }

  void assemble(const Values& values) override {
    if (runner_values_.data() != values.data()) {  // ScatterView binds to the output array
      runner_ = typename Race::template Runner<Exec, Values>(values);
      runner_values_ = values;
    }
    fill_zero(exec_, values);
    runner_(exec_, values, offsets_, [&](ordinal_t begin, ordinal_t end, const auto& adder) {
      mapping_.launch(exec_, data_, material_, begin, end, adder);
    });
  }

  void compute_only(const Values& values) override {
    mapping_.launch(exec_, data_, material_, offsets_.front(), offsets_.back(), Discard<Values>{values});
  }

  bool lower() const override { return Lower; }
  const Data& data() const { return data_; }

 private:
  Exec exec_;
  Isotropic<S> material_;
  Mapping mapping_;
  typename Race::template Runner<Exec, Values> runner_;
  Values runner_values_;
  std::vector<ordinal_t> offsets_;
  Data data_;
};
}  // namespace kfem
