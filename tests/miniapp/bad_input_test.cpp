// Issue 15: bad input never crashes kfem and never leaves files behind. One table row per bad input
// (bad_input.hpp runs it); selected by `ctest -R bad_input`.
#include "bad_input.hpp"

#include <string>
#include <vector>

namespace {
using kfem::test::check_row;
using kfem::test::cube;
using kfem::test::KfemRunner;
using kfem::test::nonempty_lines;
using kfem::test::Row;

const std::string beam = "mesh: {size: 2x1x1}\n";  // keeps the runs that would succeed tiny
const std::string electrostatics = "problem: electrostatics\nmesh: {size: 'tri:2x1'}\n";

const std::vector<Row> rows = {
    // 1a: empty lists in a deck crashed, or ran / verified nothing
    {"EmptyMappingList",
     {{"d.yaml", beam + "assembly: {mapping: []}\n"}},
     "verify d.yaml",
     2,
     "key 'assembly.mapping': empty list"},
    {"EmptyRaceList",
     {{"d.yaml", beam + "assembly: {race: []}\n"}},
     "run d.yaml",
     2,
     "key 'assembly.race': empty list"},
    {"EmptyScalarList",
     {{"d.yaml", beam + "assembly: {scalar: []}\n"}},
     "verify d.yaml",
     2,
     "key 'assembly.scalar': empty list"},
    {"EmptyOperatorList",
     {{"d.yaml", beam + "solver: {operator: []}\n"}},
     "run d.yaml",
     2,
     "key 'solver.operator': empty list"},
    {"EmptyOrderList",
     {{"d.yaml", "element: {order: []}\n"}},
     "run d.yaml",
     2,
     "key 'element.order': empty list"},
    {"EmptySizeList", {{"d.yaml", "mesh: {size: []}\n"}}, "run d.yaml", 2, "key 'mesh.size': empty list"},
    {"EmptySizesList",
     {{"d.yaml", "mesh: {sizes: []}\n"}},
     "bench d.yaml --out out",
     2,
     "key 'mesh.sizes': empty list"},
    {"EmptySizesOfAnOrder",
     {{"d.yaml", "element: {order: [1]}\nmesh: {sizes: {1: []}}\n"}},
     "bench d.yaml --out out",
     2,
     "key 'mesh.sizes.1': empty list"},
    {"EmptyCapacitorCounts",
     {{"d.yaml", "mesh: {capacitor: {triangles: []}}\n"}},
     "run d.yaml",
     2,
     "key 'mesh.capacitor.triangles': empty list"},
    {"MissingListValue",
     {{"d.yaml", beam + "assembly: {mapping: }\n"}},
     "verify d.yaml",
     2,
     "key 'assembly.mapping': missing value"},
    {"MissingReportPath",
     {{"d.yaml", beam + "output: {report: }\n"}},
     "run d.yaml",
     2,
     "key 'output.report': missing value"},
    {"EmptyMappingName",
     {{"d.yaml", beam + "assembly: {mapping: ['']}\n"}},
     "verify d.yaml",
     2,
     "key 'assembly.mapping': empty name"},

    // 1b: Kokkos options crashed (0) or aborted on an uncaught exception (abc, -1)
    {"KokkosThreadsZero", {}, "verify --mesh 2x1x1 --kokkos-threads=0", 2, "--kokkos-threads=0"},
    {"KokkosThreadsNotANumber", {}, "verify --mesh 2x1x1 --kokkos-threads=abc", 2, "--kokkos-threads=abc"},
    {"KokkosThreadsNegative", {}, "verify --mesh 2x1x1 --kokkos-threads=-1", 2, "--kokkos-threads=-1"},
    {"KokkosThreadsHuge", {}, "verify --mesh 2x1x1 --kokkos-threads=99999999999", 2, "1..4096"},
    {"KokkosThreadsWithoutValue", {}, "verify --mesh 2x1x1 --kokkos-threads", 2, "--kokkos-threads=N"},
    {"KokkosThreadsSeparateValue", {}, "verify --mesh 2x1x1 --kokkos-threads 2", 2, "--kokkos-threads=N"},
    {"KokkosNumThreadsZero", {}, "verify --mesh 2x1x1 --kokkos-num-threads=0", 2, "--kokkos-num-threads=0"},
    {"KokkosDeviceIdNegative", {}, "verify --mesh 2x1x1 --kokkos-device-id=-1", 2, "--kokkos-device-id=-1"},
    {"KokkosDeviceIdNotANumber", {}, "verify --mesh 2x1x1 --kokkos-device-id=gpu0", 2, "--kokkos-device-id"},
    {"KokkosNumaZero", {}, "verify --mesh 2x1x1 --kokkos-numa=0", 2, "--kokkos-numa"},
    {"KokkosNumDevicesBad", {}, "verify --mesh 2x1x1 --kokkos-num-devices=2,x", 2, "--kokkos-num-devices"},
    {"KokkosFlagWithValue", {}, "verify --mesh 2x1x1 --kokkos-disable-warnings=yes", 2, "takes no value"},
    {"KokkosToolsLibraryEmpty", {}, "verify --mesh 2x1x1 --kokkos-tools-libs=", 2, "--kokkos-tools-libs"},
    {"KokkosUnknownOption", {}, "verify --mesh 2x1x1 --kokkos-thread=2", 2, "unknown Kokkos option"},
    {"KokkosEnvThreadsZero", {}, "verify --mesh 2x1x1", 2, "KOKKOS_NUM_THREADS='0'", "KOKKOS_NUM_THREADS=0"},
    {"KokkosEnvThreadsNotANumber",
     {},
     "verify --mesh 2x1x1",
     2,
     "KOKKOS_NUM_THREADS",
     "KOKKOS_NUM_THREADS=four"},
    {"UnprefixedKokkosOption", {}, "verify --mesh 2x1x1 --threads=abc", 2, "--threads=abc"},

    // 1c: a $Nodes tag range that overflows crashed the Gmsh reader
    {"GmshTagRangeOverflows",
     {{"bad.msh", cube("-9223372036854775807", "9223372036854775807")}},
     "run --mesh bad.msh",
     2,
     "bad.msh:5: minTag -9223372036854775807 out of range"},
    {"GmshMinTagMostNegative",
     {{"bad.msh", cube("-9223372036854775808", "8")}},
     "verify --mesh bad.msh",
     2,
     "bad.msh:5: minTag"},
    {"GmshMaxTagPast2To63",
     {{"bad.msh", cube("1", "9223372036854775808")}},
     "verify --mesh bad.msh",
     2,
     "bad.msh:5: malformed maxTag"},
    {"GmshNegativeMaxTag",
     {{"bad.msh", cube("-8", "-1")}},
     "verify --mesh bad.msh",
     2,
     "bad.msh:5: minTag -8"},
    {"GmshEmptyRangeReversed",
     {{"bad.msh",
       "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n0 0 9223372036854775807 0\n$EndNodes\n"
       "$Elements\n1 1 1 1\n3 1 5 1\n1 1 2 3 4 5 6 7 8\n$EndElements\n"}},
     "verify --mesh bad.msh",
     2,
     "bad.msh:10: element 1 references undefined node 1"},

    // 2a: a deck after a list option was swallowed by it, and the defaults ran
    {"DeckAfterListOptionIsRead",
     {{"d.yaml", "mesh: {sise: 3}\n"}},
     "run --mapping element d.yaml",
     2,
     "key 'mesh.sise'"},
    {"DeckAfterRaceOptionIsRead",
     {{"d.yaml", "mesh: {sise: 3}\n"}},
     "verify --race colored d.yaml",
     2,
     "key 'mesh.sise'"},
    {"SecondListValueIsNotAList",
     {},
     "verify --mesh 2x1x1 --mapping element warp4",
     2,
     "deck 'warp4': no such file"},
    {"DirectoryAsDeck", {}, "run /", 2, "deck '/': is a directory"},

    // 2b: --no-solve leaves no solution to export
    {"NoSolveWithExportSolution",
     {},
     "run --mesh 2x1x1 --no-solve --export-solution u.vtu",
     2,
     "output.export_solution"},
    {"SolverDisabledWithExportSolution",
     {{"d.yaml", beam + "solver: {enabled: false}\noutput: {export_solution: u.vtu}\n"}},
     "run d.yaml",
     2,
     "key 'output.export_solution'"},

    // 2c: non-finite or out-of-range numbers and unknown names, in decks and options
    {"InfiniteYoungsModulus",
     {{"d.yaml", beam + "material: {E: .inf}\n"}},
     "run d.yaml",
     2,
     "key 'material.E': inf"},
    {"NanYoungsModulus",
     {{"d.yaml", beam + "material: {E: .nan}\n"}},
     "run d.yaml",
     2,
     "key 'material.E': nan"},
    {"NanPoissonRatio", {{"d.yaml", beam + "material: {nu: .nan}\n"}}, "run d.yaml", 2, "key 'material.nu'"},
    {"InfinitePermittivity",
     {{"d.yaml", electrostatics + "material: {permittivity: .inf}\n"}},
     "run d.yaml",
     2,
     "key 'material.permittivity'"},
    {"NanLoad", {{"d.yaml", beam + "load: {P: .nan}\n"}}, "run d.yaml", 2, "key 'load.P': nan"},
    {"InfiniteLoad", {{"d.yaml", beam + "load: {P: -.inf}\n"}}, "run d.yaml", 2, "key 'load.P': -inf"},
    {"NanDirichletValue",
     {{"d.yaml", electrostatics + "bc: {dirichlet: {xmin: .nan, xmax: 1.0}}\n"}},
     "run d.yaml",
     2,
     "key 'bc.dirichlet.xmin'"},
    {"NegativeTolerance",
     {{"d.yaml", beam + "solver: {tolerance: -1.0e-8}\n"}},
     "run d.yaml",
     2,
     "key 'solver.tolerance'"},
    {"NanTolerance",
     {{"d.yaml", beam + "solver: {tolerance: .nan}\n"}},
     "run d.yaml",
     2,
     "key 'solver.tolerance'"},
    {"ZeroIterationLimit",
     {{"d.yaml", beam + "solver: {max_iterations: 0}\n"}},
     "run d.yaml",
     2,
     "key 'solver.max_iterations'"},
    {"NegativeIterationLimit",
     {{"d.yaml", beam + "solver: {max_iterations: -5}\n"}},
     "run d.yaml",
     2,
     "key 'solver.max_iterations'"},
    {"NegativeDistortInDeck",
     {{"d.yaml", "mesh: {size: 2x1x1, distort: -0.1}\n"}},
     "verify d.yaml",
     2,
     "key 'mesh.distort'"},
    {"NanDistortInDeck",
     {{"d.yaml", "mesh: {size: 2x1x1, distort: .nan}\n"}},
     "verify d.yaml",
     2,
     "key 'mesh.distort'"},
    {"NegativeVerifyLimit",
     {{"d.yaml", beam + "bench: {verify_limit: -1}\n"}},
     "bench d.yaml --out out",
     2,
     "key 'bench.verify_limit'"},
    {"InfiniteMeshLength",
     {{"d.yaml", "mesh: {size: 2x1x1, length: [.inf, 1, 1]}\n"}},
     "verify d.yaml",
     2,
     "key 'mesh.length'"},
    {"NegativeDistortOption", {}, "verify --mesh 2x1x1 --distort -0.1", 2, "--distort"},
    {"NanDistortOption", {}, "verify --mesh 2x1x1 --distort nan", 2, "--distort: nan"},
    {"ZeroRepetitions", {}, "run --mesh 2x1x1 --repetitions 0", 2, "--repetitions: 0"},
    {"NegativeWarmup", {}, "run --mesh 2x1x1 --warmup -1", 2, "--warmup: -1"},
    {"NegativeOrder", {}, "run --mesh prism:2x1x1 --order -1", 2, "--order: -1"},
    {"NegativeRefine", {}, "run --mesh tri:2x1 --refine -1", 2, "--refine: -1"},
    {"UnknownColoring", {}, "verify --mesh 2x1x1 --coloring foo", 2, "--coloring: foo"},
    {"UnknownTarget", {}, "verify --mesh 2x1x1 --target foo", 2, "--target: foo"},
    {"UnknownScalarOption", {}, "verify --mesh 2x1x1 --scalar half", 2, "--scalar: half"},
    {"UnknownScalarInDeck",
     {{"d.yaml", beam + "assembly: {scalar: [double, half]}\n"}},
     "run d.yaml --export-mesh m.msh",
     2,
     "key 'assembly.scalar': 'half'"},
};

class bad_input : public ::testing::TestWithParam<Row> {};

TEST_P(bad_input, OneLineErrorAndNothingWritten) {
  check_row(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Table, bad_input, ::testing::ValuesIn(rows),
                         [](const ::testing::TestParamInfo<Row>& info) { return info.param.name; });

// The good counterparts of the rows above: the accepted spellings keep working.
TEST(bad_input_counterparts, KokkosThreadsInBothSpellings) {
  KfemRunner k("KokkosThreadsInBothSpellings");
  for (const char* opt : {"--kokkos-threads=2", "--kokkos-num-threads=1", "--kokkos-device-id=0"}) {
    const auto [code, out, err] = k.run(std::string("verify --mesh 2x1x1 ") + opt);
    EXPECT_EQ(code, 0) << opt << "\n" << out << err;
  }
  const auto [code, out, err] = k.run("verify --mesh 2x1x1", "KOKKOS_NUM_THREADS=2");
  EXPECT_EQ(code, 0) << out << err;
  k.keep = ::testing::Test::HasFailure();
}

// One value per flag occurrence: a deck after a list option is read, repeated flags add up.
TEST(bad_input_counterparts, DeckAfterListOptionRuns) {
  KfemRunner k("DeckAfterListOptionRuns");
  k.write("d.yaml", "mesh: {size: 2x1x1}\nassembly: {race: [colored, atomic]}\n");
  const auto [code, out, err] = k.run("verify --mapping element d.yaml --scalar float --scalar double");
  EXPECT_EQ(code, 0) << out << err;
  EXPECT_EQ(nonempty_lines(out).size(), 4u) << out;  // element x 2 races x 2 scalars
  k.keep = ::testing::Test::HasFailure();
}

// Tags up to 2^63 - 1 are legal (the sparse tag map); only the overflowing range is rejected.
TEST(bad_input_counterparts, GmshLargestTagIsRead) {
  KfemRunner k("GmshLargestTagIsRead");
  k.write("cube.msh", cube("1", "9223372036854775807", "9223372036854775807"));
  const auto [code, out, err] = k.run("verify --mesh cube.msh");
  EXPECT_EQ(code, 0) << out << err;
  k.keep = ::testing::Test::HasFailure();
}

// --no-solve still exports the matrix (assembled before boundary conditions).
TEST(bad_input_counterparts, NoSolveExportsTheMatrix) {
  KfemRunner k("NoSolveExportsTheMatrix");
  const auto [code, out, err] =
      k.run("run --mesh 2x1x1 --no-solve --repetitions 1 --warmup 0 --export-matrix K.mtx --report r.json");
  EXPECT_EQ(code, 0) << out << err;
  const auto files = k.listing();
  EXPECT_EQ(files.count("K.mtx"), 1u);
  EXPECT_GT(files.count("K.mtx") ? files.at("K.mtx") : 0, 100u);
  k.keep = ::testing::Test::HasFailure();
}
}  // namespace
