// MatrixMarket coordinate export of a host CSR matrix (for SciPy/Matlab cross-checks) and a
// reader for tests. Also holds the tmp-file-and-rename writer shared by the io/ writers.
#pragma once
#include <cstdio>
#include <string>
#include <string_view>

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

namespace detail {
// An output file that only appears at its path once commit() succeeds: data goes to path + ".tmp"
// and commit() renames it; destroyed without commit (an exception), the .tmp is removed.
class AtomicFile {
 public:
  explicit AtomicFile(const std::string& path);  // InputError if path + ".tmp" cannot be created
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  void write(std::string_view data);  // InputError on a short write
  void commit();                      // InputError if flushing, closing or renaming fails

 private:
  [[noreturn]] void fail(const char* what);
  std::string path_, tmp_;
  std::FILE* file_ = nullptr;
};
}  // namespace detail
}  // namespace kfem
