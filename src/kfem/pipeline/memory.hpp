// Device memory of a graph-path point (CSR assembly, then CG): what a mesh costs per array, so that a
// mesh that cannot fit is refused before its values and index are allocated, with the sizes named,
// and `kfem info` can say how many hex8 elements the device holds per storage and scalar.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace kfem::pipeline {
struct MeshCounts {
  std::int64_t elements = 0, dof_nodes = 0;
  int components = 3, nodes_per_element = 8, vertices = 8;
};

// Bytes on the device, by what holds them.
struct PointMemory {
  double mesh = 0;          // coordinates, connectivity, element DOF nodes, launch order
  double pattern = 0;       // node graph, DOF pattern (lower storage: the lower triangle's)
  double element_data = 0;  // the mapping's per-element coordinates, nodes and CSR index
  double values = 0;        // CSR values of the stored triangle or the full matrix
  double solve = 0;         // CG's vectors (x, b, r, z, p, Ap, 1/diag)
  double total() const { return mesh + pattern + element_data + values + solve; }
  double later() const { return element_data + values + solve; }  // allocated after the pattern
};

// element_data_bytes: per element, as the assembler allocates it (hex8 fast paths: 24 coordinates,
// 8 nodes, 64 slots, 8 row lengths; generic: vertex coordinates, DOF nodes, index target if any).
PointMemory point_memory(const MeshCounts& m, std::int64_t nnz_full, std::int64_t nnz_stored,
                         bool lower_storage, int scalar_bytes, double element_data_bytes, bool solve);

double hex8_element_data_bytes(int scalar_bytes);
double generic_element_data_bytes(int scalar_bytes, int vertices, int nsh, bool index_target);

// InputError (one line) when what is still to be allocated exceeds free_bytes, naming each array.
void check_point_memory(const std::string& where, const PointMemory& need, double free_bytes);

// `kfem info`: device bytes per hex8 element of a large box (a node per element, 27 neighbours) for
// full / lower storage x float / double with a CG solve, and how many elements free_bytes hold.
std::vector<std::string> hex8_capacity_lines(double free_bytes);
}  // namespace kfem::pipeline
