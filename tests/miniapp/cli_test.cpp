// End-to-end tests of the kfem driver: runs the real executable (KFEM_EXE) and checks exit codes,
// the one-line error contract on stderr, and that every exported file reads back.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "kfem/io/matrix_market.hpp"
#include "kfem/mesh/gmsh.hpp"

namespace fs = std::filesystem;

namespace {
struct Outcome {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> nonempty_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) lines.push_back(l);
  return lines;
}

// Every test works in its own directory, so relative outputs (reports, exports) never collide.
// Lower-case name: ctest sees these as miniapp.*, which `ctest -R miniapp` selects.
class miniapp : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("kfem_cli_" + std::to_string(::getpid()) + "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);  // keep the evidence of a failure
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(dir_ / name) << text; }

  // Runs `kfem ARGS` inside the test directory; ARGS is shell text (our paths have no spaces).
  Outcome kfem(const std::string& args) const {
    const std::string cmd = "cd '" + dir_.string() + "' && '" KFEM_EXE "' " + args + " >'" + path("stdout.txt") +
                            "' 2>'" + path("stderr.txt") + "'";
    const int status = std::system(cmd.c_str());
    Outcome o;
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    o.out = slurp(path("stdout.txt"));
    o.err = slurp(path("stderr.txt"));
    return o;
  }

  // Bad input: non-zero exit and exactly one stderr line, "kfem: ...", containing `needle`.
  void expect_one_error_line(const Outcome& o, const std::string& needle) const {
    EXPECT_NE(o.code, 0);
    const auto lines = nonempty_lines(o.err);
    ASSERT_EQ(lines.size(), 1u) << "stderr:\n" << o.err;
    EXPECT_EQ(lines[0].rfind("kfem:", 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find(needle), std::string::npos) << "expected '" << needle << "' in: " << lines[0];
  }

  fs::path dir_;
};

TEST_F(miniapp, HelpExitsZeroAndListsSubcommands) {
  const Outcome o = kfem("--help");
  EXPECT_EQ(o.code, 0) << o.err;
  for (const char* sub : {"info", "run", "verify", "bench"}) EXPECT_NE(o.out.find(sub), std::string::npos) << sub;
  EXPECT_EQ(kfem("run --help").code, 0);
}

// CLI11 answers a lone unknown word with "A subcommand is required", without naming it, so only
// the form of the message is checked here.
TEST_F(miniapp, UnknownSubcommandIsOneLineError) { expect_one_error_line(kfem("frobnicate"), "kfem:"); }

TEST_F(miniapp, UnknownOptionIsOneLineError) {
  expect_one_error_line(kfem("run --frobnicate"), "--frobnicate");
  expect_one_error_line(kfem("verify --mesh 2x1x1 --frobnicate=3"), "--frobnicate");
  expect_one_error_line(kfem("run --repetitions abc"), "--repetitions");
}

TEST_F(miniapp, UnknownDeckKeyIsNamed) {
  write("deck.yaml", "mesh: {sise: 3}\n");
  expect_one_error_line(kfem("run deck.yaml"), "mesh.sise");
}

TEST_F(miniapp, WrongTypeInDeckIsNamed) {
  write("deck.yaml", "bench: {repetitions: abc}\n");
  expect_one_error_line(kfem("run deck.yaml"), "bench.repetitions");
}

TEST_F(miniapp, MissingMeshFileIsNamed) {
  expect_one_error_line(kfem("run --mesh nothere.msh --no-solve"), "nothere.msh");
}

// A Gmsh file cut off inside $Nodes: the reader must say which file (and fail cleanly).
TEST_F(miniapp, TruncatedGmshFileIsNamed) {
  write("bad.msh",
        "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
        "$Nodes\n1 8 1 8\n3 1 0 8\n1\n2\n3\n");
  expect_one_error_line(kfem("run --mesh bad.msh --no-solve"), "bad.msh");
}

TEST_F(miniapp, UnknownMappingIsNamed) {
  expect_one_error_line(kfem("verify --mesh 2x1x1 --mapping warp16"), "warp16");
}

// The full `run` path on a tiny beam: report, matrix, mesh and solution exports all read back.
TEST_F(miniapp, RunWritesReportAndExports) {
  const Outcome o = kfem(
      "run --mesh 8x2x2 --repetitions 1 --warmup 0 --export-matrix K.mtx --export-mesh m.msh "
      "--export-solution u.vtu --report r.json");
  ASSERT_EQ(o.code, 0) << o.out << o.err;

  const auto report = nlohmann::json::parse(slurp(path("r.json")));
  EXPECT_EQ(report.at("kfem_report"), 1);
  EXPECT_EQ(report.at("command"), "run");
  const auto& point = report.at("point");
  EXPECT_EQ(point.at("verification").at("status"), "passed");
  EXPECT_TRUE(point.at("solve").at("cg_converged").get<bool>());
  const long nodes = report.at("mesh").at("nodes").get<long>();
  EXPECT_EQ(nodes, 9 * 3 * 3);
  EXPECT_EQ(report.at("mesh").at("elements").get<long>(), 8 * 2 * 2);

  const auto K = kfem::read_matrix_market<double>(path("K.mtx"));
  EXPECT_EQ(long(K.num_rows), 3 * nodes);
  EXPECT_EQ(long(K.nnz()), point.at("nnz").get<long>());

  const auto mesh = kfem::read_gmsh(path("m.msh"));
  EXPECT_EQ(long(mesh.num_nodes()), nodes);
  EXPECT_EQ(long(mesh.num_elements()), 8 * 2 * 2);

  EXPECT_NE(slurp(path("u.vtu")).find("NumberOfPoints"), std::string::npos);
}

TEST_F(miniapp, VerifyRandomDistortedPrintsOk) {
  const Outcome o = kfem(
      "verify --mesh 4x2x2 --renumber random --distort 0.1 --mapping element --mapping warp4 --race colored "
      "--race atomic");
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  const auto lines = nonempty_lines(o.out);
  ASSERT_EQ(lines.size(), 4u) << o.out;  // 2 mappings x 2 races x 1 scalar
  for (const auto& l : lines) EXPECT_EQ(l.substr(l.size() - 2), "ok") << l;
}

TEST_F(miniapp, InfoPrintsKokkos) {
  const Outcome o = kfem("info");
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("Kokkos"), std::string::npos) << o.out;
}
}  // namespace
