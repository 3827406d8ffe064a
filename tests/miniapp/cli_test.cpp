// End-to-end tests of the kfem driver: runs the real executable (KFEM_EXE) and checks exit codes,
// the one-line error contract on stderr, and that every exported file reads back.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "kfem/io/matrix_market.hpp"
#include "kfem/mesh/gmsh.hpp"
#include "kfem/problems/capacitor.hpp"
#include "text_files.hpp"

namespace fs = std::filesystem;

namespace {
struct Outcome {
  int code = -1;
  std::string out, err;
};

using kfem::test::nonempty_lines;
using kfem::test::slurp;

// Every test works in its own directory, so relative outputs (reports, exports) never collide.
// Lower-case name: ctest sees these as miniapp.*, which `ctest -R miniapp` selects.
class miniapp : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kfem_cli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
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
    const std::string cmd = "cd '" + dir_.string() + "' && '" KFEM_EXE "' " + args + " >'" +
                            path("stdout.txt") + "' 2>'" + path("stderr.txt") + "'";
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
  for (const char* sub : {"info", "run", "verify", "bench"})
    EXPECT_NE(o.out.find(sub), std::string::npos) << sub;
  EXPECT_EQ(kfem("run --help").code, 0);
}

// CLI11 answers a lone unknown word with "A subcommand is required", without naming it, so only
// the form of the message is checked here.
TEST_F(miniapp, UnknownSubcommandIsOneLineError) {
  expect_one_error_line(kfem("frobnicate"), "kfem:");
}

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
  // Memory per hex8 element, for each storage and scalar.
  for (const char* s :
       {"full storage, float", "full storage, double", "lower storage, float", "lower storage, double"})
    EXPECT_NE(o.out.find(s), std::string::npos) << s << "\n" << o.out;
}

// ---- amorim (issue 13): race acoo and the EbE CG operators ----------------------------------------

// The values of point-data array `name` of a kfem VTU (ASCII, shortest round-trip numbers).
std::vector<double> vtu_values(const std::string& text, const std::string& name) {
  std::vector<double> v;
  const std::size_t at = text.find("Name=\"" + name + "\"");
  if (at == std::string::npos) return v;
  const std::size_t begin = text.find('>', at) + 1, end = text.find("</DataArray>", begin);
  std::istringstream in(text.substr(begin, end - begin));
  for (double x; in >> x;) v.push_back(x);
  return v;
}

// max |a - b| / max |b|
double max_rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size() || b.empty()) return INFINITY;
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return diff / scale;
}

class amorim : public miniapp {
 protected:
  // `kfem run deck.yaml OPTIONS`: the report's point and the exported potential.
  std::pair<nlohmann::json, std::vector<double>> solve(const std::string& options) {
    const Outcome o =
        kfem("run deck.yaml --repetitions 1 --warmup 0 --report r.json --export-solution u.vtu " + options);
    EXPECT_EQ(o.code, 0) << options << "\n" << o.out << o.err;
    const auto point = nlohmann::json::parse(slurp(path("r.json"))).at("point");
    EXPECT_EQ(point.at("verification").at("status"), "passed") << options;
    EXPECT_TRUE(point.at("solve").at("cg_converged").get<bool>()) << options;
    return {point, vtu_values(slurp(path("u.vtu")), "potential")};
  }

  // Every variant solves to csr's solution and field energy within 1e-8 relative (tolerance 1e-12;
  // 1e-4 in float).
  void expect_same_solution_as_csr(const std::vector<std::string>& variants) {
    const auto [csr, u] = solve("");
    ASSERT_GT(u.size(), 10u);
    const double energy = csr.at("solve").at("field_energy").get<double>();
    for (const std::string& options : variants) {
      const auto [point, v] = solve(options);
      const double tol = options.find("float") != std::string::npos ? 1e-4 : 1e-8;
      EXPECT_LT(max_rel_diff(v, u), tol) << options;
      EXPECT_NEAR(point.at("solve").at("field_energy").get<double>(), energy, tol * energy) << options;
      const bool acoo = options.find("acoo") != std::string::npos;
      if (acoo) {
        EXPECT_EQ(point.at("race"), "acoo") << options;
        EXPECT_TRUE(point.at("acoo").contains("vs_graph_path")) << options;
      }
      if (options.find("ebe") != std::string::npos) {
        EXPECT_GT(point.at("solve").at("memory").at("bytes_per_element").get<double>(), 0.0) << options;
      }
    }
  }
};

TEST_F(amorim, NamesParseFromDeckAndOptions) {
  const Outcome info = kfem("info");
  EXPECT_NE(info.out.find("acoo"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("ebe-v1 ebe-v2"), std::string::npos) << info.out;
  write("deck.yaml",
        "problem: electrostatics\nmesh: {size: 'tri:6x3'}\nbc: {dirichlet: {xmin: 0.0, xmax: 1.0}}\n"
        "assembly: {race: acoo}\nsolver: {operator: ebe-v2}\n");
  const auto [point, u] = solve("");
  EXPECT_EQ(point.at("race"), "acoo");
  EXPECT_EQ(point.at("storage"), "acoo");    // the matrix is a-COO's; the solve's operator EbE-v2
  EXPECT_EQ(point.at("mapping"), "thread");  // a-COO's default: the paper's thread per element
  EXPECT_EQ(point.at("solve").at("operator"), "ebe-v2");
  EXPECT_EQ(point.at("solve").at("ebe").at("race"), "colored");
  EXPECT_EQ(u.size(), 7u * 4u);
}

TEST_F(amorim, BadNamesAreOneLineErrors) {
  expect_one_error_line(kfem("run --mesh 2x1x1 --operator ebe-v3"), "ebe-v3");
  expect_one_error_line(kfem("verify --mesh 2x1x1 --race acooo"), "acooo");
  write("deck.yaml", "solver: {operator: [csr, ebe]}\n");
  expect_one_error_line(kfem("run deck.yaml"), "solver.operator");
  write("deck.yaml", "mesh: {capacitor: {triangles: [2.0e4, 50]}}\n");
  expect_one_error_line(kfem("run deck.yaml"), "mesh.capacitor.triangles");
  // A hex8 fast path has its own CSR index: a-COO cannot push through it. Nothing is written.
  const Outcome o = kfem("run --mesh 2x1x1 --race acoo --mapping pairs --report r.json --export-mesh m.msh");
  expect_one_error_line(o, "'pairs' is a hex8 fast path");
  EXPECT_FALSE(fs::exists(path("r.json")));
  EXPECT_FALSE(fs::exists(path("m.msh")));
  expect_one_error_line(kfem("verify --mesh prism:2x1x1 --race acoo --mapping reg-jac"), "reg-jac");
}

// The storage axis: --storage / assembly.storage name the report's storage and choose the solve's
// operator; the older spellings (race acoo, operator ebe-v1 / ebe-v2) name the same storages.
TEST_F(amorim, StorageNamesTheReportAndTheSolve) {
  write("deck.yaml",
        "problem: electrostatics\nmesh: {size: 'tri:6x3'}\nbc: {dirichlet: {xmin: 0.0, xmax: 1.0}}\n"
        "assembly: {storage: element}\n");
  const auto [element, u] = solve("");
  EXPECT_EQ(element.at("storage"), "element");
  EXPECT_EQ(element.at("solve").at("operator"), "ebe-v1");
  for (const auto& [options, storage, op] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"--storage csr", "csr", "csr"},
           {"--storage ebe", "ebe", "ebe-v2"},
           {"--storage acoo", "acoo", "csr"},
           {"--storage default --race acoo", "acoo", "csr"},
           {"--storage default --operator ebe-v1", "element", "ebe-v1"}}) {
    const auto [point, v] = solve(options);
    EXPECT_EQ(point.at("storage"), storage) << options;
    EXPECT_EQ(point.at("solve").at("operator"), op) << options;
    EXPECT_LT(max_rel_diff(v, u), 1e-8) << options;
  }
  write("deck.yaml", "mesh: {size: 4x2x2}\nassembly: {mapping: [sympairs, pairs], race: atomic}\n");
  const Outcome o = kfem("bench deck.yaml --repetitions 1 --warmup 0 --out b");
  ASSERT_EQ(o.code, 0) << o.out << o.err;
  const auto points = nlohmann::json::parse(slurp(path("b/results.json"))).at("points");
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].at("storage"), "csr-lower");  // a symmetric mapping's own storage
  EXPECT_EQ(points[1].at("storage"), "csr");
}

// A distorted, randomly numbered tri box with a corner between a grounded and a charged side (no Gmsh).
TEST_F(amorim, AcooAndEbeSolveLikeCsrOnTriBox) {
  write("deck.yaml",
        "problem: electrostatics\nmesh: {size: 'tri:24x12', distort: 0.1, renumber: random}\n"
        "bc: {dirichlet: {xmin: 0.0, ymax: 1.0}}\nassembly: {mapping: thread}\n"
        "solver: {tolerance: 1.0e-12}\n");
  expect_same_solution_as_csr({"--race acoo", "--race acoo --mapping team", "--operator ebe-v1",
                               "--operator ebe-v2", "--operator ebe-v1 --race atomic",
                               "--operator ebe-v2 --race atomic", "--race acoo --operator ebe-v2",
                               "--race acoo --scalar float"});
}

TEST_F(amorim, AcooAndEbeSolveLikeCsrOnCapacitor) {
  if (!kfem::gmsh_available()) GTEST_SKIP() << "built with KFEM_WITH_GMSH=OFF";
  write("deck.yaml",
        "problem: electrostatics\nmesh: {size: capacitor, capacitor: {triangles: 2000}}\n"
        "bc: {dirichlet: {top_plate: 48.0, bottom_plate: 0.0}}\nassembly: {mapping: thread}\n"
        "solver: {tolerance: 1.0e-12, max_iterations: 50000}\n");
  expect_same_solution_as_csr({"--race acoo", "--operator ebe-v1", "--operator ebe-v2"});
}

// hex8 elasticity through a-COO (generic mapping) and the EbE operators: the same tip deflection.
TEST_F(amorim, Hex8ThroughAcooAndEbe) {
  const auto tip = [&](const std::string& options) {
    const Outcome o = kfem("run --mesh 6x2x2 --repetitions 1 --warmup 0 --report r.json " + options);
    EXPECT_EQ(o.code, 0) << options << "\n" << o.out << o.err;
    const auto point = nlohmann::json::parse(slurp(path("r.json"))).at("point");
    EXPECT_EQ(point.at("verification").at("status"), "passed") << options;
    return point.at("solve").at("tip_deflection_m").get<double>();
  };
  const double csr = tip("");
  for (const char* options :
       {"--race acoo", "--race acoo --mapping team", "--operator ebe-v1", "--operator ebe-v2",
        // a symmetric mapping's lower triangle is verified; the solve applies element matrices
        "--mapping sympairs --race atomic --storage element", "--storage bsr --mapping pairs --race atomic",
        "--storage bsr-lower --mapping sympairs --race atomic", "--storage bsr-lower --mapping sympairs"})
    EXPECT_NEAR(tip(options), csr, 1e-7 * std::abs(csr)) << options;
}

// Block Jacobi (solver.preconditioner / --preconditioner) on every storage with an assembled matrix:
// the report names it, the tip is Jacobi's; the deck key and the option are the same setting.
TEST_F(amorim, BlockJacobiOnEveryAssembledStorage) {
  const auto solved = [&](const std::string& options) {
    const Outcome o = kfem("run --mesh 6x2x2 --repetitions 1 --warmup 0 --report r.json " + options);
    EXPECT_EQ(o.code, 0) << options << "\n" << o.out << o.err;
    return nlohmann::json::parse(slurp(path("r.json"))).at("point").at("solve");
  };
  const auto jacobi = solved("");
  EXPECT_EQ(jacobi.at("preconditioner"), "jacobi");
  const double tip = jacobi.at("tip_deflection_m").get<double>();
  for (const char* options :
       {"--preconditioner block-jacobi", "--preconditioner block-jacobi --single-reduction",
        "--preconditioner block-jacobi --mapping sympairs --race atomic",
        "--preconditioner block-jacobi --storage bsr --mapping pairs --race atomic",
        "--preconditioner block-jacobi --storage bsr-lower --mapping sympairs --race atomic",
        "--preconditioner block-jacobi --race acoo"}) {
    const auto s = solved(options);
    EXPECT_EQ(s.at("preconditioner"), "block-jacobi") << options;
    EXPECT_TRUE(s.at("cg_converged").get<bool>()) << options;
    EXPECT_NEAR(s.at("tip_deflection_m").get<double>(), tip, 1e-7 * std::abs(tip)) << options;
  }
  write("deck.yaml", "mesh: {size: 6x2x2}\nsolver: {preconditioner: block-jacobi}\n");
  const Outcome o = kfem("run deck.yaml --repetitions 1 --warmup 0 --report r.json");
  ASSERT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("block Jacobi"), std::string::npos) << o.out;
  EXPECT_EQ(nlohmann::json::parse(slurp(path("r.json"))).at("point").at("solve").at("preconditioner"),
            "block-jacobi");
}

// Solver amg (--solver amg, hypre's BoomerAMG-preconditioned CG) on every assembled storage: the
// report names the method and its times, the tip is Jacobi CG's, in fewer iterations.
TEST_F(amorim, AmgSolvesLikeCgOnEveryAssembledStorage) {
  write("deck.yaml", "mesh: {size: 12x3x3}\nsolver: {tolerance: 1e-10}\n");
  const auto solved = [&](const std::string& options) {
    const Outcome o = kfem("run deck.yaml --repetitions 1 --warmup 0 --report r.json " + options);
    EXPECT_EQ(o.code, 0) << options << "\n" << o.out << o.err;
    return nlohmann::json::parse(slurp(path("r.json"))).at("point").at("solve");
  };
  const auto cg = solved("");
  const double tip = cg.at("tip_deflection_m").get<double>();
  for (const char* options : {"--solver amg", "--solver amg --mapping sympairs --race atomic",
                              "--solver amg --storage bsr --mapping pairs --race atomic",
                              "--solver amg --storage bsr-lower --mapping sympairs --race atomic"}) {
    const auto s = solved(options);
    EXPECT_EQ(s.at("method"), "amg") << options;
    EXPECT_TRUE(s.at("cg_converged").get<bool>()) << options;
    EXPECT_LT(s.at("cg_iterations").get<int>(), cg.at("cg_iterations").get<int>()) << options;
    EXPECT_GT(s.at("setup_s").get<double>(), 0.0) << options;
    EXPECT_GE(s.at("time_to_solution_s").get<double>(), s.at("setup_s").get<double>()) << options;
    EXPECT_NEAR(s.at("tip_deflection_m").get<double>(), tip, 1e-7 * std::abs(tip)) << options;
  }
}

// mesh.refine / --refine: a tri box refined twice is the box of 4x the divisions (same nodes, other
// numbering), so both give the same field energy; refining a hex8 mesh is a one-line error.
TEST_F(amorim, RefinedTriBoxIsTheFinerBox) {
  write(
      "deck.yaml",
      "problem: electrostatics\nmesh: {size: 'tri:4x2', refine: 2}\nbc: {dirichlet: {xmin: 0.0, ymax: 1.0}}\n"
      "solver: {tolerance: 1.0e-12}\n");
  const auto [refined, u] = solve("--race acoo");
  const auto mesh = nlohmann::json::parse(slurp(path("r.json"))).at("mesh");
  EXPECT_EQ(mesh.at("name"), "tri:4x2+r2");
  EXPECT_EQ(mesh.at("elements"), 256);
  EXPECT_EQ(mesh.at("refine").at("times"), 2);
  const auto [fine, v] = solve("--mesh tri:16x8 --refine 0");
  EXPECT_EQ(u.size(), v.size());
  const double energy = fine.at("solve").at("field_energy").get<double>();
  EXPECT_NEAR(refined.at("solve").at("field_energy").get<double>(), energy, 1e-9 * energy);
  expect_one_error_line(kfem("run --mesh 2x1x1 --refine 1"), "mesh.refine");
  expect_one_error_line(kfem("run deck.yaml --refine 9"), "mesh.refine");
}

// bench.solve: every point solves and is compared with the host reference solution; the operators
// are swept like the races.
TEST_F(amorim, BenchSolvesEveryPoint) {
  write("deck.yaml",
        "problem: electrostatics\nmesh: {size: 'tri:12x6', distort: 0.1}\n"
        "bc: {dirichlet: {xmin: 0.0, ymax: 1.0}}\nassembly: {mapping: thread, race: [colored, acoo]}\n"
        "solver: {tolerance: 1.0e-12, operator: [csr, ebe-v1]}\nbench: {warmup: 0, repetitions: 1, solve: "
        "true}\n");
  const Outcome o = kfem("bench deck.yaml --out out");
  ASSERT_EQ(o.code, 0) << o.out << o.err;
  const auto doc = nlohmann::json::parse(slurp(path("out/results.json")));
  const auto& points = doc.at("points");
  ASSERT_EQ(points.size(), 4u);  // 2 races x 2 operators
  for (const auto& p : points) {
    EXPECT_EQ(p.at("verification").at("status"), "passed");
    const auto& s = p.at("solve");
    EXPECT_TRUE(s.at("cg_converged").get<bool>());
    EXPECT_GT(s.at("cg_s_per_iteration").get<double>(), 0.0);
    // the iterations alone and the set-up add up to the whole solve
    const double iterations = s.at("cg_iterations").get<double>(), whole = s.at("cg_s").get<double>();
    EXPECT_GT(s.at("cg_iteration_s").get<double>(), 0.0);
    EXPECT_GE(s.at("cg_setup_s").get<double>(), 0.0);
    EXPECT_NEAR(s.at("cg_iteration_s").get<double>() * iterations + s.at("cg_setup_s").get<double>(), whole,
                1e-9 * whole);
    EXPECT_LT(s.at("relative_difference_vs_reference").get<double>(), 1e-8)
        << p.at("race") << " " << s.at("operator");
    EXPECT_TRUE(p.at("setup").contains("coloring_greedy_s"));
    EXPECT_TRUE(p.at("setup").contains("coloring_device_s"));
  }
  EXPECT_TRUE(points[0].at("mesh").at("reference_solve").at("cg_converged").get<bool>());
  EXPECT_EQ(points[2].at("race"), "acoo");
  EXPECT_GT(points[2].at("acoo").at("storage_bytes_per_element").get<double>(), 0.0);
}

// mesh.capacitor.triangles as a list: one mesh per count, named capacitor:N.
TEST_F(amorim, CapacitorSizesSweep) {
  if (!kfem::gmsh_available()) GTEST_SKIP() << "built with KFEM_WITH_GMSH=OFF";
  write("deck.yaml",
        "problem: electrostatics\nmesh: {size: capacitor, capacitor: {triangles: [300, 600]}}\n"
        "bc: {dirichlet: {top_plate: 48.0, bottom_plate: 0.0}}\nassembly: {mapping: thread, race: acoo}\n"
        "bench: {warmup: 0, repetitions: 1}\n");
  const Outcome o = kfem("bench deck.yaml --out out");
  ASSERT_EQ(o.code, 0) << o.out << o.err;
  const auto points = nlohmann::json::parse(slurp(path("out/results.json"))).at("points");
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].at("mesh").at("name"), "capacitor:300");
  EXPECT_EQ(points[1].at("mesh").at("name"), "capacitor:600");
  EXPECT_LT(points[0].at("mesh").at("elements").get<long>(), points[1].at("mesh").at("elements").get<long>());
  EXPECT_FALSE(points[0].contains("solve"));  // bench.solve is off by default
}
}  // namespace
