// MatrixMarket writer/reader and the atomic (tmp + rename) output file.
#include "kfem/io/matrix_market.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <vector>

#include "kfem/core/atomic_file.hpp"
#include "kfem/core/error.hpp"

namespace kfem {
template <class S>
void write_matrix_market(const std::string& path, const HostCsr<S>& A, bool symmetric_lower) {
  static_assert(std::is_same_v<S, float> || std::is_same_v<S, double>);
  const ordinal_t n = A.num_rows;
  if (A.row_map.size() != static_cast<std::size_t>(n) + 1 ||
      A.cols.size() != static_cast<std::size_t>(A.nnz()) || A.vals.size() != A.cols.size())
    throw std::invalid_argument("write_matrix_market: inconsistent CSR sizes");
  if (symmetric_lower) {  // check before creating anything
    for (ordinal_t r = 0; r < n; ++r)
      for (offset_t k = A.row_map[r]; k < A.row_map[r + 1]; ++k)
        if (A.cols[k] > r)
          throw std::invalid_argument(
              fmt::format("write_matrix_market: entry ({}, {}) above the diagonal of a lower-triangle matrix",
                          r, A.cols[k]));
  }

  // Enough significant digits that the decimal reads back to the same binary value.
  constexpr int digits = std::is_same_v<S, float> ? 9 : 17;
  detail::AtomicFile out(path);
  fmt::memory_buffer buf;
  fmt::format_to(fmt::appender(buf),
                 "%%MatrixMarket matrix coordinate real {}\n% written by kfem\n{} {} {}\n",
                 symmetric_lower ? "symmetric" : "general", n, n, A.nnz());
  for (ordinal_t r = 0; r < n; ++r) {
    for (offset_t k = A.row_map[r]; k < A.row_map[r + 1]; ++k)
      // float goes through double, as printf's %.9g would see it.
      fmt::format_to(fmt::appender(buf), "{} {} {:.{}g}\n", r + 1, A.cols[k] + 1,
                     static_cast<double>(A.vals[k]), digits);
    if (buf.size() > (1 << 20)) {
      out.write({buf.data(), buf.size()});
      buf.clear();
    }
  }
  out.write({buf.data(), buf.size()});
  out.commit();
}

namespace {
// A cursor over the file's text; numbers are parsed with from_chars (locale-independent).
struct Cursor {
  const char* p;
  const char* end;
  const std::string& path;

  [[noreturn]] void error(const std::string& what) const {
    throw InputError(fmt::format("{}: {}", path, what));
  }
  void skip_space() {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) ++p;
  }
  template <class T>
  T next(const char* what) {
    skip_space();
    if (p < end && *p == '+') ++p;  // from_chars rejects a leading '+', MatrixMarket allows it
    T v{};
    const auto [q, ec] = std::from_chars(p, end, v);
    if (ec != std::errc() || (q < end && !std::isspace(static_cast<unsigned char>(*q))))
      error(fmt::format("bad {} near '{}'", what, std::string(p, std::min<std::size_t>(end - p, 20))));
    p = q;
    return v;
  }
  std::string line() {  // the rest of the current line
    const char* q = std::find(p, end, '\n');
    std::string s(p, q);
    p = q < end ? q + 1 : q;
    if (!s.empty() && s.back() == '\r') s.pop_back();
    return s;
  }
};

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

template <class S>
HostCsr<S> read_matrix_market(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("cannot open {}: {}", path, std::strerror(errno)));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Cursor cur{text.data(), text.data() + text.size(), path};

  std::istringstream header(lower(cur.line()));
  std::string banner, object, format, field, symmetry;
  header >> banner >> object >> format >> field >> symmetry;
  if (banner != "%%matrixmarket" || object != "matrix" || format != "coordinate")
    cur.error("not a MatrixMarket coordinate matrix");
  if (field != "real" && field != "integer") cur.error(fmt::format("unsupported field '{}'", field));
  if (symmetry != "general" && symmetry != "symmetric")
    cur.error(fmt::format("unsupported symmetry '{}'", symmetry));
  const bool symmetric = symmetry == "symmetric";

  for (;;) {  // comments and blank lines before the size line
    cur.skip_space();
    if (cur.p < cur.end && *cur.p == '%') {
      cur.line();
    } else {
      break;
    }
  }
  const auto rows = cur.next<long long>("row count");
  const auto ncols = cur.next<long long>("column count");
  const auto nnz = cur.next<long long>("entry count");
  if (rows != ncols) cur.error("only square matrices are supported");
  if (rows < 0 || nnz < 0 || rows > std::numeric_limits<ordinal_t>::max()) cur.error("bad size line");

  std::vector<std::tuple<ordinal_t, ordinal_t, S>> entries;
  entries.reserve(static_cast<std::size_t>(nnz));
  for (long long k = 0; k < nnz; ++k) {
    const auto i = cur.next<long long>("row index");
    const auto j = cur.next<long long>("column index");
    const auto v = cur.next<S>("value");
    if (i < 1 || i > rows || j < 1 || j > rows)
      cur.error(fmt::format("entry {} ({}, {}) out of range", k + 1, i, j));
    if (symmetric && j > i)
      cur.error(fmt::format("entry {} ({}, {}) above the diagonal of a symmetric file", k + 1, i, j));
    entries.emplace_back(static_cast<ordinal_t>(i - 1), static_cast<ordinal_t>(j - 1), v);
  }
  cur.skip_space();
  if (cur.p != cur.end) cur.error("trailing data after the last entry");

  // Stable: duplicates keep their file order.
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
  });
  HostCsr<S> A;
  A.num_rows = static_cast<ordinal_t>(rows);
  A.row_map.assign(rows + 1, 0);
  A.cols.reserve(entries.size());
  A.vals.reserve(entries.size());
  for (const auto& [i, j, v] : entries) {
    ++A.row_map[i + 1];
    A.cols.push_back(j);
    A.vals.push_back(v);
  }
  for (long long r = 0; r < rows; ++r) A.row_map[r + 1] += A.row_map[r];
  return A;
}

template void write_matrix_market<float>(const std::string&, const HostCsr<float>&, bool);
template void write_matrix_market<double>(const std::string&, const HostCsr<double>&, bool);
template HostCsr<float> read_matrix_market<float>(const std::string&);
template HostCsr<double> read_matrix_market<double>(const std::string&);
}  // namespace kfem
