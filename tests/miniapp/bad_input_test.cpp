// Issue 15: bad input never crashes kfem and never leaves files behind. One table row per bad input
// (bad_input.hpp runs it); selected by `ctest -R bad_input`.
#include "bad_input.hpp"

#include <iterator>
#include <string>
#include <tuple>
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
    // The solver axis: a solver is named once, from the registry's names
    {"UnknownSolverMethod",
     {{"d.yaml", beam + "solver: {method: gmres}\n"}},
     "run d.yaml",
     2,
     "key 'solver.method': unknown solver 'gmres' (expected cg, cg-single-reduction or amg)"},
    {"SingleReductionContradictsMethod",
     {{"d.yaml", beam + "solver: {method: cg, single_reduction: true}\n"}},
     "run d.yaml",
     2,
     "key 'solver.single_reduction': true contradicts solver.method: cg"},
    {"UnknownSolverOption",
     {{"d.yaml", beam}},
     "run d.yaml --solver bicgstab",
     2,
     "unknown solver 'bicgstab'"},
    // The preconditioner: a name, and an operator that has what it needs
    {"UnknownPreconditionerKey",
     {{"d.yaml", beam + "solver: {preconditioner: ilu}\n"}},
     "run d.yaml",
     2,
     "key 'solver.preconditioner': unknown preconditioner 'ilu' (known: jacobi block-jacobi)"},
    {"BlockJacobiWithoutAssembledMatrix",
     {{"d.yaml", beam}},
     "run d.yaml --storage ebe --preconditioner block-jacobi",
     2,
     "solver.preconditioner block-jacobi: this storage's solve has no assembled block diagonal"},
    {"AmgWithoutAssembledMatrix",
     {{"d.yaml", beam}},
     "run d.yaml --storage ebe --solver amg",
     2,
     "solver amg needs an assembled matrix (storage csr, csr-lower, bsr or bsr-lower)"},
    {"AmgWithBlockJacobi",
     {{"d.yaml", beam}},
     "run d.yaml --solver amg --preconditioner block-jacobi",
     2,
     "solver amg is its own preconditioner: solver.preconditioner block-jacobi does not apply"},
    // The storage axis: one name per storage, and a storage the mapping, race or operator contradicts
    {"UnknownStorageKey",
     {{"d.yaml", beam + "assembly: {storage: dense}\n"}},
     "run d.yaml",
     2,
     "key 'assembly.storage': unknown storage 'dense' (expected default, csr, csr-lower, acoo, element, ebe, "
     "bsr or bsr-lower)"},
    {"UnknownStorageOption",
     {{"d.yaml", beam}},
     "run d.yaml --storage coo",
     2,
     "option --storage: unknown storage 'coo'"},
    {"LowerStorageFullMapping",
     {{"d.yaml", beam}},
     "run d.yaml --mapping pairs --race atomic --storage csr-lower",
     2,
     "storage csr-lower is written by the symmetric mappings"},
    {"FullStorageLowerMapping",
     {{"d.yaml", beam}},
     "run d.yaml --mapping sympairs --race atomic --storage csr",
     2,
     "mapping sympairs writes the lower triangle: its storage is csr-lower"},
    {"BlockStorageOwnerMapping",
     {{"d.yaml", beam}},
     "run d.yaml --mapping batch-owner --storage bsr",
     2,
     "; mapping batch-owner writes the CSR from its own index"},
    {"BlockStorageLowerMapping",
     {{"d.yaml", beam}},
     "run d.yaml --mapping sympairs --race atomic --storage bsr",
     2,
     "; mapping sympairs writes the lower triangle (its block storage is bsr-lower)"},
    {"LowerBlockStorageFullMapping",
     {{"d.yaml", beam}},
     "run d.yaml --mapping pairs --race atomic --storage bsr-lower",
     2,
     "storage bsr-lower is written by sympairs, symbox-owner; mapping pairs writes every entry (its block "
     "storage is bsr)"},
    {"LowerBlockStorageLowerCsrMapping",
     {{"d.yaml", beam}},
     "run d.yaml --mapping sym300 --race atomic --storage bsr-lower",
     2,
     "storage bsr-lower is written by sympairs, symbox-owner; mapping sym300 writes the lower triangle of "
     "the CSR only"},
    {"BlockStoragePrismStudyMapping",
     {{"d.yaml", "mesh: {size: 'prism:2x1x1'}\n"}},
     "run d.yaml --mapping reg-jac --storage bsr",
     2,
     "; mapping reg-jac writes the CSR only (the prism integration study)"},
    {"StorageContradictsRace",
     {{"d.yaml", beam}},
     "run d.yaml --mapping thread --race acoo --storage element",
     2,
     "storage element contradicts race acoo (storage acoo)"},
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
    {"EmptyHaloList",
     {{"d.yaml", beam + "parallel: {halo: []}\n"}},
     "run d.yaml",
     2,
     "key 'parallel.halo': empty list"},
    {"UnknownHalo",
     {{"d.yaml", beam + "parallel: {halo: [mpi, shmem]}\n"}},
     "run d.yaml",
     2,
     "key 'parallel.halo': 'shmem' (expected auto, mpi or nccl)"},
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
    {"UnknownVerifyMethod",
     {{"d.yaml", beam + "bench: {verify: exact}\n"}},
     "bench d.yaml --out out",
     2,
     "key 'bench.verify': 'exact' (expected products or entries)"},
    {"UnknownVerifyOption", {}, "run --mesh 2x1x1 --verify exact", 2, "--verify"},
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
    {"OrderOnHex8",
     {},
     "run --mesh 2x1x1 --order 2",
     2,
     "element.order 2 on hex8 (only prisms and tetrahedra"},
    {"P3TetSolutionExport",
     {},
     "run --mesh tet:2x1x1 --order 3 --export-solution u.vtu",
     2,
     "output.export_solution (--export-solution) of P3 tetrahedra"},
    {"NegativeRefine", {}, "run --mesh tri:2x1 --refine -1", 2, "--refine: -1"},
    {"UnknownColoring", {}, "verify --mesh 2x1x1 --coloring foo", 2, "--coloring: foo"},
    {"UnknownTarget", {}, "verify --mesh 2x1x1 --target foo", 2, "--target: foo"},
    {"UnknownElementOrder", {}, "verify --mesh 2x1x1 --element-order hilbert", 2, "--element-order: hilbert"},
    {"UnknownElementOrderInDeck",
     {{"d.yaml", beam + "assembly: {element_order: hilbert}\n"}},
     "verify d.yaml",
     2,
     "key 'assembly.element_order'"},
    {"UnknownScalarOption", {}, "verify --mesh 2x1x1 --scalar half", 2, "--scalar: half"},
    {"UnknownScalarInDeck",
     {{"d.yaml", beam + "assembly: {scalar: [double, half]}\n"}},
     "run d.yaml --export-mesh m.msh",
     2,
     "key 'assembly.scalar': 'half'"},

    // 3a: every output is checked before any work starts; it was written (over inputs too) or
    // failed after the whole run
    {"ReportNamesADirectory",
     {},
     "run --mesh 2x1x1 --report out/",
     2,
     "option --report 'out/': names a directory"},
    {"ReportInMissingDirectory",
     {},
     "run --mesh 2x1x1 --report nodir/r.json",
     2,
     "option --report 'nodir/r.json': directory 'nodir' does not exist"},
    {"ReportUnderAFile", {{"f", "x\n"}}, "run --mesh 2x1x1 --report f/r.json", 2, "'f' is not a directory"},
    {"ReportWhereNoFileCanBeMade",
     {},
     "run --mesh 2x1x1 --report /proc/r.json",
     2,
     "option --report '/proc/r.json': cannot create files in '/proc'"},
    {"ReportIsTheDeck",
     {{"d.yaml", beam}},
     "run d.yaml --report d.yaml",
     2,
     "option --report 'd.yaml': is the deck"},
    {"DeckReportIsTheDeck",
     {{"d.yaml", beam + "output: {report: ./d.yaml}\n"}},
     "run d.yaml",
     2,
     "d.yaml: key 'output.report' './d.yaml': is the deck"},
    {"ExportMeshIsTheMeshFile",
     {{"cube.msh", cube("1", "8")}},
     "run --mesh cube.msh --export-mesh cube.msh",
     2,
     "option --export-mesh 'cube.msh': is the mesh file"},
    {"ExportMatrixIsTheDefaultReport",
     {},
     "run --mesh 2x1x1 --export-matrix kfem-report.json",
     2,
     "is also the path of the default report"},
    {"TwoOutputsOneFile",
     {},
     "run --mesh 2x1x1 --report r.json --export-mesh ./r.json",
     2,
     "option --export-mesh './r.json': is also the path of option --report"},
    {"DeckExportAndOptionOneFile",
     {{"d.yaml", beam + "output: {export_matrix: K.mtx}\n"}},
     "run d.yaml --export-solution K.mtx",
     2,
     "is also the path of d.yaml: key 'output.export_matrix'"},
    {"BenchOutIsAFile",
     {{"d.yaml", beam}, {"out", "x\n"}},
     "bench d.yaml --out out",
     2,
     "option --out 'out': is a regular file, not a directory"},
    {"BenchOutUnderAFile",
     {{"d.yaml", beam}, {"f", "x\n"}},
     "bench d.yaml --out f/out",
     2,
     "option --out 'f/out': cannot be created: 'f' is not a directory"},
    {"BenchOutWhereNoFolderCanBeMade",
     {{"d.yaml", beam}},
     "bench d.yaml --out /proc/kfem-out",
     2,
     "option --out '/proc/kfem-out': "},

    // 3b: what went wrong and where, not "key '': expected a mapping", "stoi", "stod" or
    // "vector::_M_default_append"
    {"MeshFileAsDeck",
     {{"cube.msh", cube("1", "8")}},
     "run cube.msh",
     2,
     "cube.msh: a Gmsh mesh file, not a YAML deck (give meshes with --mesh cube.msh)"},
    {"ListAsDeck", {{"d.yaml", "- 2x1x1\n"}}, "verify d.yaml", 2, "d.yaml: not a deck"},
    {"BoxSideOverflows",
     {},
     "verify --mesh 99999999999x1x1",
     2,
     "mesh '99999999999x1x1': 99999999999 elements along x exceed the 32-bit limit of 2147483647"},
    {"TriSideOverflows",
     {{"d.yaml", "problem: electrostatics\nmesh: {size: 'tri:1x99999999999'}\n"}},
     "verify d.yaml",
     2,
     "mesh 'tri:1x99999999999': 99999999999 elements along y"},
    {"BoxNodesOverflow",
     {},
     "verify --mesh 2147483647x1x1",
     2,
     "mesh '2147483647x1x1': 8589934592 nodes exceed the 32-bit limit of 2147483647 node ids"},
    {"PrismElementsOverflow",
     {},
     "verify --mesh prism:1100x1100x1000",
     2,
     "2420000000 elements exceed the 32-bit limit of 2147483647 element ids"},
    {"BoxDofsOverflow",
     {},
     "verify --mesh 900x900x900",
     2,
     "2194298103 DOFs (3 per node) exceed the 32-bit limit"},
    {"PrismDofsOverflowAtOrder",
     {},
     "verify --mesh prism:300x300x300 --order 3",
     2,
     "mesh 'prism:300x300x300' at order 3: 2194298103 DOFs"},
    {"SymmetricBlocksWithoutABlockMapping",
     {},
     "run --mesh 4x2x2 --mapping pairs --symmetric-blocks --no-solve",
     2,
     "key 'assembly.symmetric_blocks': true, but no mapping of the deck integrates by blocks"},
    {"OwnerWithARaceHandling",
     {},
     "run --mesh 4x2x2 --mapping owner --race atomic --no-solve",
     2,
     "mapping owner and race atomic do not go together: owner-computes mappings (owner, batch-owner, "
     "box-owner, symbox-owner) "
     "write every value once and take race none"},
    {"RaceNoneWithAnElementMapping",
     {},
     "run --mesh 4x2x2 --mapping pairs --race none --no-solve",
     2,
     "mapping pairs and race none do not go together: race none is for owner-computes mappings (owner, "
     "batch-owner, box-owner, symbox-owner)"},
    {"BenchWithNoPairThatGoesTogether",
     {},
     "verify --mesh 4x2x2 --mapping owner --race atomic --race colored",
     2,
     "no mapping x race pair of the deck goes together: owner-computes mappings (owner, batch-owner, "
     "box-owner, symbox-owner) take race none"},
    {"ZeroBoxSide", {}, "verify --mesh 4x0x1", 2, "mesh '4x0x1': element counts must be positive"},
    {"CapacitorCountOverflows",
     {},
     "verify --mesh capacitor:1e999",
     2,
     "mesh 'capacitor:1e999': more triangles"},
    {"DeckCapacitorCountHuge",
     {{"d.yaml", "mesh:\n  size: 2x1x1\n  capacitor: {triangles: 1.0e300}\n"}},
     "run d.yaml",
     2,
     "key 'mesh.capacitor.triangles': expected a count in 100..2147483647"},
    {"KeyThatIsAList",
     {{"d.yaml", "mesh: {[size]: 2x1x1}\n"}},
     "run d.yaml",
     2,
     "d.yaml: key 'mesh': keys must be names, not mappings or lists"},
    {"MeshNameOfFiftyThousandDigits",  // overflowed the stack in std::regex_match
     {},
     "verify --mesh " + std::string(50000, '1'),
     2,
     "(50000 characters): not a mesh size or a .msh file"},
    // Issue 42: a key given twice was accepted and its first value won
    {"DuplicateTopLevelKey",
     {{"d.yaml", beam + "assembly: {mapping: element}\nmesh: {size: 4x2x2}\n"}},
     "run d.yaml",
     2,
     "d.yaml: key 'mesh': given twice, on lines 1 and 3"},
    {"DuplicateNestedKey",
     {{"d.yaml", beam + "assembly:\n  mapping: element\n  race: atomic\n  mapping: pairs\n"}},
     "verify d.yaml",
     2,
     "d.yaml: key 'assembly.mapping': given twice, on lines 3 and 5"},
    {"DuplicateKeyInAFlowMapping",
     {{"d.yaml", beam + "assembly: {mapping: element, mapping: pairs}\n"}},
     "verify d.yaml",
     2,
     "d.yaml: key 'assembly.mapping': given twice on line 2 (columns 12 and 30)"},
    {"DuplicateKeyTwoLevelsDown",
     {{"d.yaml",
       "mesh:\n  size: 2x1x1\n  capacitor:\n    triangles: 200\n    box: [8, 4]\n    triangles: 300\n"}},
     "run d.yaml --export-mesh m.msh",
     2,
     "d.yaml: key 'mesh.capacitor.triangles': given twice, on lines 4 and 6"},

    // Issue 42: a zero load was "solved" silently (u = 0), a load that underflows ended in exit 1
    // with no word on why
    {"ZeroLoad",
     {{"d.yaml", beam + "load: {P: 0}\n"}},
     "run d.yaml",
     2,
     "d.yaml: key 'load.P': 0, and no prescribed displacement is nonzero: the load vector is zero (||b|| = "
     "0): nothing to solve"},
    {"ZeroPotentials",
     {{"d.yaml", electrostatics + "bc: {dirichlet: {xmin: 0, xmax: 0}}\n"}},
     "run d.yaml",
     2,
     "d.yaml: key 'bc.dirichlet': every prescribed potential is 0, so the right-hand side is zero"},
    {"LoadUnderflowsInDouble",  // the squares of 2.5e-301 underflow: ||b|| = 0
     {{"d.yaml", beam + "load: {P: 1.0e-300}\n"}},
     "run d.yaml",
     1,
     "CG (csr): the load vector underflows in double: ||b|| = 0 although the loads are not all 0 (nodal "
     "loads up to 2.5e-301, prescribed values up to 0): nothing to solve"},
    {"LoadUnderflowsAgainstTheStiffness",  // ||b|| is fine, p.Ap ~ ||b||^2 / E is not
     {{"d.yaml", beam + "load: {P: 1.0e-150}\nmaterial: {E: 1.0e30}\n"}},
     "run d.yaml",
     1,
     "CG (csr): the load vector underflows in double: ||b|| = 5e-151, and CG's first step p.Ap rounds to 0"},
    {"LoadUnderflowsInFloat",
     {{"d.yaml", beam + "load: {P: 1.0e-50}\nassembly: {scalar: float}\n"}},
     "run d.yaml",
     1,
     "CG (csr): the load vector underflows in float: ||b|| = 0 although the loads are not all 0"},

    {"NoSubcommand", {}, "", 2, "A subcommand is required (info, run, verify or bench; see kfem --help)"},
    {"OptionsWithoutSubcommand", {}, "--mesh 2x1x1", 2, "see kfem --help"},
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

namespace {
// Shell text run in k's scratch directory before a test's kfem run (mkdir, mkfifo, ln): the
// runner's ENV slot precedes `kfem`, so the shell exits before kfem starts.
void prepare(const KfemRunner& k, const std::string& shell) {
  const auto [code, out, err] = k.run("", shell + " && exit 0;");
  ASSERT_EQ(code, 0) << shell << "\n" << err;
}

// One stderr line naming the problem, exit 2, and the scratch directory as it was.
void expect_rejected(KfemRunner& k, const std::string& args, const std::string& needle,
                     const std::string& env = "") {
  const auto before = k.listing();
  const auto [code, out, err] = k.run(args, env);
  EXPECT_EQ(code, 2) << out << err;
  const auto lines = nonempty_lines(err);
  ASSERT_EQ(lines.size(), 1u) << err;
  EXPECT_NE(lines[0].find(needle), std::string::npos) << lines[0];
  EXPECT_EQ(k.listing(), before) << "kfem " << args << " changed the directory";
  k.keep = ::testing::Test::HasFailure();
}

// Shell text that caps kfem's address space (KB), so that a big allocation fails; false when
// kfem cannot even start under it (ASan and CUDA reserve far more).
bool starts_under(const KfemRunner& k, const std::string& limit) {
  return std::get<0>(k.run("verify --mesh 2x1x1 --kokkos-threads=2", limit)) == 0;
}

// The names in the scratch directory that hold `part`.
std::vector<std::string> names_with(const KfemRunner& k, const std::string& part) {
  std::vector<std::string> out;
  for (const auto& [name, size] : k.listing())
    if (name.find(part) != std::string::npos) out.push_back(name);
  return out;
}
}  // namespace

// Output targets the scratch table cannot hold: a directory, a FIFO, a symbolic link. The target is
// left as it was; the link (renaming would replace it, not its target) is refused.
TEST(bad_input_output_targets, DirectoryFifoAndLinkAreRefused) {
  KfemRunner k("DirectoryFifoAndLinkAreRefused");
  k.write("K.mtx", "old\n");
  k.write("d.yaml", beam);
  prepare(k, "mkdir out.json && mkfifo fifo.mtx && ln -s K.mtx link.mtx");
  expect_rejected(k, "run --mesh 2x1x1 --report out.json", "option --report 'out.json': is a directory");
  expect_rejected(k, "run --mesh 2x1x1 --export-matrix fifo.mtx",
                  "'fifo.mtx': is a FIFO, not a regular file");
  expect_rejected(k, "run --mesh 2x1x1 --export-matrix link.mtx", "'link.mtx': is a symbolic link");
  expect_rejected(k, "bench d.yaml --out fifo.mtx", "option --out 'fifo.mtx': is a FIFO, not a directory");
  prepare(k, "test -L link.mtx && test -p fifo.mtx && test -d out.json");
}

// A directory named like a mesh file: one line, not a stream error.
TEST(bad_input_output_targets, MeshFileThatIsADirectory) {
  KfemRunner k("MeshFileThatIsADirectory");
  prepare(k, "mkdir dir.msh");
  expect_rejected(k, "verify --mesh dir.msh", "dir.msh: is a directory, not a mesh file");
}

// Bad input found after the first points (progress lines precede the error): the bench folder it
// made is gone again, and an existing folder keeps the results of the last bench that finished.
TEST(bad_input_atomic_outputs, FailedBenchLeavesNothing) {
  KfemRunner k("FailedBenchLeavesNothing");
  k.write("d.yaml", "mesh: {size: [2x1x1, bad.msh]}\nbench: {warmup: 0, repetitions: 1}\n");
  k.write("bad.msh", "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n");
  for (const char* out_dir : {"out/sweep", "old"}) {
    if (out_dir == std::string("old")) prepare(k, "mkdir old && echo old > old/results.json");
    const auto before = k.listing();
    const auto [code, out, err] = k.run(std::string("bench d.yaml --out ") + out_dir);
    EXPECT_EQ(code, 2) << out << err;
    const auto lines = nonempty_lines(err);
    ASSERT_FALSE(lines.empty());
    EXPECT_NE(lines.back().find("kfem: error: bad.msh"), std::string::npos) << err;
    EXPECT_EQ(k.listing(), before) << out_dir;
  }
  k.keep = ::testing::Test::HasFailure();
}

// A run that runs out of memory after its mesh export was written: one line saying what was
// being done, and no export.
TEST(bad_input_atomic_outputs, OutOfMemoryAfterAnExportLeavesNothing) {
  KfemRunner k("OutOfMemoryAfterAnExportLeavesNothing");
  const std::string limit = "ulimit -v 300000 &&";
  if (!starts_under(k, limit)) GTEST_SKIP() << "kfem does not start with " << limit;
  expect_rejected(
      k, "run --mesh 50x50x50 --verify entries --export-mesh m.msh --report r.json --kokkos-threads=2",
      "out of host memory while computing the oracle of mesh '50x50x50' (397953 DOFs)", limit);
}

// A generated mesh too big for the memory: its size in the message, not "std::bad_alloc".
TEST(bad_input_atomic_outputs, OutOfMemoryBuildingAMesh) {
  KfemRunner k("OutOfMemoryBuildingAMesh");
  const std::string limit = "ulimit -v 1000000 &&";
  if (!starts_under(k, limit)) GTEST_SKIP() << "kfem does not start with " << limit;
  expect_rejected(k, "verify --mesh 400x400x400 --kokkos-threads=2",
                  "out of host memory while building mesh '400x400x400' (64000000 elements, 64481201 nodes)",
                  limit);
}

// A crash (here a SIGSEGV sent once the bench's results temporary exists) removes the temporaries
// and the folder the bench made. The shell leaves "seen" (the temporary appeared) and "rc-STATUS".
TEST(bad_input_atomic_outputs, CrashLeavesNoTemporary) {
  KfemRunner k("CrashLeavesNoTemporary");
  k.write("d.yaml", "mesh: {size: [2x1x1, 50x50x50]}\nbench: {warmup: 0, repetitions: 50}\n");
  auto expected = k.listing();
  prepare(
      k,
      "{ ulimit -c 0; '" KFEM_EXE
      "' bench d.yaml --out out >/dev/null 2>&1 & pid=$!; i=0; "
      "while [ ! -e out/.results.json.kfem-tmp-$pid ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; "
      "[ $i -lt 1200 ] && touch seen; kill -SEGV $pid; wait $pid; touch rc-$?; }");
  expected["seen"] = 0;
  expected["rc-139"] = 0;  // 128 + SIGSEGV: the handler re-raised it
  EXPECT_EQ(k.listing(), expected);
  k.keep = ::testing::Test::HasFailure();
}

// Exit 1 keeps the report and says why on one stderr line: here CG stopped at solver.max_iterations.
TEST(bad_input_atomic_outputs, UnconvergedRunSaysWhy) {
  KfemRunner k("UnconvergedRunSaysWhy");
  k.write("d.yaml", beam + "bench: {warmup: 0, repetitions: 1}\nsolver: {max_iterations: 1}\n");
  const auto [code, out, err] = k.run("run d.yaml");
  EXPECT_EQ(code, 1) << out << err;
  const auto lines = nonempty_lines(err);
  ASSERT_EQ(lines.size(), 1u) << err;
  EXPECT_EQ(lines[0].rfind("kfem: error: CG (csr) not converged: relative residual ", 0), 0u) << lines[0];
  EXPECT_NE(
      lines[0].find(" after 1 iterations, the limit (solver.max_iterations), above the tolerance 1e-08"),
      std::string::npos)
      << lines[0];
  EXPECT_EQ(k.listing().count("kfem-report.json"), 1u);
  k.keep = ::testing::Test::HasFailure();
}

// The good counterparts: a finished command puts every output in place and leaves no temporary;
// a run whose CG does not converge (exit 1) keeps its report and exports; bench makes nested folders.
TEST(bad_input_atomic_outputs, FinishedCommandsPutOutputsInPlace) {
  struct Case {
    std::string args;
    int code;
    std::vector<std::string> outputs;
  };
  const Case cases[] = {
      {"run d.yaml --export-matrix K.mtx --export-mesh m.msh --export-solution u.vtu --report r.json",
       0,
       {"K.mtx", "m.msh", "r.json", "u.vtu"}},
      {"run unconverged.yaml --export-matrix K.mtx", 1, {"K.mtx", "kfem-report.json"}},
      {"bench d.yaml --out a/b/", 0, {"a/b/results.json"}}};
  const std::string quick = beam + "bench: {warmup: 0, repetitions: 1}\n";
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    KfemRunner k("FinishedCommandsPutOutputsInPlace" + std::to_string(i));
    k.write("d.yaml", quick);
    k.write("unconverged.yaml", quick + "solver: {max_iterations: 1}\n");
    const auto [code, out, err] = k.run(cases[i].args);
    EXPECT_EQ(code, cases[i].code) << cases[i].args << "\n" << out << err;
    for (const auto& name : cases[i].outputs) EXPECT_EQ(k.listing().count(name), 1u) << name;
    EXPECT_TRUE(names_with(k, "kfem-tmp").empty()) << cases[i].args;
    k.keep = ::testing::Test::HasFailure();
  }
}
