// The generic assembler: one family (with its operator), one generic work mapping, one race
// handling and one target, over a Problem made by make_family_problem:
//   FamilyAssembler<Exec, fe::Prism, fe::Elasticity<double>, mapping::TeamPerElement, race::Atomic,
//                   target::Search, double> a(exec, problem, reference, op);
//   a.assemble(values);
#pragma once
#include <type_traits>

#include "kfem/assembly/assembler.hpp"
#include "kfem/assembly/family_data.hpp"
#include "kfem/fe/operator.hpp"

namespace kfem {
// Mappings that read host-prepared Jacobian terms (banas' NOJAC) say `host_geometry = true`.
template <class M, class = void>
struct needs_host_jacobian : std::false_type {};
template <class M>
struct needs_host_jacobian<M, std::void_t<decltype(M::host_geometry)>> : std::bool_constant<M::host_geometry> {};

template <class Exec, class Family, class Op, class Mapping, class Race, class TargetTag, class S>
class FamilyAssembler final : public RaceDriven<Exec, Race, S> {
 public:
  using Mem = typename Exec::memory_space;
  using Values = Kokkos::View<S*, Mem>;
  using Layout = typename Mapping::layout;
  using Elements = FamilyElements<Family, S, Layout, Mem>;
  using Target = typename TargetTag::template type<Layout, Mem>;

  FamilyAssembler(const Exec& exec, const Problem<Exec>& p, const fe::Reference<Family, S, Mem>& ref, const Op& op,
                  Mapping mapping = {})
      : RaceDriven<Exec, Race, S>(exec, p), op_(op), mapping_(mapping) {
    if (p.components() != Op::components) throw std::logic_error("problem and operator disagree on DOFs per node");
    els_ = make_family_elements<Family, S, Layout>(exec, p.mesh.coords, p.mesh.conn, p.dofs, this->launch_order(p), ref);
    if constexpr (needs_host_jacobian<Mapping>::value) prepare_host_jacobian(exec, els_);
    target_ = Target::make(exec, els_.nodes, p.graph);
    exec.fence();
  }

  void assemble(const Values& values) override {
    this->run(values, [&](ordinal_t begin, ordinal_t end, const auto& adder) {
      mapping_.launch(this->exec_, els_, op_, target_, begin, end, adder);
    });
  }
  void compute_only(const Values& values) override {
    this->discard(values, [&](ordinal_t begin, ordinal_t end, const auto& adder) {
      mapping_.launch(this->exec_, els_, op_, target_, begin, end, adder);
    });
  }
  bool lower() const override { return false; }
  double index_bytes_per_element() const override { return target_.bytes_per_element(); }

 private:
  Op op_;
  Mapping mapping_;
  Elements els_;
  Target target_;
};
}  // namespace kfem
