// Gmsh MSH 4.1 ASCII reader (a line-aware tokenizer over the whole file, so every error can
// name its line) and writer.
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
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

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
  std::vector<std::string_view> tokens_;
};

// File tag -> dense node index: a flat table when tags are compact (what Gmsh writes), else a hash map.
class TagIndex {
 public:
  void reset(tag_t min_tag, tag_t max_tag, tag_t count) {
    min_ = min_tag;
    max_ = max_tag;
    dense_ = max_tag - min_tag <= 4 * count + 1024;
    if (dense_) table_.assign(std::size_t(max_tag - min_tag + 1), -1);
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
  std::vector<tag_t> tags;  // file tag of each dense node
  TagIndex index;
};

struct HexTable {
  std::vector<std::array<ordinal_t, 8>> nodes;  // dense node indices
  std::vector<tag_t> tags;
  std::vector<std::size_t> lines;  // so geometric errors can point at the element's line
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

// Sections this reader does not need ($Entities, $PhysicalNames, $NodeData, ...): no line inside
// a section starts with "$End<Name>", so skipping to it is exact.
void skip_section(Parser& p, std::string_view name) {
  const std::string end = "$End" + std::string(name.substr(1));
  do {
    p.require_line(name);
  } while (p.token(0) != end);
}

// "numEntityBlocks numItems minTag maxTag" of $Nodes or $Elements; an item (node, element) needs
// at least min_bytes of text, so an impossible count is reported here rather than as an allocation.
std::array<tag_t, 4> read_section_header(Parser& p, std::string_view section, std::string_view items,
                                         std::size_t min_bytes) {
  p.require_line(section);
  p.expect_count(4, "numEntityBlocks count minTag maxTag");
  const std::array<tag_t, 4> h{p.integer_in(0, "block count", 0, kMaxCount),
                               p.integer_in(1, "count", 0, kMaxCount), p.integer(2, "minTag"),
                               p.integer(3, "maxTag")};
  if (std::size_t(h[1]) > p.bytes_left() / min_bytes)
    p.fail(fmt::format("{} declares {} {}s, more than the rest of the file can hold (truncated file?)",
                       section, h[1], items));
  if (h[1] > 0 && h[2] > h[3]) p.fail(fmt::format("minTag {} > maxTag {}", h[2], h[3]));
  return h;
}

void read_node_block(Parser& p, NodeTable& nodes) {
  p.require_line("$Nodes");
  p.expect_count(4, "entityDim entityTag parametric numNodesInBlock");
  const tag_t dim = p.integer_in(0, "entity dimension", 0, 3);
  const tag_t parametric = p.integer_in(2, "parametric flag", 0, 1);
  const tag_t n = p.integer_in(3, "block size", 0, kMaxCount);
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
  }
}

void read_nodes(Parser& p, NodeTable& nodes) {
  const auto [blocks, total, min_tag, max_tag] = read_section_header(p, "$Nodes", "node", 8);
  nodes.index.reset(min_tag, max_tag, total);
  for (tag_t b = 0; b < blocks; ++b) read_node_block(p, nodes);
  if (tag_t(nodes.tags.size()) != total)
    p.fail(fmt::format("$Nodes declares {} nodes but its blocks hold {}", total, nodes.tags.size()));
  p.require_end("$Nodes");
}

// Nodes per element for the types read (5) or skipped (lower-dimensional boundary elements); -1 otherwise.
int nodes_per_element(tag_t type) {
  switch (type) {
    case 5:
      return 8;  // 8-node hexahedron
    case 15:
      return 1;  // point
    case 1:
      return 2;  // line
    case 2:
      return 3;  // triangle
    case 3:
      return 4;  // quadrangle
    default:
      return -1;
  }
}

void read_hex(Parser& p, const NodeTable& nodes, HexTable& hexes) {
  const tag_t tag = p.integer(0, "element tag");
  std::array<ordinal_t, 8> el;
  for (int a = 0; a < 8; ++a) {
    const tag_t node = p.integer(1 + a, "node tag");
    el[a] = nodes.index.find(node);
    if (el[a] < 0) p.fail(fmt::format("element {} references undefined node {}", tag, node));
  }
  hexes.nodes.push_back(el);
  hexes.tags.push_back(tag);
  hexes.lines.push_back(p.line());
}

tag_t read_element_block(Parser& p, const NodeTable& nodes, HexTable& hexes) {
  p.require_line("$Elements");
  p.expect_count(4, "entityDim entityTag elementType numElementsInBlock");
  const tag_t type = p.integer(2, "element type");
  const tag_t n = p.integer_in(3, "block size", 0, kMaxCount);
  const int per_element = nodes_per_element(type);
  if (per_element < 0)
    p.fail(fmt::format(
        "unsupported element type {} (only 8-node hexahedra, type 5, plus boundary types 1, 2, 3, 15)",
        type));
  for (tag_t i = 0; i < n; ++i) {
    p.require_line("$Elements");
    p.expect_count(1 + per_element, type == 5 ? "element tag and 8 node tags" : "element tag and node tags");
    if (type == 5) read_hex(p, nodes, hexes);
  }
  return n;
}

void read_elements(Parser& p, const NodeTable& nodes, HexTable& hexes) {
  const auto [blocks, total, min_tag, max_tag] = read_section_header(p, "$Elements", "element", 4);
  tag_t held = 0;
  for (tag_t b = 0; b < blocks; ++b) held += read_element_block(p, nodes, hexes);
  if (held != total)
    p.fail(fmt::format("$Elements declares {} elements but its blocks hold {}", total, held));
  p.require_end("$Elements");
  if (hexes.nodes.empty()) p.fail("no hexahedra (element type 5) in $Elements");
}

// Keeps the nodes that hexahedra use, in file order; returns the mesh and the kept nodes' tags.
HexMesh compact(const NodeTable& nodes, const HexTable& hexes, std::vector<tag_t>& kept_tags) {
  std::vector<ordinal_t> renum(nodes.coords.size(), -1);
  for (const auto& el : hexes.nodes)
    for (ordinal_t v : el) renum[v] = 0;
  HexMesh mesh;
  for (std::size_t v = 0; v < renum.size(); ++v)
    if (renum[v] == 0) {
      renum[v] = ordinal_t(mesh.nodes.size());
      mesh.nodes.push_back(nodes.coords[v]);
      kept_tags.push_back(nodes.tags[v]);
    }
  mesh.elements = hexes.nodes;
  for (auto& el : mesh.elements)
    for (ordinal_t& v : el) v = renum[v];
  return mesh;
}

void check_geometry(const Parser& p, const HexMesh& mesh, const std::vector<tag_t>& node_tags,
                    const HexTable& hexes) {
  for (std::size_t e = 0; e < mesh.num_elements(); ++e)
    if (auto defect = element_defect(mesh, e)) {
      std::string names;
      for (ordinal_t v : mesh.elements[e]) names += " " + std::to_string(node_tags[v]);
      p.fail_at(hexes.lines[e], fmt::format("element {} (nodes{}): {}", hexes.tags[e], names, *defect));
    }
}

// Buffers formatted text and writes it out in large chunks.
class Writer {
 public:
  explicit Writer(const std::string& path)
      : path_(path), file_(std::fopen(path.c_str(), "wb"), &std::fclose) {
    if (!file_) throw InputError(path + ": cannot open file for writing (" + std::strerror(errno) + ")");
  }
  template <class... Args>
  void print(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(buffer_), format, std::forward<Args>(args)...);
    if (buffer_.size() > (1u << 20)) flush();
  }
  void close() {
    flush();
    if (std::fclose(file_.release()) != 0) throw InputError(path_ + ": write failed");
  }

 private:
  void flush() {
    if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_.get()) != buffer_.size())
      throw InputError(path_ + ": write failed (" + std::strerror(errno) + ")");
    buffer_.clear();
  }
  std::string path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  fmt::memory_buffer buffer_;
};
}  // namespace

HexMesh read_gmsh(const std::string& path) {
  Parser p(path, slurp(path));
  read_format(p);
  NodeTable nodes;
  HexTable hexes;
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
      read_elements(p, nodes, hexes);
      have_elements = true;
    } else {
      skip_section(p, name);
    }
  }
  if (!have_elements)
    p.fail(fmt::format("missing {} section (truncated file?)", have_nodes ? "$Elements" : "$Nodes"));
  std::vector<tag_t> node_tags;
  const HexMesh mesh = compact(nodes, hexes, node_tags);
  check_geometry(p, mesh, node_tags, hexes);  // the parser already guarantees ranges and finite coordinates
  return mesh;
}

void write_gmsh(const HexMesh& mesh, const std::string& path) {
  std::array<double, 3> lo{0, 0, 0}, hi{0, 0, 0};
  if (!mesh.nodes.empty()) lo = hi = mesh.nodes[0];
  for (const auto& x : mesh.nodes)
    for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], x[c]), hi[c] = std::max(hi[c], x[c]);
  const std::size_t n = mesh.num_nodes(), m = mesh.num_elements();

  Writer out(path);
  out.print("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n");
  out.print("$Entities\n0 0 0 1\n1 {} {} {} {} {} {} 0 0\n$EndEntities\n", lo[0], lo[1], lo[2], hi[0], hi[1],
            hi[2]);
  out.print("$Nodes\n{} {} 1 {}\n", n ? 1 : 0, n, n);
  if (n) out.print("3 1 0 {}\n", n);
  for (std::size_t v = 1; v <= n; ++v) out.print("{}\n", v);
  for (const auto& x : mesh.nodes) out.print("{} {} {}\n", x[0], x[1], x[2]);  // shortest exact form
  out.print("$EndNodes\n$Elements\n{} {} 1 {}\n", m ? 1 : 0, m, m);
  if (m) out.print("3 1 5 {}\n", m);
  for (std::size_t e = 0; e < m; ++e) {
    const auto& el = mesh.elements[e];
    out.print("{} {} {} {} {} {} {} {} {}\n", e + 1, el[0] + 1, el[1] + 1, el[2] + 1, el[3] + 1, el[4] + 1,
              el[5] + 1, el[6] + 1, el[7] + 1);
  }
  out.print("$EndElements\n");
  out.close();
}
}  // namespace kfem
