// The storage axis: where an assembly leaves the global operator, and so which path a point takes,
// what its report's `storage` names and which operator its solve applies (MFEM's assembly levels).
//   csr        the DOF graph's pattern, every entry, filled by a mapping (pipeline/point.cpp)
//   csr-lower  its lower triangle, written by the symmetric mappings; y = (L + L^T - D) x
//   acoo       amorim's row lists, consolidated into CSR: no pattern, no colouring (point_acoo.cpp)
//   element    element matrices kept; the solve applies them element by element (EbE-v1)
//   ebe        nothing kept: the solve recomputes Ke in every product (EbE-v2, matrix-free)
//   bsr        C x C node blocks on the node graph (C = DOFs per node; sparsity/bsr.hpp), written
//              whole by the generic mappings and hex8's element-centric full-storage fast paths
//   bsr-lower  the blocks of the node graph's lower triangle, written by the symmetric mappings
//              that declare lower_blocks (sympairs) and symbox-owner; y = (L + L^T - D) x
// element and ebe assemble the CSR too, for verification and the assembly figures; only their
// solve leaves it (solve_ebe.cpp).
//
// The storage contract, what a storage tag has (checked by StorageTraits at registration):
//   static constexpr const char* name, help;   the name users type (--storage, assembly.storage)
//   static constexpr storage::Path path;       the pipeline path that fills it
// and, optional (defaults in StorageTraits):
//   lower = false                     only the lower triangle (columns <= row) is stored
//   distributed = false               mpirun's ranks can each hold their rows of it
//   solve_with = SolveOperator::csr   the operator a solve applies
//   blocks = false                    C x C node blocks instead of scalar rows (AssemblerChoice::blocks)
//
// Adding a storage = its file (a tag as above, and its path where none fits) + one registry line.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "kfem/assembly/strategies.hpp"
#include "kfem/core/contract.hpp"

namespace kfem::pipeline {
// The operator CG applies: the assembled CSR or amorim's element-by-element operators (EbE-v1:
// element matrices stored, EbE-v2: recomputed in every product). `--operator` spells the storages
// element and ebe this way.
enum class SolveOperator { csr, ebe_v1, ebe_v2 };
inline constexpr std::array<std::pair<const char*, SolveOperator>, 3> solve_operators{
    {{"csr", SolveOperator::csr}, {"ebe-v1", SolveOperator::ebe_v1}, {"ebe-v2", SolveOperator::ebe_v2}}};
inline std::string name_of(SolveOperator k) {
  for (const auto& [name, kind] : solve_operators)
    if (kind == k) return name;
  return "?";
}

enum class StorageKind { csr, csr_lower, acoo, element, ebe, bsr, bsr_lower };

namespace storage {
// How the pipeline fills a storage: a mapping writes into the DOF graph's pattern, or pushes onto
// row lists that are consolidated afterwards (no pattern).
enum class Path { pattern, row_lists };

struct Csr {
  static constexpr const char* name = "csr";
  static constexpr const char* help = "compressed sparse rows, every entry; Kokkos Kernels spmv";
  static constexpr Path path = Path::pattern;
  static constexpr bool distributed = true;
};
struct CsrLower {
  static constexpr const char* name = "csr-lower";
  static constexpr const char* help =
      "the lower triangle of the symmetric matrix, as the symmetric mappings write it; y = (L + L^T - D) x";
  static constexpr Path path = Path::pattern;
  static constexpr bool lower = true;
};
struct Acoo {
  static constexpr const char* name = "acoo";
  static constexpr const char* help =
      "amorim's a-COO: Ke entries pushed onto per-row lists, then consolidated into CSR; no DOF graph, no "
      "colouring, no CSR index";
  static constexpr Path path = Path::row_lists;
};
// tour: bsr-tag
struct Bsr {
  static constexpr const char* name = "bsr";
  static constexpr const char* help =
      "block storage: C x C node blocks on the node graph (C = DOFs per node), one column id per block; "
      "kfem's block spmv";
  static constexpr Path path = Path::pattern;
  static constexpr bool blocks = true;
};
// tour: end bsr-tag
struct BsrLower {
  static constexpr const char* name = "bsr-lower";
  static constexpr const char* help =
      "the node blocks of the lower triangle (node column <= node row), as sympairs and symbox-owner "
      "write them; kfem's block spmv, y = (L + L^T - D) x";
  static constexpr Path path = Path::pattern;
  static constexpr bool blocks = true;
  static constexpr bool lower = true;
};
struct Element {
  static constexpr const char* name = "element";
  static constexpr const char* help =
      "element matrices kept; the solve applies them element by element, amorim's EbE-v1";
  static constexpr Path path = Path::pattern;
  static constexpr SolveOperator solve_with = SolveOperator::ebe_v1;
};
struct Ebe {
  static constexpr const char* name = "ebe";
  static constexpr const char* help =
      "matrix-free: the solve recomputes every Ke in every product, amorim's EbE-v2";
  static constexpr Path path = Path::pattern;
  static constexpr SolveOperator solve_with = SolveOperator::ebe_v2;
};
}  // namespace storage

namespace storage_contract {
template <class T, class = void>
struct has_path : std::false_type {};
template <class T>
struct has_path<T, std::void_t<decltype(storage::Path(T::path))>> : std::true_type {};
#define KFEM_STORAGE_HOOK(hook, type, fallback)         \
  template <class T, class = void>                      \
  struct hook##_of {                                    \
    static constexpr type value = fallback;             \
  };                                                    \
  template <class T>                                    \
  struct hook##_of<T, std::void_t<decltype(T::hook)>> { \
    static constexpr type value = T::hook;              \
  };
KFEM_STORAGE_HOOK(lower, bool, false)
KFEM_STORAGE_HOOK(distributed, bool, false)
KFEM_STORAGE_HOOK(solve_with, pipeline::SolveOperator, pipeline::SolveOperator::csr)
KFEM_STORAGE_HOOK(blocks, bool, false)
#undef KFEM_STORAGE_HOOK
}  // namespace storage_contract

// A storage tag, checked: a tag that misses a member fails here with the member's name; every
// optional hook with its default.
template <class Tag>
struct StorageTraits {
  static_assert(contract::has_name_and_help<Tag>::value,
                "a storage tag needs `static constexpr const char* name` and `help` (storage.hpp)");
  static_assert(storage_contract::has_path<Tag>::value,
                "a storage tag needs `static constexpr storage::Path path` (storage.hpp)");
  using type = Tag;
  static constexpr storage::Path path = Tag::path;
  static constexpr bool lower = storage_contract::lower_of<Tag>::value;
  static constexpr bool distributed = storage_contract::distributed_of<Tag>::value;
  static constexpr SolveOperator solve_with = storage_contract::solve_with_of<Tag>::value;
  static constexpr bool blocks = storage_contract::blocks_of<Tag>::value;
};

template <class Tag, StorageKind Kind>
struct StorageEntry : StorageTraits<Tag> {
  static constexpr StorageKind kind = Kind;
  static constexpr const char* name() { return Tag::name; }
  static constexpr const char* help() { return Tag::help; }
};
// The storages kfem knows, in the order --help lists them.
using StorageRegistry = std::tuple<
    StorageEntry<storage::Csr, StorageKind::csr>, StorageEntry<storage::CsrLower, StorageKind::csr_lower>,
    StorageEntry<storage::Acoo, StorageKind::acoo>, StorageEntry<storage::Element, StorageKind::element>,
    StorageEntry<storage::Ebe, StorageKind::ebe>, StorageEntry<storage::Bsr, StorageKind::bsr>,
    StorageEntry<storage::BsrLower, StorageKind::bsr_lower>>;

inline std::string name_of(StorageKind k) {
  return entry_name<StorageRegistry>(k);
}
// What the point of a storage asks of the pipeline, read off its entry.
struct StorageFacts {
  storage::Path path = storage::Path::pattern;
  bool lower = false;
  bool distributed = false;
  SolveOperator solve_with = SolveOperator::csr;
  bool blocks = false;
};
inline StorageFacts facts_of(StorageKind k) {
  StorageFacts out;
  dispatch<StorageRegistry>(k, [&](auto tag) {
    using T = StorageTraits<decltype(tag)>;
    out = {T::path, T::lower, T::distributed, T::solve_with, T::blocks};
  });
  return out;
}

// The storage of a point, from what the user named: `storage` ("default" or a registry name), the
// race ("acoo" is the storage of that name) and the CG operator ("ebe-v1" / "ebe-v2" are the storages
// element / ebe, except with race acoo, where they choose the solve's operator alone). Unnamed, a symmetric
// mapping's storage is csr-lower, any other's csr. InputError, in one line, for an unknown name or names that
// contradict each other or the mapping.
StorageKind storage_for(MappingKind mapping, const std::string& storage, const std::string& race = "default",
                        const std::string& op = "csr");
}  // namespace kfem::pipeline
