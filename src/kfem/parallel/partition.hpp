// Element partitions for distributed runs: METIS k-way on the mesh's dual graph (elements joined
// through a shared face, or edge in 2D) for meshes read from files, recursive coordinate bisection
// of the element centroids for generated boxes (cuts across the longest extent: slabs along a
// cantilever). Both are deterministic, so every rank can check what rank 0 computed.
#pragma once
#include <string>
#include <vector>

#include "kfem/mesh/mesh.hpp"

namespace kfem::parallel {
enum class PartitionMethod { metis, rcb };
const char* name_of(PartitionMethod m);
bool metis_available();  // built with METIS (KFEM_ENABLE_MPI)

// part[e] in [0, parts) for every element. Throws InputError when parts < 1 or parts exceeds the
// element count, std::runtime_error when METIS fails or is not built in.
std::vector<int> partition_elements(const Mesh& mesh, int parts, PartitionMethod method);
}  // namespace kfem::parallel
