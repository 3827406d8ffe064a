// Files that appear whole or not at all: every writer of kfem's outputs (Matrix Market, VTU, Gmsh)
// goes through one, so an error or a crash leaves no half-written file behind.
#pragma once
#include <cstdio>
#include <string>
#include <string_view>

namespace kfem {
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
