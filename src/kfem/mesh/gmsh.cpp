// Gmsh MSH 4.1 ASCII reader (a line-aware tokenizer over the whole file, so every error can
// name its line) and writer, for tri3, tet4 (also read from tet10), prism6 and hex8 meshes and
// their physical groups.
#include "kfem/mesh/gmsh.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kfem/core/atomic_file.hpp"
#include "kfem/core/error.hpp"
#include "kfem/mesh/validate.hpp"

namespace kfem {
namespace {
using tag_t = long long;  // Gmsh tags are size_t in the file; anything negative is malformed

std::string slurp(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw InputError(path + ": cannot open file (" + ec.message() + ")");
  std::ifstream in(path, std::ios::binary);
  std::string text(size, '\0');
  if (!in || !in.read(text.data(), std::streamsize(size))) throw InputError(path + ": cannot read file");
  return text;
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

// Walks the text line by line (blank lines skipped), splits each line into whitespace-separated
// tokens and formats every error as "<path>:<line>: <what>".
class Parser {
 public:
  Parser(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {}

  bool next_line() {
    while (pos_ < text_.size()) {
      const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
      split(std::string_view(text_).substr(pos_, end - pos_));
      pos_ = end + 1;
      ++line_;
      if (!tokens_.empty()) return true;
    }
    return false;
  }

  // The next line inside `section`: running out of text there means the file was cut short.
  void require_line(std::string_view section) {
    if (!next_line()) fail(fmt::format("unexpected end of file in {} (truncated file?)", section));
  }

  // A section must end with its $End line, e.g. "$EndNodes" for "$Nodes".
  void require_end(std::string_view section) {
    const std::string end = "$End" + std::string(section.substr(1));
    require_line(section);
    if (count() != 1 || token(0) != end) fail(fmt::format("expected {}, found '{}'", end, token(0)));
  }

  std::size_t count() const { return tokens_.size(); }
  std::string_view raw_line() const { return raw_; }
  std::string_view token(std::size_t i) const { return tokens_[i]; }
  std::size_t line() const { return line_; }
  std::size_t bytes_left() const { return pos_ < text_.size() ? text_.size() - pos_ : 0; }

  void expect_count(std::size_t n, std::string_view what) const {
    if (count() != n) fail(fmt::format("expected {} values ({}), found {}", n, what, count()));
  }

  tag_t integer(std::size_t i, std::string_view what) const {
    tag_t v = 0;
    const auto t = token(i);
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size()) fail(fmt::format("malformed {} '{}'", what, t));
    return v;
  }

  // A count or tag: an integer in [lo, hi].
  tag_t integer_in(std::size_t i, std::string_view what, tag_t lo, tag_t hi) const {
    const tag_t v = integer(i, what);
    if (v < lo || v > hi) fail(fmt::format("{} {} out of range [{}, {}]", what, v, lo, hi));
    return v;
  }

  double coordinate(std::size_t i) const {
    auto t = token(i);
    if (t.size() > 1 && t[0] == '+') t.remove_prefix(1);  // from_chars rejects the '+' strtod accepts
    double v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (end != t.data() + t.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
      fail(fmt::format("malformed coordinate '{}'", token(i)));
    if (ec != std::errc() || !std::isfinite(v))
      fail(fmt::format("coordinate '{}' is not a finite number", token(i)));
    return v;
  }

  [[noreturn]] void fail(const std::string& what) const { fail_at(line_, what); }
  [[noreturn]] void fail_at(std::size_t line, const std::string& what) const {
    throw InputError(fmt::format("{}:{}: {}", path_, std::max<std::size_t>(line, 1), what));
  }

 private:
  void split(std::string_view s) {
    raw_ = s;
    tokens_.clear();
    for (std::size_t i = 0; i < s.size();) {
      while (i < s.size() && is_space(s[i])) ++i;
      const std::size_t begin = i;
      while (i < s.size() && !is_space(s[i])) ++i;
      if (i > begin) tokens_.push_back(s.substr(begin, i - begin));
    }
  }

  std::string path_, text_;
  std::size_t pos_ = 0, line_ = 0;
  std::string_view raw_;
  std::vector<std::string_view> tokens_;
};

// File tag -> dense node index: a flat table when tags are compact (what Gmsh writes), else a hash map.
class TagIndex {
 public:
  // Tags in [min_tag, max_tag], both >= 0; max_tag < min_tag is an empty range.
  void reset(tag_t min_tag, tag_t max_tag, tag_t count) {
    min_ = min_tag;
    max_ = std::max(max_tag, min_tag - 1);
    dense_ = max_ - min_ <= 4 * count + 1024;
    if (dense_) table_.assign(std::size_t(max_ - min_ + 1), -1);
  }
  bool in_range(tag_t tag) const { return tag >= min_ && tag <= max_; }
  // False when the tag was already present.
  bool insert(tag_t tag, ordinal_t index) {
    if (!dense_) return sparse_.emplace(tag, index).second;
    ordinal_t& slot = table_[tag - min_];
    if (slot >= 0) return false;
    slot = index;
    return true;
  }
  // Dense index of tag, or -1 when no node has that tag.
  ordinal_t find(tag_t tag) const {
    if (!in_range(tag)) return -1;
    if (dense_) return table_[tag - min_];
    const auto it = sparse_.find(tag);
    return it == sparse_.end() ? -1 : it->second;
  }

 private:
  tag_t min_ = 0, max_ = -1;
  bool dense_ = true;
  std::vector<ordinal_t> table_;
  std::unordered_map<tag_t, ordinal_t> sparse_;
};

struct NodeTable {
  std::vector<std::array<double, 3>> coords;
  std::vector<tag_t> tags;         // file tag of each dense node
  std::vector<std::size_t> lines;  // line of its coordinates, for errors found after reading
  TagIndex index;
};

// The element types read: cells (2 in 2D; 4, 11, 5 and 6 in 3D) and boundary elements (15; 1, 8;
// 2, 9; 3, 16, 10). Only the first `corners` nodes (Gmsh lists the vertices first) are mesh nodes:
// the others of the second-order types are mid-edge, mid-face or centre nodes.
struct ElementType {
  int nodes, corners, dim;
  const char* name;
};

constexpr int kTet10 = 11;
constexpr int kMaxElementNodes = 10;  // of the types read (tet10)

const ElementType* element_type(tag_t type) {
  static constexpr ElementType kPoint{1, 1, 0, "point"}, kLine{2, 2, 1, "2-node line"},
      kLine3{3, 2, 1, "3-node line"}, kTri{3, 3, 2, "3-node triangle"}, kTri6{6, 3, 2, "6-node triangle"},
      kQuad{4, 4, 2, "4-node quadrangle"}, kQuad8{8, 4, 2, "8-node quadrangle"},
      kQuad9{9, 4, 2, "9-node quadrangle"}, kTet{4, 4, 3, "4-node tetrahedron"},
      kTet10Type{10, 4, 3, "10-node tetrahedron"}, kHex{8, 8, 3, "8-node hexahedron"},
      kPrism{6, 6, 3, "6-node prism"};
  switch (type) {
    case 15:
      return &kPoint;
    case 1:
      return &kLine;
    case 8:
      return &kLine3;
    case 2:
      return &kTri;
    case 9:
      return &kTri6;
    case 3:
      return &kQuad;
    case 16:
      return &kQuad8;
    case 10:
      return &kQuad9;
    case 4:
      return &kTet;
    case kTet10:
      return &kTet10Type;
    case 5:
      return &kHex;
    case 6:
      return &kPrism;
    default:
      return nullptr;
  }
}

// Gmsh's element types that kfem does not read, named so that the error says what the file holds.
const char* unsupported_type_name(tag_t type) {
  static constexpr std::pair<tag_t, const char*> kNames[] = {
      {7, "5-node pyramid"},       {12, "27-node hexahedron"},  {13, "18-node prism"},
      {14, "14-node pyramid"},     {17, "20-node hexahedron"},  {18, "15-node prism"},
      {19, "13-node pyramid"},     {20, "9-node triangle"},     {21, "10-node triangle"},
      {22, "12-node triangle"},    {23, "15-node triangle"},    {24, "15-node triangle of order 5"},
      {25, "21-node triangle"},    {26, "4-node line"},         {27, "5-node line"},
      {28, "6-node line"},         {29, "20-node tetrahedron"}, {30, "35-node tetrahedron"},
      {31, "56-node tetrahedron"}, {92, "64-node hexahedron"},  {93, "125-node hexahedron"}};
  for (const auto& [t, name] : kNames)
    if (t == type) return name;
  return nullptr;
}

std::string type_label(int type) {
  return fmt::format("type {} ({})", type, element_type(type)->name);
}

// One $Elements block. Its elements are [first, first + count) of the table holding it (cells or
// boundary elements); a boundary block's corner node indices start at boundary_nodes[nodes_at].
struct Block {
  int dim;
  tag_t entity;
  int type;
  std::size_t line, first, count, nodes_at;
};

// Elements of the highest dimension seen so far are the cell candidates, kept as mesh rows; a
// block of a higher dimension turns them into boundary elements (Gmsh writes blocks by increasing
// dimension, so in practice only a 3D file's surface blocks move, once).
struct ElementTable {
  int dim = -1;                   // dimension of the cell candidates
  int type = 0;                   // type of their first block
  std::size_t conflict_line = 0;  // first block of that dimension with another type (0: none)
  int conflict_type = 0;
  std::vector<Block> cell_blocks;
  std::vector<std::array<ordinal_t, max_cell_vertices>> rows;  // dense corner node indices, tail -1
  std::vector<tag_t> tags;
  std::vector<std::size_t> lines;  // so geometric errors can point at the element's line

  std::vector<Block> boundary_blocks;
  std::vector<ordinal_t> boundary_nodes;  // corners only
  std::vector<tag_t> boundary_tags;
  std::vector<std::size_t> boundary_lines;

  void demote() {
    for (Block b : cell_blocks) {
      const int n = element_type(b.type)->corners;
      const std::size_t first = b.first;
      b.first = boundary_tags.size();
      b.nodes_at = boundary_nodes.size();
      for (std::size_t i = first; i < first + b.count; ++i) {
        boundary_nodes.insert(boundary_nodes.end(), rows[i].begin(), rows[i].begin() + n);
        boundary_tags.push_back(tags[i]);
        boundary_lines.push_back(lines[i]);
      }
      boundary_blocks.push_back(b);
    }
    cell_blocks.clear();
    rows = {};
    tags = {};
    lines = {};
    conflict_line = 0;
  }
};

// $PhysicalNames and $Entities: which physical groups each entity belongs to, and their names.
struct Groups {
  struct Name {
    std::string name;
    std::size_t line;
  };
  bool have_names = false, have_entities = false;
  std::map<std::pair<int, tag_t>, Name> names;                      // (dim, physical tag)
  std::map<std::pair<int, tag_t>, std::vector<tag_t>> entity_tags;  // (dim, entity) -> physical tags

  std::string name_of(int dim, tag_t physical) const {
    const auto it = names.find({dim, physical});
    return it != names.end() ? it->second.name : std::to_string(physical);
  }
};

constexpr tag_t kMaxCount = std::numeric_limits<ordinal_t>::max();

void read_format(Parser& p) {
  if (!p.next_line() || p.count() != 1 || p.token(0) != "$MeshFormat")
    p.fail("missing $MeshFormat header (not a Gmsh MSH file?)");
  p.require_line("$MeshFormat");
  p.expect_count(3, "version file-type data-size");
  if (p.token(0) != "4.1")
    p.fail(fmt::format("unsupported MSH version {} (only 4.1 is read; re-export with gmsh -format msh41)",
                       p.token(0)));
  if (p.integer(1, "file-type") != 0)
    p.fail("binary MSH files are not supported (file-type must be 0, ASCII)");
  p.integer(2, "data-size");
  p.require_end("$MeshFormat");
}

// Sections this reader does not need ($NodeData, $Periodic, ...): no line inside a section starts
// with "$End<Name>", so skipping to it is exact.
void skip_section(Parser& p, std::string_view name) {
  const std::string end = "$End" + std::string(name.substr(1));
  do {
    p.require_line(name);
  } while (p.token(0) != end);
}

// numPhysicalNames, then lines "dimension physicalTag "name"" (the name may hold spaces).
void read_physical_names(Parser& p, Groups& groups) {
  p.require_line("$PhysicalNames");
  p.expect_count(1, "numPhysicalNames");
  const tag_t n = p.integer_in(0, "count", 0, kMaxCount);
  for (tag_t i = 0; i < n; ++i) {
    p.require_line("$PhysicalNames");
    if (p.count() < 3)
      p.fail(fmt::format("expected dimension, tag and \"name\", found {} values", p.count()));
    const int dim = int(p.integer_in(0, "physical group dimension", 0, 3));
    const tag_t tag = p.integer(1, "physical tag");
    const std::string_view line = p.raw_line();
    std::string_view rest = line.substr(std::size_t(p.token(1).data() + p.token(1).size() - line.data()));
    while (!rest.empty() && is_space(rest.front())) rest.remove_prefix(1);
    while (!rest.empty() && is_space(rest.back())) rest.remove_suffix(1);
    if (rest.size() < 2 || rest.front() != '"' || rest.back() != '"')
      p.fail(fmt::format("physical name must be in double quotes, found '{}'", rest));
    if (!groups.names
             .emplace(std::pair{dim, tag},
                      Groups::Name{std::string(rest.substr(1, rest.size() - 2)), p.line()})
             .second)
      p.fail(fmt::format("second name for physical group {} of dimension {}", tag, dim));
  }
  p.require_end("$PhysicalNames");
}

// Counts of points, curves, surfaces and volumes, then one line per entity: "tag x y z" (points) or
// "tag minX minY minZ maxX maxY maxZ" (the others), numPhysicalTags and the tags, and for curves,
// surfaces and volumes numBounding and the bounding entities. Coordinates are not needed.
void read_entities(Parser& p, Groups& groups) {
  p.require_line("$Entities");
  p.expect_count(4, "numPoints numCurves numSurfaces numVolumes");
  tag_t counts[4];
  for (int d = 0; d < 4; ++d) counts[d] = p.integer_in(d, "entity count", 0, kMaxCount);
  for (int d = 0; d < 4; ++d)
    for (tag_t i = 0; i < counts[d]; ++i) {
      p.require_line("$Entities");
      const std::size_t head = d == 0 ? 4 : 7;  // tag and coordinates or bounding box
      const char* what = d == 0 ? "tag x y z numPhysicalTags" : "tag, bounding box, numPhysicalTags";
      if (p.count() < head + 1)
        p.fail(fmt::format("expected at least {} values ({}), found {}", head + 1, what, p.count()));
      const tag_t tag = p.integer(0, "entity tag");
      const tag_t np = p.integer_in(head, "physical tag count", 0, tag_t(p.count() - head - 1));
      std::vector<tag_t> physical(static_cast<std::size_t>(np));
      for (tag_t k = 0; k < np; ++k) physical[k] = p.integer(head + 1 + k, "physical tag");
      std::size_t expected = head + 1 + np;
      if (d > 0) {
        if (p.count() <= expected) p.fail(fmt::format("missing the bounding entity count of entity {}", tag));
        expected += 1 + p.integer_in(expected, "bounding entity count", 0, kMaxCount);
      }
      p.expect_count(expected, d == 0 ? "point entity with its physical tags"
                                      : "entity with bounding box, physical tags and bounding entities");
      if (!groups.entity_tags.emplace(std::pair{d, tag}, std::move(physical)).second)
        p.fail(fmt::format("duplicate entity {} of dimension {}", tag, d));
    }
  p.require_end("$Entities");
}

// "numEntityBlocks numItems minTag maxTag" of $Nodes or $Elements; an item (node, element) needs
// at least min_bytes of text, so an impossible count is reported here rather than as an allocation.
std::array<tag_t, 4> read_section_header(Parser& p, std::string_view section, std::string_view items,
                                         std::size_t min_bytes) {
  p.require_line(section);
  p.expect_count(4, "numEntityBlocks count minTag maxTag");
  // Tags are size_t in Gmsh: a negative one is malformed, and non-negative bounds keep
  // maxTag - minTag (the tag table's span) from overflowing.
  const std::array<tag_t, 4> h{p.integer_in(0, "block count", 0, kMaxCount),
                               p.integer_in(1, "count", 0, std::numeric_limits<tag_t>::max()),
                               p.integer_in(2, "minTag", 0, std::numeric_limits<tag_t>::max()),
                               p.integer_in(3, "maxTag", 0, std::numeric_limits<tag_t>::max())};
  if (h[1] > kMaxCount)
    p.fail(fmt::format("{} declares {} {}s, more than kfem's 32-bit ids (ordinal_t) address ({})", section,
                       h[1], items, kMaxCount));
  if (std::size_t(h[1]) > p.bytes_left() / min_bytes)
    p.fail(fmt::format("{} declares {} {}s, more than the rest of the file can hold (truncated file?)",
                       section, h[1], items));
  if (h[1] > 0 && h[2] > h[3]) p.fail(fmt::format("minTag {} > maxTag {}", h[2], h[3]));
  return h;
}

// A block's size, checked against what the section header has left (`declared` items in all,
// `held` in the blocks before it): the header's count is already bounded by the file's size, so
// nothing is reserved for a size the file cannot hold.
tag_t block_size(const Parser& p, std::string_view section, std::string_view items, tag_t declared,
                 tag_t held) {
  const tag_t n = p.integer_in(3, "block size", 0, std::numeric_limits<tag_t>::max());
  if (n > declared - held)
    p.fail(fmt::format("block of {} {}s, but {} declares {} {}s and the blocks before hold {}", n, items,
                       section, declared, items, held));
  return n;
}

void read_node_block(Parser& p, NodeTable& nodes, tag_t declared) {
  p.require_line("$Nodes");
  p.expect_count(4, "entityDim entityTag parametric numNodesInBlock");
  const tag_t dim = p.integer_in(0, "entity dimension", 0, 3);
  const tag_t parametric = p.integer_in(2, "parametric flag", 0, 1);
  const tag_t n = block_size(p, "$Nodes", "node", declared, tag_t(nodes.tags.size()));
  for (tag_t i = 0; i < n; ++i) {
    p.require_line("$Nodes");
    p.expect_count(1, "node tag");
    const tag_t tag = p.integer(0, "node tag");
    if (!nodes.index.in_range(tag))
      p.fail(fmt::format("node tag {} outside the declared minTag..maxTag", tag));
    if (!nodes.index.insert(tag, ordinal_t(nodes.tags.size())))
      p.fail(fmt::format("duplicate node tag {}", tag));
    nodes.tags.push_back(tag);
  }
  const std::size_t values = 3 + (parametric ? std::size_t(dim) : 0);  // x y z, then u [v [w]]
  for (tag_t i = 0; i < n; ++i) {
    p.require_line("$Nodes");
    p.expect_count(values, parametric ? "x y z and parametric coordinates" : "x y z");
    nodes.coords.push_back({p.coordinate(0), p.coordinate(1), p.coordinate(2)});
    nodes.lines.push_back(p.line());
  }
}

void read_nodes(Parser& p, NodeTable& nodes) {
  const auto [blocks, total, min_tag, max_tag] = read_section_header(p, "$Nodes", "node", 8);
  nodes.index.reset(min_tag, max_tag, total);
  nodes.coords.reserve(std::size_t(total));
  nodes.tags.reserve(std::size_t(total));
  nodes.lines.reserve(std::size_t(total));
  for (tag_t b = 0; b < blocks; ++b) read_node_block(p, nodes, total);
  if (tag_t(nodes.tags.size()) != total)
    p.fail(fmt::format("$Nodes declares {} nodes but its blocks hold {}", total, nodes.tags.size()));
  p.require_end("$Nodes");
}

template <class T>
void grow(std::vector<T>& v, std::size_t extra) {
  if (v.capacity() < v.size() + extra) v.reserve(std::max(v.size() + extra, 2 * v.capacity()));
}

// A 10-node tetrahedron's mid-edge nodes (Gmsh order: nodes 4..9 on these edges) must sit at the
// edges' midpoints: kfem builds P2 from the corners alone, with straight edges, so a curved cell
// would silently lose its curvature.
constexpr int kTet10Edges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {3, 0}, {3, 2}, {3, 1}};
constexpr double kMidpointTolerance = 1e-6;  // distance to the midpoint, relative to the edge length

void check_straight_tet10(const Parser& p, const NodeTable& nodes, tag_t tag, const ordinal_t* v,
                          const tag_t* node_tags) {
  for (int k = 0; k < 6; ++k) {
    const int a = kTet10Edges[k][0], b = kTet10Edges[k][1];
    const auto &xa = nodes.coords[v[a]], &xb = nodes.coords[v[b]], &xm = nodes.coords[v[4 + k]];
    double edge[3], off[3], scale = 0;
    for (int c = 0; c < 3; ++c) {
      edge[c] = xb[c] - xa[c];
      off[c] = xm[c] - (0.5 * xa[c] + 0.5 * xb[c]);
      scale = std::max({scale, std::abs(edge[c]), std::abs(off[c])});
    }
    if (scale == 0) continue;    // a collapsed edge with its node on it: the corners' check finds it
    double edge2 = 0, off2 = 0;  // in units of `scale`, so that no square overflows
    for (int c = 0; c < 3; ++c) {
      edge2 += (edge[c] / scale) * (edge[c] / scale);
      off2 += (off[c] / scale) * (off[c] / scale);
    }
    if (off2 > kMidpointTolerance * kMidpointTolerance * edge2)
      p.fail(fmt::format(
          "element {}: mid-edge node {} lies {:g} from the midpoint of its edge {}-{} (length {:g}, "
          "tolerance {:g} of it); curved tet10 cells are not supported: kfem's P2 is straight-sided (built "
          "from the 4 corners); save straight-sided cells (Gmsh option Mesh.SecondOrderLinear = 1) or "
          "linear ones (Mesh.ElementOrder = 1; kfem raises the order itself)",
          tag, node_tags[4 + k], std::sqrt(off2) * scale, node_tags[a], node_tags[b],
          std::sqrt(edge2) * scale, kMidpointTolerance));
  }
}

tag_t read_element_block(Parser& p, const NodeTable& nodes, ElementTable& els, tag_t declared, tag_t held) {
  p.require_line("$Elements");
  p.expect_count(4, "entityDim entityTag elementType numElementsInBlock");
  const tag_t dim = p.integer_in(0, "entity dimension", 0, 3);
  const tag_t entity = p.integer(1, "entity tag");
  const tag_t type = p.integer(2, "element type");
  const tag_t n = block_size(p, "$Elements", "element", declared, held);
  const ElementType* t = element_type(type);
  if (!t) {
    const char* name = unsupported_type_name(type);
    // Every named type but the pyramid is of order >= 2, and kfem raises the order itself.
    const bool high_order = name && type != 7;
    const char* hint = high_order ? "; save linear cells (Gmsh option Mesh.ElementOrder = 1, or 2 for "
                                    "10-node tetrahedra): kfem raises the element order itself"
                                  : "";
    p.fail(fmt::format(
        "unsupported element type {}{}, a block of {} element(s): kfem reads cells of types 2 (3-node "
        "triangle), 4 and 11 (4- and "
        "10-node tetrahedra), 6 (6-node prism) and 5 (8-node hexahedron), and boundary elements of types "
        "15 (point), 1 and 8 (lines), 2 and 9 (triangles), 3, 16 and 10 (quadrangles){}",
        type, name ? fmt::format(" ({})", name) : std::string(), n, hint));
  }
  if (t->dim != dim)
    p.fail(fmt::format("element {} is {}D but its block lies on an entity of dimension {}",
                       type_label(int(type)), t->dim, dim));
  if (dim > els.dim) {
    els.demote();
    els.dim = int(dim);
    els.type = int(type);
  }
  const bool cell = dim == els.dim;
  if (cell && type != els.type && els.conflict_line == 0) {
    els.conflict_line = p.line();
    els.conflict_type = int(type);
  }
  Block block{int(dim),
              entity,
              int(type),
              p.line(),
              cell ? els.rows.size() : els.boundary_tags.size(),
              std::size_t(n),
              els.boundary_nodes.size()};
  const std::string what = fmt::format("element tag and {} node tags", t->nodes);
  if (cell) {  // one allocation for the usual single big block, geometric growth for many small ones
    grow(els.rows, std::size_t(n));
    grow(els.tags, std::size_t(n));
    grow(els.lines, std::size_t(n));
  }
  std::array<ordinal_t, max_cell_vertices> row;
  ordinal_t all[kMaxElementNodes];  // every node of the element; the first t->corners go to the mesh
  tag_t all_tags[kMaxElementNodes];
  for (tag_t i = 0; i < n; ++i) {
    p.require_line("$Elements");
    p.expect_count(1 + t->nodes, what);
    const tag_t tag = p.integer(0, "element tag");
    for (int a = 0; a < t->nodes; ++a) {
      all_tags[a] = p.integer(1 + a, "node tag");
      all[a] = nodes.index.find(all_tags[a]);
      if (all[a] < 0) p.fail(fmt::format("element {} references undefined node {}", tag, all_tags[a]));
    }
    if (type == kTet10) check_straight_tet10(p, nodes, tag, all, all_tags);
    if (cell) {
      row.fill(-1);
      std::copy(all, all + t->corners, row.begin());
      els.rows.push_back(row);
      els.tags.push_back(tag);
      els.lines.push_back(p.line());
    } else {
      els.boundary_nodes.insert(els.boundary_nodes.end(), all, all + t->corners);
      els.boundary_tags.push_back(tag);
      els.boundary_lines.push_back(p.line());
    }
  }
  (cell ? els.cell_blocks : els.boundary_blocks).push_back(block);
  return n;
}

void read_elements(Parser& p, const NodeTable& nodes, ElementTable& els) {
  const auto [blocks, total, min_tag, max_tag] = read_section_header(p, "$Elements", "element", 4);
  tag_t held = 0;
  for (tag_t b = 0; b < blocks; ++b) held += read_element_block(p, nodes, els, total, held);
  if (held != total)
    p.fail(fmt::format("$Elements declares {} elements but its blocks hold {}", total, held));
  p.require_end("$Elements");
  if (els.dim < 2 || els.rows.empty()) {
    const std::string found = els.dim < 0 ? ""
                              : els.dim < 2
                                  ? ", whose highest-dimensional elements are " + type_label(els.type)
                                  : ", whose blocks of " + type_label(els.type) + " are empty";
    p.fail(fmt::format(
        "no cells (triangles 2, tetrahedra 4 or 11, prisms 6 or hexahedra 5) in $Elements{}; when physical "
        "groups are defined, Gmsh saves only their elements: add one for the surfaces/volumes or set "
        "Mesh.SaveAll = 1",
        found));
  }
  if (els.dim == 2 && els.type != int(CellType::tri3))
    p.fail_at(els.cell_blocks[0].line,
              fmt::format("unsupported cell {}: 2D meshes must be 3-node triangles (type 2)",
                          type_label(els.type)));
  if (els.conflict_line)
    p.fail_at(els.conflict_line,
              fmt::format("mixed cell types: {} among cells of {}; a kfem mesh holds one cell type",
                          type_label(els.conflict_type), type_label(els.type)));
}

// The physical tags of a block's entity (none when the file has no $Entities).
const std::vector<tag_t>& block_groups(const Parser& p, const Groups& groups, const Block& b) {
  static const std::vector<tag_t> none;
  if (!groups.have_entities) return none;
  const auto it = groups.entity_tags.find({b.dim, b.entity});
  if (it == groups.entity_tags.end())
    p.fail_at(b.line,
              fmt::format("element block on entity {} of dimension {}, which $Entities does not declare",
                          b.entity, b.dim));
  return it->second;
}

// Every $PhysicalNames group must own at least one element (else it is most likely a typo'd or
// unmeshed group, and a boundary condition on it would silently do nothing).
void check_groups_used(const Parser& p, const Groups& groups, const ElementTable& els) {
  std::set<std::pair<int, tag_t>> used;
  for (const auto* blocks : {&els.cell_blocks, &els.boundary_blocks})
    for (const Block& b : *blocks)
      for (tag_t physical : block_groups(p, groups, b))
        if (b.count > 0) used.insert({b.dim, physical});
  for (const auto& [key, name] : groups.names)
    if (!used.count(key))
      p.fail_at(name.line,
                fmt::format("physical group '{}' (dimension {}, tag {}) has no elements in the file "
                            "(empty group)",
                            name.name, key.first, key.second));
}

void sort_unique(std::map<std::string, std::vector<ordinal_t>>& sets) {
  for (auto& [name, ids] : sets) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  }
}

// Inverted or degenerate cells, then cells listed twice (same nodes in any order), by file tags.
void check_geometry(const Parser& p, const Mesh& mesh, const std::vector<tag_t>& node_tags,
                    const ElementTable& els) {
  const auto names = [&](std::size_t e) {
    std::string out;
    for (int a = 0; a < mesh.nodes_per_element(); ++a)
      out += (a ? " " : "") + std::to_string(node_tags[mesh.elements[e][a]]);
    return out;
  };
  for (std::size_t e = 0; e < mesh.num_elements(); ++e)
    if (auto defect = element_defect(mesh, e))
      p.fail_at(els.lines[e], fmt::format("element {} (nodes {}): {}", els.tags[e], names(e), *defect));
  if (const auto twin = find_duplicate_elements(mesh)) {
    const auto [a, b] = *twin;
    p.fail_at(els.lines[b], fmt::format("elements {} and {} have the same nodes ({} and {}); a cell listed "
                                        "twice would be assembled twice",
                                        els.tags[a], els.tags[b], names(a), names(b)));
  }
}

// Keeps the nodes that cells use as corners (file order), then attaches the physical groups and
// checks geometry.
Mesh build_mesh(const Parser& p, const NodeTable& nodes, ElementTable& els, const Groups& groups) {
  check_groups_used(p, groups, els);
  Mesh mesh;
  mesh.cell = els.type == kTet10 ? CellType::tet4 : CellType(els.type);
  const int per_element = mesh.nodes_per_element();
  std::vector<ordinal_t> renum(nodes.coords.size(), -1);
  for (const auto& el : els.rows)
    for (int a = 0; a < per_element; ++a) renum[el[a]] = 0;
  std::vector<tag_t> kept_tags;
  for (std::size_t v = 0; v < renum.size(); ++v)
    if (renum[v] == 0) {
      if (mesh.dimension() == 2 && nodes.coords[v][2] != 0)
        p.fail_at(nodes.lines[v],
                  fmt::format("node {} has z = {}, but a 2D (triangle) mesh must lie in the plane z = 0",
                              nodes.tags[v], nodes.coords[v][2]));
      renum[v] = ordinal_t(mesh.nodes.size());
      mesh.nodes.push_back(nodes.coords[v]);
      kept_tags.push_back(nodes.tags[v]);
    }
  mesh.elements = std::move(els.rows);
  for (auto& el : mesh.elements)
    for (int a = 0; a < per_element; ++a) el[a] = renum[el[a]];

  for (const Block& b : els.cell_blocks)
    for (tag_t physical : block_groups(p, groups, b)) {
      if (b.count == 0) continue;
      auto& set = mesh.cell_sets[groups.name_of(b.dim, physical)];
      for (std::size_t e = b.first; e < b.first + b.count; ++e) set.push_back(ordinal_t(e));
    }
  for (const Block& b : els.boundary_blocks) {
    const int n = element_type(b.type)->corners;
    for (tag_t physical : block_groups(p, groups, b)) {
      if (b.count == 0) continue;
      const std::string name = groups.name_of(b.dim, physical);
      auto& set = mesh.node_sets[name];
      for (std::size_t i = 0; i < b.count; ++i)
        for (int a = 0; a < n; ++a) {
          const ordinal_t v = els.boundary_nodes[b.nodes_at + i * n + a];
          if (renum[v] < 0)
            p.fail_at(
                els.boundary_lines[b.first + i],
                fmt::format("element {} of physical group '{}' uses node {}, which is not a node of any cell",
                            els.boundary_tags[b.first + i], name, nodes.tags[v]));
          set.push_back(renum[v]);
        }
    }
  }
  sort_unique(mesh.node_sets);
  sort_unique(mesh.cell_sets);
  check_geometry(p, mesh, kept_tags, els);  // the parser already guarantees ranges and finite coordinates
  return mesh;
}

// Buffers formatted text and hands it to the tmp-file-and-rename writer in large chunks.
class Writer {
 public:
  explicit Writer(const std::string& path) : file_(path) {}
  template <class... Args>
  void print(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(fmt::appender(buffer_), format, std::forward<Args>(args)...);
    if (buffer_.size() > (1u << 20)) flush();
  }
  // "tag v1 v2 ...\n" with each node id + 1: integers formatted directly (no format string per value).
  void element(std::size_t tag, const ordinal_t* nodes, int n) {
    append(fmt::format_int(tag));
    for (int a = 0; a < n; ++a) {
      buffer_.push_back(' ');
      append(fmt::format_int(nodes[a] + 1));
    }
    buffer_.push_back('\n');
    if (buffer_.size() > (1u << 20)) flush();
  }
  void commit() {
    flush();
    file_.commit();
  }

 private:
  void append(const fmt::format_int& i) { buffer_.append(i.data(), i.data() + i.size()); }
  void flush() {
    file_.write({buffer_.data(), buffer_.size()});
    buffer_.clear();
  }
  detail::AtomicFile file_;
  fmt::memory_buffer buffer_;
};

// Set ids must be strictly increasing and below `limit`; names must fit between Gmsh's quotes.
void check_set(const char* kind, const std::string& name, const std::vector<ordinal_t>& ids,
               std::size_t limit) {
  if (name.find_first_of("\"\r\n") != std::string::npos)
    throw std::invalid_argument(
        fmt::format("write_gmsh: {} name '{}' holds a quote or a line break", kind, name));
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] < 0 || std::size_t(ids[i]) >= limit || (i > 0 && ids[i] <= ids[i - 1]))
      throw std::invalid_argument(
          fmt::format("write_gmsh: {} '{}' entry {} = {} is out of range [0, {}) or not "
                      "above the previous one",
                      kind, name, i, ids[i], limit));
}
}  // namespace

Mesh read_gmsh(const std::string& path) {
  return read_gmsh_with_order(path).mesh;
}

GmshMesh read_gmsh_with_order(const std::string& path) {
  Parser p(path, slurp(path));
  read_format(p);
  NodeTable nodes;
  ElementTable els;
  Groups groups;
  bool have_nodes = false, have_elements = false;
  while (p.next_line()) {
    const std::string_view name = p.token(0);
    if (p.count() != 1 || name.size() < 2 || name[0] != '$' || name.substr(0, 4) == "$End")
      p.fail(fmt::format("expected a section header such as $Nodes, found '{}'", name));
    if (name == "$Nodes") {
      if (have_nodes) p.fail("second $Nodes section");
      read_nodes(p, nodes);
      have_nodes = true;
    } else if (name == "$Elements") {
      if (!have_nodes) p.fail("$Elements before $Nodes");
      if (have_elements) p.fail("second $Elements section");
      read_elements(p, nodes, els);
      have_elements = true;
    } else if (name == "$PhysicalNames") {
      if (groups.have_names) p.fail("second $PhysicalNames section");
      read_physical_names(p, groups);
      groups.have_names = true;
    } else if (name == "$Entities") {
      if (groups.have_entities) p.fail("second $Entities section");
      read_entities(p, groups);
      groups.have_entities = true;
    } else {
      skip_section(p, name);
    }
  }
  if (!have_elements)
    p.fail(fmt::format("missing {} section (truncated file?)", have_nodes ? "$Elements" : "$Nodes"));
  const int order = els.type == kTet10 ? 2 : 1;
  return {build_mesh(p, nodes, els, groups), order};
}

void write_gmsh(const Mesh& mesh, const std::string& path) {
  const std::size_t n = mesh.num_nodes(), m = mesh.num_elements();
  const int dim = mesh.dimension(), per_element = mesh.nodes_per_element();
  for (std::size_t e = 0; e < m; ++e)
    for (int a = 0; a < per_element; ++a)
      if (mesh.elements[e][a] < 0 || std::size_t(mesh.elements[e][a]) >= n)
        throw std::invalid_argument(
            fmt::format("write_gmsh: element {} refers to node {} of {}", e, mesh.elements[e][a], n));
  std::vector<std::pair<const std::string*, const std::vector<ordinal_t>*>> node_groups, cell_groups;
  for (const auto& [name, ids] : mesh.node_sets) {
    check_set("node set", name, ids, n);
    if (!ids.empty()) node_groups.push_back({&name, &ids});
  }
  for (const auto& [name, ids] : mesh.cell_sets) {
    check_set("cell set", name, ids, m);
    if (!ids.empty()) cell_groups.push_back({&name, &ids});
  }

  // Physical tags live on entities: one cell entity per distinct combination of cell sets (the
  // combination's physical tags, ascending), numbered by first appearance in mesh order.
  std::vector<std::vector<int>> combos{{}};
  std::vector<int> combo(m, 0);
  std::map<std::pair<int, int>, int> extended;  // (combination, physical tag) -> combination
  for (std::size_t g = 0; g < cell_groups.size(); ++g)
    for (ordinal_t e : *cell_groups[g].second) {
      const auto [it, fresh] = extended.try_emplace({combo[e], int(g) + 1}, int(combos.size()));
      if (fresh) {
        std::vector<int> tags = combos[combo[e]];
        tags.push_back(int(g) + 1);
        combos.push_back(std::move(tags));
      }
      combo[e] = it->second;
    }
  std::vector<int> entity_of(combos.size(), 0), combo_of_entity;
  for (std::size_t e = 0; e < m; ++e)
    if (!entity_of[combo[e]]) {
      combo_of_entity.push_back(combo[e]);
      entity_of[combo[e]] = int(combo_of_entity.size());
    }

  std::array<double, 3> lo{0, 0, 0}, hi{0, 0, 0};
  if (!mesh.nodes.empty()) lo = hi = mesh.nodes[0];
  for (const auto& x : mesh.nodes)
    for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], x[c]), hi[c] = std::max(hi[c], x[c]);

  Writer out(path);
  out.print("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n");
  if (!node_groups.empty() || !cell_groups.empty()) {
    out.print("$PhysicalNames\n{}\n", node_groups.size() + cell_groups.size());
    for (std::size_t g = 0; g < node_groups.size(); ++g)
      out.print("0 {} \"{}\"\n", g + 1, *node_groups[g].first);
    for (std::size_t g = 0; g < cell_groups.size(); ++g)
      out.print("{} {} \"{}\"\n", dim, g + 1, *cell_groups[g].first);
    out.print("$EndPhysicalNames\n");
  }
  const std::size_t cell_entities = combo_of_entity.size();
  out.print("$Entities\n{} 0 {} {}\n", node_groups.size(), dim == 2 ? cell_entities : 0,
            dim == 3 ? cell_entities : 0);
  for (std::size_t g = 0; g < node_groups.size(); ++g) {
    const auto& x = mesh.nodes[node_groups[g].second->front()];
    out.print("{} {} {} {} 1 {}\n", g + 1, x[0], x[1], x[2], g + 1);
  }
  for (std::size_t t = 0; t < cell_entities; ++t) {
    const std::vector<int>& tags = combos[combo_of_entity[t]];
    out.print("{} {} {} {} {} {} {} {}", t + 1, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], tags.size());
    for (int tag : tags) out.print(" {}", tag);
    out.print(" 0\n");
  }
  out.print("$EndEntities\n");

  out.print("$Nodes\n{} {} 1 {}\n", n ? 1 : 0, n, n);
  if (n) out.print("{} 1 0 {}\n", dim, n);
  for (std::size_t v = 1; v <= n; ++v) out.print("{}\n", v);
  for (const auto& x : mesh.nodes) out.print("{} {} {}\n", x[0], x[1], x[2]);  // shortest exact form

  // Cells in runs of one entity (one block when there are no cell sets), then one point block per node set.
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // [begin, end) of the cells
  for (std::size_t e = 0; e < m; ++e)
    if (e == 0 || combo[e] != combo[e - 1])
      runs.push_back({e, e + 1});
    else
      runs.back().second = e + 1;
  std::size_t total = m;
  for (const auto& g : node_groups) total += g.second->size();
  out.print("$EndNodes\n$Elements\n{} {} 1 {}\n", runs.size() + node_groups.size(), total, total);
  for (const auto& [begin, end] : runs) {
    out.print("{} {} {} {}\n", dim, entity_of[combo[begin]], int(mesh.cell), end - begin);
    for (std::size_t e = begin; e < end; ++e) out.element(e + 1, mesh.elements[e].data(), per_element);
  }
  std::size_t tag = m;
  for (std::size_t g = 0; g < node_groups.size(); ++g) {
    out.print("0 {} 15 {}\n", g + 1, node_groups[g].second->size());
    for (ordinal_t v : *node_groups[g].second) out.element(++tag, &v, 1);
  }
  out.print("$EndElements\n");
  out.commit();
}
}  // namespace kfem
