// The pipeline's second stage: what a point puts on the execution space before it assembles. The
// mesh and the element DOF nodes always; the DOF graph (the CSR pattern) unless the storage builds
// its own (a-COO) or has none (EbE); its lower triangle for symmetric mappings; the element colouring
// of a coloured race; the launch order of uncoloured element-centric kernels. Each step is timed and
// a Kokkos profiling region; what depends on the mesh alone is computed once (MeshOrders).
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <typeindex>
#include <vector>

#include "kfem/assembly/problem.hpp"
#include "kfem/coloring/coloring.hpp"
#include "kfem/core/exec_spaces.hpp"
#include "kfem/dofs/dof_map.hpp"
#include "kfem/mesh/mesh.hpp"

namespace kfem {
enum class MappingKind;  // assembly/strategies.hpp
enum class RaceKind;
}  // namespace kfem

namespace kfem::pipeline {
// The host's greedy colouring of one mesh (the paper's; it depends on neither the backend nor the
// point): computed on first use and shared by every point on the mesh (a memo, hence const methods
// over mutable members). Always asked with the same mesh: the one it belongs to (Model::orders).
// The Morton launch order is a device step of every point (mesh/morton.hpp).
class MeshOrders {
 public:
  const Coloring& greedy(const Mesh& mesh) const;  // greedy_coloring(mesh)
  double greedy_seconds() const { return greedy_s_; }

 private:
  mutable std::optional<Coloring> greedy_;
  mutable double greedy_s_ = 0;
};

// The set-up stages a point may run, in pipeline order: the report key (point.setup.<key>) and how a
// summary names it. first_matrix_s, a wall time, holds those a point ran (a-COO's sums them); the
// colourings timed only for comparison (coloring_greedy_s, coloring_device_s) are not stages.
struct SetupStage {
  const char* key;
  const char* label;
};
inline constexpr SetupStage setup_stages[] = {
    {"mesh_to_device_s", "upload"},      {"graph_s", "graph"},
    {"lower_graph_s", "lower triangle"}, {"coloring_s", "colouring"},
    {"morton_order_s", "launch order"},  {"element_data_s", "element data"}};

// The device pattern that points on one mesh may share (the tuner's candidates): the mesh and DOF
// nodes on the execution space, the DOF graph and, for lower storage, its lower triangle. It holds
// the last one built (a Problem of one execution space, type-erased); a point that asks for the same
// space, components and storage takes it instead of building it again. Its owner (the tuner) decides
// how long the device memory stays taken.
class SharedPattern {
 public:
  template <class Exec>
  const Problem<Exec>* find(int components, bool lower) const {
    if (space_ != std::type_index(typeid(Exec)) || components_ != components || lower_ != lower)
      return nullptr;
    return static_cast<const Problem<Exec>*>(problem_.get());
  }
  template <class Exec>
  void keep(const Problem<Exec>& p, int components, bool lower) const {
    problem_.reset();  // the previous pattern goes first
    problem_ = std::make_shared<const Problem<Exec>>(p);
    space_ = std::type_index(typeid(Exec));
    components_ = components;
    lower_ = lower;
  }

 private:
  mutable std::shared_ptr<const void> problem_;
  mutable std::type_index space_ = std::type_index(typeid(void));
  mutable int components_ = 0;
  mutable bool lower_ = false;
};

// On the host once per mesh, or on the device: a box mesh's cell parity, else Kokkos Kernels.
enum class ColoringMethod { greedy, device };

// What a point's set-up builds: the storage and race handling decide (assembly/strategies.hpp).
struct SetupChoice {
  bool pattern = true;    // the DOF graph; false: a-COO builds its own, EbE products need none
  bool lower = false;     // symmetric mappings: the lower triangle (the full pattern's columns go)
  bool coloring = false;  // coloured races and coloured EbE products
  ColoringMethod coloring_method = ColoringMethod::greedy;
  bool launch_order = false;    // uncoloured element-centric kernels take the elements in Morton order
  bool time_colorings = false;  // also time both colourings, whichever is used (pre-processing report)
  // Bytes of the element data to come: the DOF graph's workspace is made at least this large and
  // kept in Problem::spare for it, not freed (0: freed).
  std::size_t spare_bytes = 0;
  // Take the upload and the pattern from here when it holds them, else leave them there (the tuner).
  const SharedPattern* share = nullptr;
};

// The set-up of a point that assembles into CSR with mapping x race (the coloured races colour by
// `coloring`; the other element-centric ones launch in Morton order when `morton`).
SetupChoice csr_setup(MappingKind mapping, RaceKind race, ColoringMethod coloring, bool morton);

// The device data of one point and the seconds of each step (fenced). `times` holds the report's
// setup fields: mesh_to_device_s, graph_s, lower_graph_s, coloring_s, coloring_method,
// coloring_found_by, colors,
// morton_order_s, coloring_greedy_s, coloring_device_s (those of the steps taken).
template <class Exec>
struct Setup {
  Problem<Exec> problem;
  nlohmann::json times = nlohmann::json::object();
};

// `dofs`: the DOF map of `mesh`'s family; components: DOFs per DOF node (the problem's).
template <class Exec>
Setup<Exec> make_setup(const Exec& exec, const Mesh& mesh, const DofMap& dofs, int components,
                       const MeshOrders& orders, const SetupChoice& choice);

#define KFEM_EXTERN_MAKE_SETUP(Exec)                                                         \
  extern template Setup<Exec> make_setup<Exec>(const Exec&, const Mesh&, const DofMap&, int, \
                                               const MeshOrders&, const SetupChoice&);
KFEM_FOR_EACH_EXEC_SPACE(KFEM_EXTERN_MAKE_SETUP)
#undef KFEM_EXTERN_MAKE_SETUP
}  // namespace kfem::pipeline
