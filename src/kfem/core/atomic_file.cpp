#include "kfem/core/atomic_file.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "kfem/core/error.hpp"

namespace kfem {
std::string atomic_temporary(const std::string& path) {
  return path + ".tmp";
}

std::string staging_path(const std::string& path) {
  const std::filesystem::path p(path);
  return (p.parent_path() / fmt::format(".{}.kfem-tmp-{}", p.filename().string(), ::getpid())).string();
}

void move_into_place(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) == 0) return;
  const std::string msg = fmt::format("cannot write {}: rename failed: {}", to, std::strerror(errno));
  std::remove(from.c_str());
  throw InputError(msg);
}

void write_atomically(const std::string& path, std::string_view data) {
  detail::AtomicFile file(path);
  file.write(data);
  file.commit();
}

namespace detail {
AtomicFile::AtomicFile(const std::string& path) : path_(path), tmp_(atomic_temporary(path)) {
  file_ = std::fopen(tmp_.c_str(), "wb");
  if (!file_) throw InputError(fmt::format("cannot write {}: {}", tmp_, std::strerror(errno)));
}

AtomicFile::~AtomicFile() {
  if (file_) {
    std::fclose(file_);
    std::remove(tmp_.c_str());
  }
}

void AtomicFile::fail(const char* what) {
  const std::string msg = fmt::format("cannot write {}: {} failed: {}", path_, what, std::strerror(errno));
  if (file_) std::fclose(file_);
  file_ = nullptr;
  std::remove(tmp_.c_str());
  throw InputError(msg);
}

void AtomicFile::write(std::string_view data) {
  if (!file_) throw std::logic_error("AtomicFile::write after commit");
  if (std::fwrite(data.data(), 1, data.size(), file_) != data.size()) fail("write");
}

void AtomicFile::commit() {
  if (!file_) throw std::logic_error("AtomicFile::commit twice");
  // fclose reports deferred write errors (e.g. ENOSPC on the final flush).
  if (std::fflush(file_) != 0) fail("flush");
  const int rc = std::fclose(file_);
  file_ = nullptr;
  if (rc != 0) {
    std::remove(tmp_.c_str());
    throw InputError(fmt::format("cannot write {}: close failed: {}", path_, std::strerror(errno)));
  }
  move_into_place(tmp_, path_);
}
}  // namespace detail
}  // namespace kfem
