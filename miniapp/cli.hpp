// Command line of the kfem driver: subcommands run | bench | verify | info.
#pragma once
#include <string>
#include <vector>

namespace kfem::app {
int main(int argc, char** argv);
// Removes the running command's output temporaries (for the crash handler; async-signal-safe).
void discard_outputs() noexcept;
// The --kokkos-* options of argv, checked (InputError naming the option on a bad or unknown one)
// and spelled for the Kokkos kfem is built with (--kokkos-threads and --kokkos-num-threads both
// work); also checks KOKKOS_NUM_THREADS and KOKKOS_DEVICE_ID. For Kokkos::initialize.
std::vector<std::string> kokkos_arguments(int argc, const char* const* argv);
}  // namespace kfem::app
