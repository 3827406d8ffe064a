// Replays a corpus through a fuzz harness without libFuzzer (any compiler): every regular file of
// each directory argument and every file argument goes through LLVMFuzzerTestOneInput once, each in
// a child process, so one finding (an abort, a crash, a sanitizer report) neither hides the
// findings of later inputs nor stops them from being replayed. Exit status 1 if any input failed.
//   replay_gmsh DIR_OR_FILE...
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR_OR_FILE...\n", argv[0]);
    return 2;
  }
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const fs::path arg = argv[i];
    if (fs::is_directory(arg)) {
      for (const auto& e : fs::directory_iterator(arg))
        if (e.is_regular_file()) inputs.push_back(e.path());
    } else if (fs::is_regular_file(arg)) {
      inputs.push_back(arg);
    } else {
      std::fprintf(stderr, "%s: no such file or directory\n", argv[i]);
      return 2;
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "no inputs: an empty corpus would pass without testing anything\n");
    return 2;
  }
  std::sort(inputs.begin(), inputs.end());  // the same order, and so the same report, every time
  std::vector<std::string> failed;
  for (const auto& path : inputs) {
    std::ifstream in(path, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) {
      std::fprintf(stderr, "%s: cannot read\n", path.c_str());
      return 2;
    }
    std::fflush(nullptr);  // or the child would print the parent's buffered output again
    const pid_t child = fork();
    if (child < 0) {
      std::perror("fork");
      return 2;
    }
    if (child == 0) {
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      std::exit(0);  // not _exit: the harness' static destructors clean up, LeakSanitizer checks
    }
    int status = 0;
    if (waitpid(child, &status, 0) != child) {
      std::perror("waitpid");
      return 2;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) continue;
    const std::string how = WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                                : "exit status " + std::to_string(WEXITSTATUS(status));
    std::fprintf(stderr, "FINDING %s (%zu bytes): %s\n", path.c_str(), bytes.size(), how.c_str());
    failed.push_back(path.string());
  }
  std::printf("%zu inputs replayed, %zu findings\n", inputs.size(), failed.size());
  for (const auto& f : failed) std::printf("  %s\n", f.c_str());
  return failed.empty() ? 0 : 1;
}
