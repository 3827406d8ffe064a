// The tuner without the driver (kfem/pipeline/tuner.hpp): a choice is the fastest verified candidate,
// cached under its key and answered from the cache the next time; a cache kfem did not write is
// replaced, one it cannot write leaves a note and the choice; a fixed race fixes the candidates,
// and a pairing the pipeline refuses is recorded, not fatal. The driver's end-to-end checks (the
// summary line, --retune, other families, mpirun) are tests/miniapp/check_tuner.py.
#include "kfem/pipeline/tuner.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "kfem/core/error.hpp"

namespace kfem::test {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// A small hex8 box, and the caches of the running test: files of gtest's temporary folder, named
// for the process, removed afterwards.
class PipelineTuner : public ::testing::Test {
 protected:
  PipelineTuner() {
    pipeline::MeshSpec spec;
    spec.name = "box";
    spec.box = BoxSpec{3, 2, 2, 3.0, 2.0, 2.0};
    model_ = pipeline::build_model(spec, settings_, std::nullopt);
  }
  void TearDown() override {
    for (const std::string& f : files_) fs::remove_all(f);
  }
  std::string scratch(const std::string& name) {
    files_.push_back(::testing::TempDir() + "kfem_tuner_" + std::to_string(::getpid()) + "_" + name);
    fs::remove_all(files_.back());
    return files_.back();
  }
  // The query of one race handling (fewer candidates) with its cache at `cache`.
  static pipeline::TunerQuery query(const std::string& race, const std::string& cache) {
    pipeline::TunerQuery q;
    q.race = race;
    q.cache = cache;
    return q;
  }
  pipeline::TunerChoice tune(const pipeline::TunerQuery& q) const {
    return pipeline::tune(model_, settings_, q);
  }

  pipeline::Settings settings_;
  pipeline::Model model_;
  std::vector<std::string> files_;
};

TEST_F(PipelineTuner, ChoosesTheFastestVerifiedThenAnswersFromTheCache) {
  const pipeline::TunerQuery q = query("atomic", scratch("tuner.json"));
  const pipeline::TunerChoice tuned = tune(q);
  EXPECT_TRUE(tuned.notes.empty());
  EXPECT_EQ(tuned.report["source"], "tuned");
  EXPECT_EQ(tuned.race, "atomic");
  double fastest = 1e300;
  for (const json& c : tuned.report["candidates"]) {
    EXPECT_EQ(c["race"], "atomic");
    EXPECT_EQ(c["verification"], "passed") << c.dump();
    fastest = std::min(fastest, c["median_s"].get<double>());
  }
  EXPECT_LE(tuned.report["median_s"].get<double>(), 1.01 * fastest);
  const json cache = json::parse(std::ifstream(q.cache));
  EXPECT_EQ(cache["kfem_tuner"], 1);
  EXPECT_EQ(cache["entries"][tuned.report["key"].get<std::string>()]["mapping"], tuned.mapping);
  EXPECT_FALSE(fs::exists(q.cache + ".tmp"));

  const pipeline::TunerChoice cached = tune(q);
  EXPECT_EQ(cached.report["source"], "cache");
  EXPECT_EQ(cached.mapping, tuned.mapping);
  EXPECT_EQ(cached.report["tuned_at"], tuned.report["tuned_at"]);
}

TEST_F(PipelineTuner, ReplacesACacheItDidNotWrite) {
  const pipeline::TunerQuery q = query("atomic", scratch("corrupt.json"));
  std::ofstream(q.cache) << "{ not json";
  const pipeline::TunerChoice tuned = tune(q);
  ASSERT_EQ(tuned.notes.size(), 1u);
  EXPECT_NE(tuned.notes[0].find("is not one kfem wrote"), std::string::npos) << tuned.notes[0];
  EXPECT_EQ(json::parse(std::ifstream(q.cache))["kfem_tuner"], 1);
}

TEST_F(PipelineTuner, ACacheItCannotWriteCostsANoteNotTheChoice) {
  const std::string file = scratch("file");
  std::ofstream(file) << "a file where the cache's folder should be\n";
  const pipeline::TunerChoice tuned = tune(query("atomic", file + "/tuner.json"));
  EXPECT_EQ(tuned.report["source"], "tuned");
  ASSERT_EQ(tuned.notes.size(), 1u);
  EXPECT_NE(tuned.notes[0].find("the choice is not remembered"), std::string::npos) << tuned.notes[0];
}

// a-COO pushes through the generic mappings alone: the hex8 fast paths are refused and recorded.
TEST_F(PipelineTuner, RecordsTheCandidatesThePipelineRefuses) {
  const pipeline::TunerChoice tuned = tune(query("acoo", scratch("acoo.json")));
  std::size_t refused = 0, passed = 0;
  for (const json& c : tuned.report["candidates"]) {
    const std::string v = c["verification"];
    refused += v.rfind("refused: ", 0) == 0;
    passed += v == "passed";
  }
  EXPECT_EQ(passed, 2u);  // thread and team
  EXPECT_GT(refused, 0u);
  EXPECT_TRUE(tuned.mapping == "thread" || tuned.mapping == "team") << tuned.mapping;
}
}  // namespace
}  // namespace kfem::test
