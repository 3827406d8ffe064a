// kfem: finite-element matrix generation and assembly mini-app. See README.md.
#include "cli.hpp"

int main(int argc, char** argv) { return kfem::app::main(argc, argv); }
