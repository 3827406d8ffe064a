// The strategy registry: every work mapping and race handling kfem knows, each with its kind.
// Adding a strategy = its file under mapping/ or race/ + one line in the lists below (+ its name
// in the driver's table). Tests and benchmarks iterate these lists.
#pragma once
#include <tuple>
#include <utility>

#include "kfem/assembly/mapping/pairs.hpp"
#include "kfem/assembly/mapping/ppni.hpp"
#include "kfem/assembly/mapping/sym300.hpp"
#include "kfem/assembly/mapping/thread_per_element.hpp"
#include "kfem/assembly/mapping/two_kernel.hpp"
#include "kfem/assembly/mapping/warp.hpp"
#include "kfem/assembly/race/atomic.hpp"
#include "kfem/assembly/race/colored.hpp"
#include "kfem/assembly/race/scatter.hpp"

namespace kfem {
enum class MappingKind {
  element, warp4, warp8, ppni4, ppni8, twokernel, warp4_scratch, warp4_atomic, warp4_vreduce, sym300, sym300x2, pairs, sympairs
};
enum class RaceKind { colored, atomic, scatter };

template <class Tag, auto Kind>
struct Entry {
  using type = Tag;
  static constexpr auto kind = Kind;
};

using JR = mapping::JacobianReduction;
using MappingRegistry = std::tuple<
    Entry<mapping::ThreadPerElement, MappingKind::element>,
    Entry<mapping::Warp<4>, MappingKind::warp4>,
    Entry<mapping::Warp<8>, MappingKind::warp8>,
    Entry<mapping::Ppni<4>, MappingKind::ppni4>,
    Entry<mapping::Ppni<8>, MappingKind::ppni8>,
    Entry<mapping::TwoKernel, MappingKind::twokernel>,
    Entry<mapping::Warp<4, JR::scratch>, MappingKind::warp4_scratch>,
    Entry<mapping::Warp<4, JR::atomic>, MappingKind::warp4_atomic>,
    Entry<mapping::Warp<4, JR::vector_reduce>, MappingKind::warp4_vreduce>,
    Entry<mapping::Sym300<1>, MappingKind::sym300>,
    Entry<mapping::Sym300<2>, MappingKind::sym300x2>,
    Entry<mapping::Pairs<false>, MappingKind::pairs>,
    Entry<mapping::Pairs<true>, MappingKind::sympairs>>;
using RaceRegistry = std::tuple<
    Entry<race::Colored, RaceKind::colored>,
    Entry<race::Atomic, RaceKind::atomic>,
    Entry<race::Scatter, RaceKind::scatter>>;

// Calls f(entry) for every entry of a registry (entry::type is the tag, entry::kind its kind).
template <class Registry, class F>
void for_each_entry(F&& f) {
  std::apply([&](auto... entry) { (f(entry), ...); }, Registry{});
}

// Calls f(Tag{}) for the registry entry of `kind`; returns false when none matches.
template <class Registry, class Kind, class F>
bool dispatch(Kind kind, F&& f) {
  return std::apply([&](auto... entry) { return ((decltype(entry)::kind == kind ? (f(typename decltype(entry)::type{}), true) : false) || ...); },
                    Registry{});
}

// Per-backend defaults: the fastest measured full-storage combination on every mesh and precision,
// pairs with atomics on the H200 and pairs with colouring on 16 CPU cores (reports/runs/2026-11-21-*).
template <class Exec>
constexpr MappingKind default_mapping() {
  return MappingKind::pairs;
}
template <class Exec>
constexpr RaceKind default_race() {
  return lanes::on_host<Exec> ? RaceKind::colored : RaceKind::atomic;
}
}  // namespace kfem
