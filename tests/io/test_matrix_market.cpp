// MatrixMarket write -> read round trips, and failure handling of the atomic writer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "kfem/core/error.hpp"
#include "kfem/io/matrix_market.hpp"

namespace fs = std::filesystem;

namespace {
// A fresh directory per test, removed afterwards.
class MatrixMarket : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kfem_mm_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const char* name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

// Values that need all 17 digits, plus signed zero, subnormals, extremes.
template <class S>
kfem::HostCsr<S> sample_matrix(bool lower_only) {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<S> dist(-1, 1);
  const S specials[] = {S(0.1),
                        S(1) / S(3),
                        -S(0.0),
                        std::numeric_limits<S>::denorm_min(),
                        std::numeric_limits<S>::max(),
                        std::numeric_limits<S>::lowest(),
                        std::numeric_limits<S>::min(),
                        S(-2.5)};
  kfem::HostCsr<S> A;
  A.num_rows = 40;
  A.row_map.push_back(0);
  int special = 0;
  for (int r = 0; r < A.num_rows; ++r) {
    for (int c = 0; c < A.num_rows; ++c) {
      if (lower_only && c > r) break;
      if (c != r && (r * 7 + c * 3) % 5 != 0) continue;  // a few off-diagonals per row
      A.cols.push_back(c);
      A.vals.push_back(special < 8 ? specials[special++] : dist(rng) * std::pow(S(10), S((r + c) % 9 - 4)));
    }
    A.row_map.push_back(static_cast<kfem::offset_t>(A.cols.size()));
  }
  return A;
}

template <class S>
void expect_bit_exact(const kfem::HostCsr<S>& a, const kfem::HostCsr<S>& b) {
  EXPECT_EQ(a.num_rows, b.num_rows);
  EXPECT_EQ(a.row_map, b.row_map);
  EXPECT_EQ(a.cols, b.cols);
  ASSERT_EQ(a.vals.size(), b.vals.size());
  for (std::size_t k = 0; k < a.vals.size(); ++k)
    EXPECT_EQ(0, std::memcmp(&a.vals[k], &b.vals[k], sizeof(S)))
        << "entry " << k << ": " << a.vals[k] << " vs " << b.vals[k];
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST_F(MatrixMarket, GeneralRoundTripIsBitExactDouble) {
  const auto A = sample_matrix<double>(false);
  kfem::write_matrix_market(file("a.mtx"), A, false);
  const std::string text = slurp(file("a.mtx"));
  EXPECT_EQ(text.rfind("%%MatrixMarket matrix coordinate real general\n% written by kfem\n40 40 ", 0), 0u)
      << text;
  EXPECT_FALSE(fs::exists(file("a.mtx.tmp")));
  expect_bit_exact(A, kfem::read_matrix_market<double>(file("a.mtx")));
}

TEST_F(MatrixMarket, SymmetricRoundTripIsBitExactDouble) {
  const auto L = sample_matrix<double>(true);
  kfem::write_matrix_market(file("l.mtx"), L, true);
  EXPECT_EQ(slurp(file("l.mtx")).rfind("%%MatrixMarket matrix coordinate real symmetric\n", 0), 0u);
  expect_bit_exact(L, kfem::read_matrix_market<double>(file("l.mtx")));
}

TEST_F(MatrixMarket, RoundTripIsBitExactFloat) {
  const auto A = sample_matrix<float>(false);
  kfem::write_matrix_market(file("f.mtx"), A, false);
  expect_bit_exact(A, kfem::read_matrix_market<float>(file("f.mtx")));
}

TEST_F(MatrixMarket, OneBasedEntriesInRowOrder) {
  kfem::HostCsr<double> A;  // [[2, 0], [-1, 0.5]]
  A.num_rows = 2;
  A.row_map = {0, 1, 3};
  A.cols = {0, 0, 1};
  A.vals = {2.0, -1.0, 0.5};
  kfem::write_matrix_market(file("s.mtx"), A, true);
  EXPECT_EQ(
      slurp(file("s.mtx")),
      "%%MatrixMarket matrix coordinate real symmetric\n% written by kfem\n2 2 3\n1 1 2\n2 1 -1\n2 2 0.5\n");
}

TEST_F(MatrixMarket, ReaderSortsColumnsAndAcceptsComments) {
  std::ofstream(file("u.mtx")) << "%%MatrixMarket matrix coordinate real general\n% c1\n%c2\n3 3 4\n"
                                  "3 3 1.5\n1 3 +2\n1 1 -3e-2\n2 2 4\n";
  const auto A = kfem::read_matrix_market<double>(file("u.mtx"));
  EXPECT_EQ(A.num_rows, 3);
  EXPECT_EQ(A.row_map, (std::vector<kfem::offset_t>{0, 2, 3, 4}));
  EXPECT_EQ(A.cols, (std::vector<kfem::ordinal_t>{0, 2, 1, 2}));
  EXPECT_EQ(A.vals, (std::vector<double>{-3e-2, 2, 4, 1.5}));
}

TEST_F(MatrixMarket, ReaderRejectsBadInput) {
  std::ofstream(file("bad1.mtx")) << "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n";
  std::ofstream(file("bad2.mtx")) << "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n";
  std::ofstream(file("bad3.mtx")) << "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1.0\n";
  std::ofstream(file("bad4.mtx")) << "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1.0\n";
  std::ofstream(file("bad5.mtx")) << "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 x\n";
  for (const char* f : {"bad1.mtx", "bad2.mtx", "bad3.mtx", "bad4.mtx", "bad5.mtx", "missing.mtx"})
    EXPECT_THROW(kfem::read_matrix_market<double>(file(f)), kfem::InputError) << f;
}

TEST_F(MatrixMarket, UnwritablePathThrowsAndLeavesNothing) {
  const auto A = sample_matrix<double>(false);
  const std::string missing_dir = file("no/such/dir/a.mtx");
  EXPECT_THROW(kfem::write_matrix_market(missing_dir, A, false), kfem::InputError);
  EXPECT_FALSE(fs::exists(missing_dir));
  EXPECT_FALSE(fs::exists(missing_dir + ".tmp"));

  // The .tmp can be written but the rename onto a directory fails: the .tmp must be cleaned up.
  fs::create_directory(file("occupied"));
  EXPECT_THROW(kfem::write_matrix_market(file("occupied"), A, false), kfem::InputError);
  EXPECT_TRUE(fs::is_directory(file("occupied")));
  EXPECT_FALSE(fs::exists(file("occupied.tmp")));
}

TEST_F(MatrixMarket, UpperEntryInLowerTriangleModeThrowsBeforeWriting) {
  const auto A = sample_matrix<double>(false);
  EXPECT_THROW(kfem::write_matrix_market(file("x.mtx"), A, true), std::invalid_argument);
  EXPECT_FALSE(fs::exists(file("x.mtx")));
  EXPECT_FALSE(fs::exists(file("x.mtx.tmp")));
}
