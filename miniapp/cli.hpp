// Command line of the kfem driver: subcommands run | bench | verify | info.
#pragma once

namespace kfem::app {
int main(int argc, char** argv);
}
