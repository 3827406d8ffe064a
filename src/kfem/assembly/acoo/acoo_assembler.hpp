// a-COO assembly (amorim, "A-FEM without coloring"): one thread per element pushes every Ke entry
// onto its row's linked list (acoo_lists.hpp), then the rows are consolidated into CSR, with the
// Dirichlet conditions, by acoo_consolidate.hpp. No colouring, no precomputed CSR pattern:
//   AcooAssembler<Exec, fe::Tri3, fe::Electrostatics<double>, double> a(exec, problem, reference, op);
//   const auto r = a.assemble(bc);   // r.graph, r.values, r.times
// The family's elements, any generic mapping (thread by default, the paper's; team works too) and
// target::DofPairs are ElementAssembler's (inputs::Family); only the adder differs. From the Problem it
// reads the mesh, the element DOF nodes and the row count, never the graph's pattern.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <stdexcept>

#include "kfem/assembly/acoo/acoo_consolidate.hpp"
#include "kfem/assembly/acoo/acoo_lists.hpp"
#include "kfem/assembly/family_data.hpp"
#include "kfem/assembly/mapping/thread_per_element.hpp"
#include "kfem/assembly/problem.hpp"
#include "kfem/assembly/target/dof_pair.hpp"
#include "kfem/core/types.hpp"
#include "kfem/fe/family.hpp"
#include "kfem/report/timing.hpp"

namespace kfem {
enum class PoolOverflow { fail, grow };  // grow: reallocate to what was pushed and insert again

struct AcooOptions {
  offset_t pool_nodes = 0;  // 0: elements x (N_sh C)^2, exactly what the elements push
  PoolOverflow on_overflow = PoolOverflow::fail;
  acoo::ConsolidateOptions consolidation = {};  // row mapping of the consolidation (acoo_consolidate.hpp)
};

// Fenced seconds per stage and the a-COO memory of one assemble().
struct AcooTimes {
  double alloc_s = 0;             // head + pool allocation, heads emptied
  double insert_s = 0;            // (a) element computation + pushes (every pass when the pool grew)
  double consolidate_s = 0;       // (b) = lengths_s + gather_s + sort_s
  double lengths_s = 0;           // (b1) list lengths, prefix sum, segments allocated
  double gather_s = 0;            // (b2) lists -> row segments
  double sort_s = 0;              // (b3) sort, sum, Dirichlet, row counts
  double csr_s = 0;               // (c) prefix sum + CSR write
  std::size_t storage_bytes = 0;  // head + pool + counter (the largest, if the pool grew)
  std::size_t scratch_bytes = 0;  // consolidation's segments + gathered entries, live with the storage
  offset_t pushed = 0;            // entries pushed: elements x (N_sh C)^2
  offset_t pool_nodes = 0;        // pool capacity finally used
  ordinal_t elements = 0;
  int retries = 0;  // insertions redone after an overflow (PoolOverflow::grow)
  double total_s() const { return alloc_s + insert_s + consolidate_s + csr_s; }
  double storage_bytes_per_element() const { return elements > 0 ? double(storage_bytes) / elements : 0; }
  double peak_bytes_per_element() const {
    return elements > 0 ? double(storage_bytes + scratch_bytes) / elements : 0;
  }
};

template <class S, class MemorySpace>
struct AcooResult {
  CsrGraph<MemorySpace> graph;  // sorted columns; without conditions the DOF graph's pattern
  Kokkos::View<S*, MemorySpace> values;
  AcooTimes times;
};

template <class Exec, class Family, class Op, class S, class Mapping = mapping::ThreadPerElement>
class AcooAssembler {
 public:
  using Mem = typename Exec::memory_space;
  using Layout = typename Mapping::layout;
  using Elements = FamilyElements<Family, S, Layout, Mem>;
  using Target = target::DofPairs<Layout, Mem>;
  using Conditions = acoo::Dirichlet<S, Mem>;
  using Result = AcooResult<S, Mem>;

  AcooAssembler(const Exec& exec, const Problem<Exec>& p, const fe::Reference<Family, S, Mem>& ref,
                const Op& op, AcooOptions options = {}, Mapping mapping = {})
      : exec_(exec), op_(op), mapping_(mapping), options_(options), rows_(p.num_dofs()) {
    if (p.components() != Op::components)
      throw std::logic_error("problem and operator disagree on DOFs per node");
    in_.els =
        make_family_elements<Family, S, Layout>(exec, p.mesh.coords, p.mesh.conn, p.dofs, p.natural, ref);
    in_.where = Target::make(exec, in_.els.nodes, Op::components);
    exec.fence();
  }

  // (N_sh C)^2: the pushes of one element.
  offset_t entries_per_element() const {
    return acoo::pool_nodes_for(1, int(in_.els.nodes.extent(1)), Op::components);
  }
  offset_t pool_nodes() const {
    return options_.pool_nodes > 0 ? options_.pool_nodes : entries_per_element() * in_.els.num_elements;
  }
  ordinal_t num_rows() const { return rows_; }

  // Assembles into a fresh CSR; the conditions, if any, update bc.rhs (acoo_consolidate.hpp).
  // InputError when the pool is too small and options say fail.
  Result assemble(const Conditions& bc = {}) const {
    Result r;
    AcooTimes& t = r.times;
    t.elements = in_.els.num_elements;
    acoo::Lists<S, Mem> lists;
    offset_t capacity = pool_nodes();
    for (;;) {
      t.alloc_s += time_fenced(exec_, [&] { lists = acoo::make_lists<S>(exec_, rows_, capacity); });
      t.storage_bytes = lists.bytes() > t.storage_bytes ? lists.bytes() : t.storage_bytes;
      t.insert_s += time_fenced(
          exec_, [&] { mapping_.launch(exec_, in_, op_, 0, in_.els.num_elements, lists.push()); });
      t.pushed = acoo::claimed(exec_, lists);
      if (t.pushed <= capacity || options_.on_overflow == PoolOverflow::fail) break;
      lists = {};  // free the small pool before the large one
      capacity = t.pushed;
      ++t.retries;
    }
    t.pool_nodes = capacity;
    acoo::ConsolidateTimes ct;
    auto csr = acoo::consolidate(exec_, lists, bc, &ct, options_.consolidation);  // throws on overflow
    t.consolidate_s = ct.consolidate_s;
    t.lengths_s = ct.lengths_s;
    t.gather_s = ct.gather_s;
    t.sort_s = ct.sort_s;
    t.csr_s = ct.csr_s;
    t.scratch_bytes = ct.scratch_bytes;
    r.graph = csr.graph;
    r.values = csr.values;
    return r;
  }

 private:
  Exec exec_;
  Op op_;
  Mapping mapping_;
  AcooOptions options_;
  ordinal_t rows_;
  FamilyInputs<Elements, Target> in_;
};
}  // namespace kfem
