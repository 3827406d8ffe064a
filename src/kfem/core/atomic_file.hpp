// Files that appear whole or not at all, kfem's one implementation of it: every output (Matrix
// Market, VTU, Gmsh, the driver's reports and results, the tuner's cache) is written to a temporary
// in its target's folder and renamed over the target, which replaces it at once within one file
// system, so an error or a crash leaves no half-written file behind.
#pragma once
#include <cstdio>
#include <string>
#include <string_view>

namespace kfem {
// The temporary an AtomicFile writes for `path`: path + ".tmp".
std::string atomic_temporary(const std::string& path);
// A hidden name next to `path` where a finished file waits to replace it later (a command's outputs,
// until the command has finished): ".NAME.kfem-tmp-PID", apart for each process (.gitignore:
// *.kfem-tmp-*).
std::string staging_path(const std::string& path);
// Renames the finished file `from` over `to` in the same folder: the step that makes a file appear
// whole. On failure `from` is removed and InputError "cannot write TO: rename failed: REASON".
void move_into_place(const std::string& from, const std::string& to);
// `data` as the whole content of `path`, through an AtomicFile (its InputErrors).
void write_atomically(const std::string& path, std::string_view data);

namespace detail {
// An output file that only appears at its path once commit() succeeds: data goes to
// atomic_temporary(path) and commit() moves it into place; destroyed without commit (an
// exception), the temporary is removed.
class AtomicFile {
 public:
  explicit AtomicFile(const std::string& path);  // InputError if the temporary cannot be created
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
