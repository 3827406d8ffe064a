// The four subcommands of kfem. Each returns the process exit code.
#pragma once
#include <string>

#include "deck.hpp"

namespace kfem::app {
int cmd_info();
int cmd_run(const Deck& deck);
int cmd_verify(const Deck& deck);
int cmd_bench(const Deck& deck, const std::string& out_dir);
// bench with bench.stages: banas' stage bench over element.order x meshes x mappings x scalars (stages.cpp).
int bench_stages(const Deck& deck, const std::string& out_dir);
}  // namespace kfem::app
