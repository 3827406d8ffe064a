// The four subcommands of kfem. Each returns the process exit code.
#pragma once
#include <string>

#include "deck.hpp"

namespace kfem::app {
int cmd_info();
int cmd_run(const Deck& deck);
int cmd_verify(const Deck& deck);
int cmd_bench(const Deck& deck, const std::string& out_dir);
}  // namespace kfem::app
