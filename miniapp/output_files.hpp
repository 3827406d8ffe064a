// Result files and times as the commands print them.
#pragma once
#include <fmt/core.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

#include "kfem/core/error.hpp"

#ifndef KFEM_PLOT_SCRIPT  // set by miniapp/CMakeLists.txt
#define KFEM_PLOT_SCRIPT ""
#endif

namespace kfem::app {
// Writes JSON through a temporary file so an interrupted run never leaves half a file.
inline void write_json(const std::string& path, const nlohmann::json& j) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    if (!f) throw InputError(path + ": cannot write report");
    f << j.dump(2) << "\n";
    if (!f) throw InputError(path + ": write failed");
  }
  std::filesystem::rename(tmp, path);
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
// The end of every bench: where the results are, their figures, and the exit code (1 if any
// point failed its verification).
inline int finish_bench(const std::string& path, const nlohmann::json& points) {
  fmt::print("results: {}\n", path);
  make_plots(path);
  for (const auto& p : points)
    if (p["verification"]["status"] == "FAILED") return 1;
  return 0;
}
}  // namespace kfem::app
