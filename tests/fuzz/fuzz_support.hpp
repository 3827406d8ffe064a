// What the fuzz harnesses share: an in-memory file for the readers, which only take a path, and
// the one way a harness reports a finding (a message, then abort(), which libFuzzer and the
// replay test both see as a crash).
#pragma once
#include <cxxabi.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <typeinfo>

namespace kfem::fuzz {
[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "kfem fuzz finding: %s\n", what.c_str());
  std::abort();
}

inline void check(bool ok, const std::string& what) {
  if (!ok) finding("invariant violated: " + what);
}

// Anything but kfem::InputError escaping a reader is a finding: name its dynamic type.
[[noreturn]] inline void unexpected_exception(const std::exception& e) {
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> name(
      abi::__cxa_demangle(typeid(e).name(), nullptr, nullptr, &status), std::free);
  finding(std::string("unexpected exception ") + (status == 0 ? name.get() : typeid(e).name()) + ": " +
          e.what());
}

// A memfd reached through /proc/self/fd/N: the readers open a path, and this one never touches the
// disk, needs no cleanup and is private to the process (parallel fuzzers do not collide).
class MemoryFile {
 public:
  explicit MemoryFile(const char* name) : fd_(memfd_create(name, 0)) {
    if (fd_ < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;
  ~MemoryFile() { close(fd_); }

  // Replaces the contents with data[0, size) and returns the path that opens them.
  const std::string& hold(const std::uint8_t* data, std::size_t size) {
    if (ftruncate(fd_, 0) != 0) fail("ftruncate");
    for (std::size_t done = 0; done < size;) {
      const ssize_t n = pwrite(fd_, data + done, size - done, off_t(done));
      if (n <= 0) fail("pwrite");
      done += std::size_t(n);
    }
    return path_;
  }

 private:
  [[noreturn]] static void fail(const char* what) {
    std::perror(what);
    std::abort();
  }
  int fd_;
  std::string path_;
};
}  // namespace kfem::fuzz
