// kfem: finite-element matrix generation and assembly mini-app. See README.md.
#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>

#include "cli.hpp"

namespace {
// A crash is a kfem bug: say so on one line, then the raw frames (binary+offset, for addr2line) so a
// report from a machine without a debugger still names the function. Async-signal-safe calls only.
extern "C" void report_crash(int sig) {
  const char* what = sig == SIGSEGV
                         ? "kfem: internal error: segmentation fault (a kfem bug; frames follow)\n"
                         : "kfem: internal error: bus error or abort (a kfem bug; frames follow)\n";
  (void)!write(STDERR_FILENO, what, std::strlen(what));
  kfem::app::discard_outputs();  // a crashed command leaves no half-written outputs either
  void* frames[64];
  backtrace_symbols_fd(frames, backtrace(frames, 64), STDERR_FILENO);
  signal(sig, SIG_DFL);
  raise(sig);
}
}  // namespace

int main(int argc, char** argv) {
  void* warm[1];
  backtrace(warm, 1);  // loads libgcc's unwinder now, not inside the handler
  signal(SIGSEGV, report_crash);
  signal(SIGBUS, report_crash);
  return kfem::app::main(argc, argv);
}
