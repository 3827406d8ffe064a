// The bad-input tables' harness (issue 15): a row is a bad input (its files, the command line, the
// exit code, a fragment of the one stderr line); check_row runs the real executable (KFEM_EXE) in a
// directory of its own, which must hold exactly the row's input files afterwards.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "text_files.hpp"

namespace kfem::test {
namespace fs = std::filesystem;

struct Row {
  std::string name;                                        // the test's name (letters, digits, _)
  std::vector<std::pair<std::string, std::string>> files;  // written into the row's directory first
  std::string args;                                        // shell text after `kfem`
  int code;                                                // expected exit status
  std::string needle;                                      // in the single stderr line
  std::string env = {};                                    // VAR=value ... before the command, if any
};

// gtest (and so ctest's test names) show a row by its name.
inline void PrintTo(const Row& row, std::ostream* os) {
  *os << row.name;
}

// A unit cube as one hex8 (no physical groups); MIN and MAX are the $Nodes header's tag range
// (line 5), TAG8 the last node's tag.
inline std::string cube(const std::string& min_tag, const std::string& max_tag,
                        const std::string& tag8 = "8") {
  return "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"  // 1-3
         "$Nodes\n1 8 " +
         min_tag + " " + max_tag +  // 4-5
         "\n3 1 0 8\n1\n2\n3\n4\n5\n6\n7\n" + tag8 +
         "\n"
         "0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 1\n1 0 1\n1 1 1\n0 1 1\n$EndNodes\n"
         "$Elements\n1 1 1 1\n3 1 5 1\n1 1 2 3 4 5 6 7 " +
         tag8 + "\n$EndElements\n";
}

// Runs kfem in a scratch directory; stdout and stderr go to a sibling directory, so the scratch
// directory's listing is exactly what kfem left there.
class KfemRunner {
 public:
  explicit KfemRunner(const std::string& name)
      : base_(fs::temp_directory_path() / ("kfem_bad_input_" + std::to_string(::getpid()) + "_" + name)),
        dir_(base_ / "work") {
    fs::remove_all(base_);
    fs::create_directories(dir_);
  }
  ~KfemRunner() {
    if (!keep) fs::remove_all(base_);
  }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  // Every file under the directory with its size.
  std::map<std::string, std::uintmax_t> listing() const {
    std::map<std::string, std::uintmax_t> out;
    for (const auto& e : fs::recursive_directory_iterator(dir_))
      out[fs::relative(e.path(), dir_).string()] = e.is_regular_file() ? e.file_size() : 0;
    return out;
  }
  // Exit status (-1 when killed by a signal), stdout and stderr of `ENV kfem ARGS`.
  std::tuple<int, std::string, std::string> run(const std::string& args, const std::string& env = "") const {
    const fs::path out = base_ / "stdout.txt", err = base_ / "stderr.txt";
    const std::string cmd = "cd '" + dir_.string() + "' && " + env + " '" KFEM_EXE "' " + args + " >'" +
                            out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  }
  bool keep = false;

 private:
  fs::path base_, dir_;
};

// Exit code, a single "kfem: " stderr line holding the row's needle, and no file left behind.
inline void check_row(const Row& row) {
  KfemRunner k(row.name);
  for (const auto& [name, text] : row.files) k.write(name, text);
  const auto before = k.listing();
  const auto [code, out, err] = k.run(row.args, row.env);
  EXPECT_EQ(code, row.code) << "kfem " << row.args << "\nstdout:\n" << out << "stderr:\n" << err;
  const auto lines = nonempty_lines(err);
  EXPECT_EQ(lines.size(), 1u) << "kfem " << row.args << "\nstderr:\n" << err;
  if (!lines.empty()) {
    EXPECT_EQ(lines[0].rfind("kfem: ", 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find(row.needle), std::string::npos)
        << "expected '" << row.needle << "' in: " << lines[0];
  }
  EXPECT_EQ(k.listing(), before) << "kfem " << row.args << " left files behind";
  k.keep = ::testing::Test::HasFailure();
}
}  // namespace kfem::test
