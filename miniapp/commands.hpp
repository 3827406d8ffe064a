// The four subcommands of kfem. Each returns the process exit code.
#pragma once
#include <string>

#include "deck.hpp"
#include "output_files.hpp"

namespace kfem::app {
inline constexpr const char* default_report = "kfem-report.json";  // run without output.report

int cmd_info();
// outputs: the report and the deck's exports (the run writes their temporaries and commits them).
int cmd_run(const Deck& deck, OutputSet& outputs);
int cmd_verify(const Deck& deck);
// The current OutputSet holds out_dir/results.json (write_json and finish_bench use it).
int cmd_bench(const Deck& deck, const std::string& out_dir);
// bench with bench.stages: banas' stage bench over element.order x meshes x mappings x scalars
// (bench_stages.cpp; its points: kfem/pipeline/stage_bench.cpp).
int bench_stages(const Deck& deck, const std::string& out_dir);
// bench with bench.scaling under mpirun: weak and strong scaling over rank counts (bench_scaling.cpp).
int bench_scaling(const Deck& deck, const std::string& out_dir);
// bench with bench.procurement: the validated figure of merit on every rank (bench_procurement.cpp).
int bench_procurement(const Deck& deck, const std::string& out_dir);
}  // namespace kfem::app
