// MatrixMarket coordinate export of a host CSR matrix (for SciPy/Matlab cross-checks) and a
// reader for tests.
#pragma once
#include <string>

#include "kfem/sparsity/csr.hpp"

namespace kfem {
// "%%MatrixMarket matrix coordinate real general|symmetric", 1-based, "% written by kfem".
// symmetric_lower: A holds only its lower triangle (col <= row), written as "symmetric"; an entry
// above the diagonal throws std::invalid_argument. Values: %.17g (double) / %.9g (float), enough
// to read back bit-exact. Writes path + ".tmp", then renames; InputError if the file cannot be
// written, and then neither path nor the .tmp is left behind.
template <class S>
void write_matrix_market(const std::string& path, const HostCsr<S>& A, bool symmetric_lower);

// Reads a square "coordinate real|integer general|symmetric" file. Symmetric files stay as
// stored (lower triangle). Columns sorted within each row; duplicate entries are kept.
// InputError on a missing file or malformed content.
template <class S>
HostCsr<S> read_matrix_market(const std::string& path);

}  // namespace kfem
