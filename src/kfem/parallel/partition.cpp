#include "partition.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <stdexcept>
#include <string>

#include "kfem/core/error.hpp"

#if KFEM_HAVE_METIS
#include <metis.h>
#endif

namespace kfem::parallel {
namespace {
using Centroid = std::array<double, 3>;

// Splits ids[first, last) into `parts` parts numbered from `base`: the longest axis of their
// bounding box is cut at the element count proportional to the parts on each side (so 3 parts work).
void bisect(std::vector<ordinal_t>& ids, std::size_t first, std::size_t last, int parts, int base,
            const std::vector<Centroid>& c, std::vector<int>& part) {
  if (parts == 1) {
    for (std::size_t i = first; i < last; ++i) part[std::size_t(ids[i])] = base;
    return;
  }
  Centroid lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
  for (std::size_t i = first; i < last; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], c[std::size_t(ids[i])][d]);
      hi[d] = std::max(hi[d], c[std::size_t(ids[i])][d]);
    }
  int axis = 0;
  for (int d = 1; d < 3; ++d)
    if (hi[d] - lo[d] > hi[axis] - lo[axis]) axis = d;
  const int left = parts / 2;
  const std::size_t mid = first + (last - first) * std::size_t(left) / std::size_t(parts);
  // ties broken by element id: the same cut on every rank and run
  std::nth_element(ids.begin() + std::ptrdiff_t(first), ids.begin() + std::ptrdiff_t(mid),
                   ids.begin() + std::ptrdiff_t(last), [&](ordinal_t a, ordinal_t b) {
                     const double ca = c[std::size_t(a)][axis], cb = c[std::size_t(b)][axis];
                     return ca < cb || (ca == cb && a < b);
                   });
  bisect(ids, first, mid, left, base, c, part);
  bisect(ids, mid, last, parts - left, base + left, c, part);
}

std::vector<int> rcb(const Mesh& mesh, int parts) {
  const std::size_t ne = mesh.num_elements();
  const int nv = mesh.nodes_per_element();
  std::vector<Centroid> c(ne, Centroid{0, 0, 0});
  for (std::size_t e = 0; e < ne; ++e)
    for (int a = 0; a < nv; ++a)
      for (int d = 0; d < 3; ++d) c[e][d] += mesh.nodes[std::size_t(mesh.elements[e][a])][d] / nv;
  std::vector<ordinal_t> ids(ne);
  std::iota(ids.begin(), ids.end(), ordinal_t(0));
  std::vector<int> part(ne, 0);
  bisect(ids, 0, ne, parts, 0, c, part);
  return part;
}

#if KFEM_HAVE_METIS
std::vector<int> metis(const Mesh& mesh, int parts) {
  const std::size_t ne = mesh.num_elements();
  const int nv = mesh.nodes_per_element();
  std::vector<idx_t> eptr(ne + 1), eind(ne * std::size_t(nv));
  for (std::size_t e = 0; e < ne; ++e) {
    eptr[e] = idx_t(e * std::size_t(nv));
    for (int a = 0; a < nv; ++a) eind[e * std::size_t(nv) + std::size_t(a)] = idx_t(mesh.elements[e][a]);
  }
  eptr[ne] = idx_t(ne * std::size_t(nv));
  idx_t n_el = idx_t(ne), n_nodes = idx_t(mesh.num_nodes()), nparts = parts, objval = 0;
  // dual-graph neighbours share a face: 4 vertices (hex8 quads), 3 (prism triangles; its quads
  // share 4, which 3 includes), 2 (tri3 edges)
  idx_t ncommon = mesh.cell == CellType::hex8 ? 4 : mesh.cell == CellType::prism6 ? 3 : 2;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 7;  // fixed: the same partition in every run
  options[METIS_OPTION_NUMBERING] = 0;
  std::vector<idx_t> epart(ne), npart(mesh.num_nodes());
  const int rc = METIS_PartMeshDual(&n_el, &n_nodes, eptr.data(), eind.data(), nullptr, nullptr, &ncommon,
                                    &nparts, nullptr, options, &objval, epart.data(), npart.data());
  if (rc != METIS_OK) throw std::runtime_error("METIS_PartMeshDual failed (code " + std::to_string(rc) + ")");
  return std::vector<int>(epart.begin(), epart.end());
}
#endif
}  // namespace

const char* name_of(PartitionMethod m) {
  return m == PartitionMethod::metis ? "metis" : "rcb";
}

bool metis_available() {
#if KFEM_HAVE_METIS
  return true;
#else
  return false;
#endif
}

std::vector<int> partition_elements(const Mesh& mesh, int parts, PartitionMethod method) {
  const std::size_t ne = mesh.num_elements();
  if (parts < 1 || std::size_t(parts) > ne)
    throw InputError("partition: " + std::to_string(parts) + " parts for " + std::to_string(ne) +
                     " elements (need 1 <= parts <= elements)");
  if (parts == 1) return std::vector<int>(ne, 0);
  if (method == PartitionMethod::rcb) return rcb(mesh, parts);
#if KFEM_HAVE_METIS
  return metis(mesh, parts);
#else
  throw std::runtime_error("partition: kfem is built without METIS (KFEM_ENABLE_MPI=OFF); use rcb");
#endif
}
}  // namespace kfem::parallel
