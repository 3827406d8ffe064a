// Result files and times as the commands print them, and the output files of a command: checked
// before any work starts, written to temporaries next to their targets and renamed into place only
// when the command has finished, so a failed command leaves nothing behind (issue 15).
#pragma once
#include <fcntl.h>
#include <fmt/core.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "kfem/core/atomic_file.hpp"
#include "kfem/core/error.hpp"

#ifndef KFEM_PLOT_SCRIPT  // set by miniapp/CMakeLists.txt
#define KFEM_PLOT_SCRIPT ""
#endif

namespace kfem::app {
// A file a command reads or writes, with what asked for it: "option --report",
// "d.yaml: key 'output.report'", "the deck". Error messages start with `what`.
struct NamedPath {
  std::string what, path;
};

namespace output_checks {
namespace fs = std::filesystem;

inline fs::file_type type_of(const fs::path& p, bool follow) {
  std::error_code ec;  // not_found also when a parent is not a directory (ENOTDIR)
  return (follow ? fs::status(p, ec) : fs::symlink_status(p, ec)).type();
}

inline std::string kind(fs::file_type t) {
  switch (t) {
    case fs::file_type::regular:
      return "a regular file";
    case fs::file_type::directory:
      return "a directory";
    case fs::file_type::symlink:
      return "a symbolic link";
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::socket:
      return "a socket";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::character:
      return "a character device";
    default:
      return "not a regular file";
  }
}

// `p` or its nearest ancestor that exists ("." for a relative path none of whose parts exist).
inline fs::path nearest_existing(fs::path p) {
  while (!p.empty() && type_of(p, true) == fs::file_type::not_found) p = p.parent_path();
  return p.empty() ? "." : p;
}

// Why `dir` is not an existing directory ("" if it is): the first component that is missing or
// not a directory. Whether files can be made there is probe()'s question.
inline std::string folder_problem(const fs::path& dir) {
  const fs::path up = nearest_existing(dir);
  if (type_of(up, true) != fs::file_type::directory) return "'" + up.string() + "' is not a directory";
  if (up != dir) return "directory '" + dir.string() + "' does not exist";
  return "";
}

// Why `path` cannot be replaced by a new regular file ("" if it can).
inline std::string file_problem(const fs::path& path) {
  const fs::path name = path.filename();
  if (name.empty() || name == "." || name == "..") return "names a directory, not a file";
  if (std::string p = folder_problem(path.parent_path().empty() ? "." : path.parent_path()); !p.empty())
    return p;
  switch (const fs::file_type t = type_of(path, false)) {
    case fs::file_type::not_found:
    case fs::file_type::regular:
      return "";
    // The finished file is renamed over its target, which would replace the link itself and
    // not the file it points to: refused rather than done silently.
    case fs::file_type::symlink:
      return "is a symbolic link (kfem would replace the link, not its target)";
    default:
      return "is " + kind(t) + ", not a regular file";
  }
}

// Why no file can be made in the existing directory `dir` ("" if one can): creates and removes a
// file there, which also catches read-only and pseudo file systems where access() says yes.
inline std::string probe(const fs::path& dir) {
  const fs::path p = (dir.empty() ? fs::path(".") : dir) / (".kfem-probe-" + std::to_string(::getpid()));
  const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0)
    return "cannot create files in '" + p.parent_path().string() + "' (" + std::strerror(errno) + ")";
  ::close(fd);
  ::unlink(p.c_str());
  return "";
}

// The file `p` names, for comparing outputs with each other (they need not exist yet); "out/" is
// "out".
inline fs::path identity(const std::string& p) {
  std::error_code ec;
  fs::path id = fs::weakly_canonical(fs::absolute(p), ec);
  if (ec) id = fs::absolute(p).lexically_normal();
  return id.has_filename() || id == id.root_path() ? id : id.parent_path();
}
}  // namespace output_checks

// The output files of one command. The constructor checks every one before any work starts (its
// folder exists and takes new files, it is not a directory, FIFO, device or symbolic link, not an input
// nor another output; the bench folder is a directory or is created) and throws InputError
// "WHAT 'PATH': PROBLEM". Writers write temp(path) (its staging_path, core/atomic_file.hpp); commit()
// moves them all into place when the command has finished. Destroyed uncommitted (an exception,
// bad input) it removes the temporaries and the folder it created: nothing is left behind; so does
// the crash handler (discard). A bench stopped by SIGINT or SIGTERM keeps the points finished so
// far in its hidden temporary. While it lives it is the process's current() set, which write_json
// and finish_bench consult (bench_stages.cpp writes through them too).
class OutputSet {
 public:
  OutputSet(const std::vector<NamedPath>& files, const std::vector<NamedPath>& inputs,
            const std::optional<NamedPath>& folder = std::nullopt) {
    namespace fs = std::filesystem;
    using namespace output_checks;
    const auto fail = [](const NamedPath& o, const std::string& problem) {
      throw InputError(o.what + " '" + o.path + "': " + problem);
    };
    if (folder) {
      const fs::file_type t = type_of(folder->path, true);
      if (t == fs::file_type::not_found) {
        if (const std::string p = folder_problem(nearest_existing(folder->path)); !p.empty())
          fail(*folder, "cannot be created: " + p);
      } else if (t != fs::file_type::directory) {
        fail(*folder, "is " + kind(t) + ", not a directory");
      }
    }
    std::vector<fs::path> ids;
    for (const NamedPath& o : files) {
      if (o.path.empty()) continue;
      const fs::path parent = fs::path(o.path).parent_path();
      // A file in the bench folder that is yet to be created needs no folder check.
      const bool in_new_folder = folder && type_of(folder->path, true) == fs::file_type::not_found &&
                                 identity(parent.string()) == identity(folder->path);
      if (!in_new_folder) {
        if (const std::string p = file_problem(o.path); !p.empty()) fail(o, p);
        if (const std::string p = probe(parent); !p.empty()) fail(o, p);
      }
      for (const NamedPath& in : inputs) {
        std::error_code ec;
        if (fs::equivalent(o.path, in.path, ec)) fail(o, "is " + in.what + " (an input)");
      }
      const fs::path id = identity(o.path);
      for (std::size_t i = 0; i < entries_.size(); ++i)
        if (ids[i] == id) fail(o, "is also the path of " + entries_[i].what);
      ids.push_back(id);
      const std::string temp = staging_path(o.path);
      entries_.push_back({o.what, o.path, temp, atomic_temporary(temp)});
    }
    if (folder) create_folder(*folder);
    previous_ = current();
    current() = this;
  }
  ~OutputSet() {
    current() = previous_;
    if (committed_) return;
    std::error_code ec;
    for (const Entry& e : entries_) std::filesystem::remove(e.temp, ec);
    for (const auto& dir : created_) std::filesystem::remove(dir, ec);  // only if still empty
  }
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  // Where to write output `path` ("" for "": not requested); std::logic_error if not in the set.
  const std::string& temp(const std::string& path) const {
    static const std::string none;
    if (path.empty()) return none;
    for (const Entry& e : entries_)
      if (e.path == path) return e.temp;
    throw std::logic_error("OutputSet: '" + path + "' is not an output of this command");
  }
  // temp(path) for an output of the set, path itself otherwise.
  const std::string& staged(const std::string& path) const {
    for (const Entry& e : entries_)
      if (e.path == path) return e.temp;
    return path;
  }
  // Moves every written temporary over its target (an output never written stays absent).
  void commit() {
    if (committed_) return;
    for (const Entry& e : entries_) {
      if (output_checks::type_of(e.temp, false) == std::filesystem::file_type::not_found) continue;
      try {
        move_into_place(e.temp, e.path);
      } catch (const InputError& failed) {
        throw InputError(e.what + ": " + failed.what());
      }
    }
    committed_ = true;
  }
  // The destructor's clean-up for a crash handler: async-signal-safe calls only.
  void discard() const noexcept {
    for (const Entry& e : entries_) ::unlink(e.temp.c_str()), ::unlink(e.part.c_str());
    for (const auto& dir : created_) ::rmdir(dir.c_str());
  }
  // The set of the command running now, or null.
  static OutputSet*& current() {
    static OutputSet* set = nullptr;
    return set;
  }

 private:
  struct Entry {
    std::string what, path, temp, part;  // part: AtomicFile's own temporary while it writes temp
  };
  // Like create_directories, remembering each folder it made (deepest first) for the destructor.
  void create_folder(const NamedPath& folder) {
    namespace fs = std::filesystem;
    std::vector<fs::path> missing;
    for (fs::path p = folder.path; !p.empty() && output_checks::type_of(p, true) == fs::file_type::not_found;
         p = p.parent_path())
      missing.push_back(p);
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
      std::error_code ec;
      const bool made = fs::create_directory(*it, ec);  // false for "out/" after "out"
      if (ec) {
        for (const auto& dir : created_) fs::remove(dir, ec);
        throw InputError(folder.what + " '" + folder.path + "': cannot create directory '" + it->string() +
                         "' (" + ec.message() + ")");
      }
      if (made) created_.insert(created_.begin(), *it);
    }
  }
  std::vector<Entry> entries_;
  std::vector<std::filesystem::path> created_;
  bool committed_ = false;
  OutputSet* previous_ = nullptr;
};

// Writes JSON atomically (never half a file), to the current OutputSet's temporary when `path` is
// one of its outputs (bench rewrites results.json after every point).
inline void write_json(const std::string& path, const nlohmann::json& j) {
  write_atomically(OutputSet::current() ? OutputSet::current()->staged(path) : path, j.dump(2) + "\n");
}

// "12.3 us", "4.567 ms", "1.23 s"
inline std::string fmt_time(double s) {
  return s < 1e-3 ? fmt::format("{:.1f} us", s * 1e6)
         : s < 1  ? fmt::format("{:.3f} ms", s * 1e3)
                  : fmt::format("{:.2f} s", s);
}
// Figures and tables next to a results file: reports/plot.py (KFEM_PLOT overrides its path; the
// source tree's copy, or ./reports/plot.py, otherwise) with Debian's python3 and matplotlib. A
// missing plotter or matplotlib is reported, not fatal: the results are on disk already.
inline void make_plots(const std::string& results) {
  namespace fs = std::filesystem;
  std::string script;
  for (const char* c :
       std::initializer_list<const char*>{std::getenv("KFEM_PLOT"), KFEM_PLOT_SCRIPT, "reports/plot.py"})
    if (c && *c && fs::exists(c)) {
      script = c;
      break;
    }
  const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  if (script.empty()) {
    fmt::print("plots: skipped (reports/plot.py not found; set KFEM_PLOT)\n");
    return;
  }
  const std::string cmd = python + " '" + script + "' '" + results + "' > '" + results + ".plots.log' 2>&1";
  const int rc = std::system(cmd.c_str());
  fmt::print("plots: {}\n", rc == 0 ? "written next to " + results + " (list in " + results + ".plots.log)"
                                    : "not made (see " + results + ".plots.log)");
}
// A point whose verification FAILED, for the line that says why a command exits 1: "pairs x atomic
// (float) on mesh '4x2x2': max rel diff 0.0123 (max abs diff 4.5e+06), tolerance 1e-05", or "...:
// the sparsity pattern differs from the oracle's". Bench, stage and run points alike (the order
// from 2 on); no row or column: the points do not record where the largest difference is.
inline std::string verification_failure(const nlohmann::json& p, const std::string& mesh = "") {
  std::string s = p.value("mapping", std::string("?"));
  if (p.contains("race")) s += " x " + p["race"].get<std::string>();
  if (p.contains("scalar")) s += " (" + p["scalar"].get<std::string>() + ")";
  const std::string name = !mesh.empty() ? mesh
                           : p.contains("mesh") && p["mesh"].is_object()
                               ? p["mesh"].value("name", std::string())
                               : std::string();
  if (!name.empty()) s += " on mesh '" + name + "'";
  if (p.contains("order") && p["order"].get<int>() > 1)
    s += " at order " + std::to_string(p["order"].get<int>());
  const nlohmann::json& v = p["verification"];
  if (!v.value("same_pattern", true)) return s + ": the sparsity pattern differs from the oracle's";
  s += fmt::format(": max rel diff {:.3g}", v.value("max_rel", 0.0));
  if (v.contains("max_abs")) s += fmt::format(" (max abs diff {:.3g})", v["max_abs"].get<double>());
  return s + fmt::format(", tolerance {:.3g}", v.value("tolerance", 0.0));
}

// The end of every bench: its results go into place (the sweep has finished, failed points
// included), then where they are, their figures, and the exit code: 1 if any point failed its
// verification, said on one stderr line (unless `quiet`: the caller says why itself).
inline int finish_bench(const std::string& path, const nlohmann::json& points, bool quiet = false) {
  if (OutputSet* outputs = OutputSet::current()) outputs->commit();
  fmt::print("results: {}\n", path);
  make_plots(path);
  std::size_t failed = 0;
  const nlohmann::json* first = nullptr;
  for (const auto& p : points)
    if (p["verification"]["status"] == "FAILED" && !failed++) first = &p;
  if (failed == 0) return 0;
  if (!quiet)
    fmt::print(stderr, "kfem: error: verification FAILED for {} of {} points; the first: {}\n", failed,
               points.size(), verification_failure(*first));
  return 1;
}
}  // namespace kfem::app
