// Several arrays in one allocation. Every device allocation and free costs set-up time (a Kokkos
// 3.4 allocation also waits for the kernels queued before it), so a stage that needs
// many arrays takes one block and cuts it: the arrays are untracked views into it, and whoever
// holds `storage` keeps them alive.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kfem {
template <class Mem>
class Carve {
 public:
  using Bytes = Kokkos::View<unsigned char*, Mem>;
  static constexpr std::size_t align = 256;  // every part starts a fresh cache line and sector

  // The bytes of a V of extent n (any layout: a rank-2 view's second extent is compile-time).
  template <class V>
  static std::size_t bytes(std::size_t n) {
    return V::required_allocation_size(n);
  }
  // The bytes the given parts take in one block.
  static std::size_t total(const std::vector<std::size_t>& sizes) {
    std::size_t end = 0;
    for (const std::size_t s : sizes) end += rounded(s);
    return end;
  }
  // Parts of the given sizes, in that order: in `reuse` where it is large enough (a block an
  // earlier stage handed on), else in a new uninitialised allocation.
  Carve(const std::string& label, const std::vector<std::size_t>& sizes, Bytes reuse = {}) {
    std::size_t end = 0;
    for (const std::size_t s : sizes) at_.push_back(end), end += rounded(s);
    storage = reuse.extent(0) >= end && end > 0
                  ? std::move(reuse)
                  : Bytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), end);
  }
  // Part k as a V of extent n: V's own type, so it passes wherever a V does, but untracked.
  template <class V>
  V part(int k, std::size_t n) const {
    using Unmanaged = Kokkos::View<typename V::data_type, typename V::array_layout, Mem,
                                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    return V(Unmanaged(reinterpret_cast<typename V::pointer_type>(storage.data() + at_[k]), n));
  }

  std::size_t offset(int k) const { return at_[k]; }  // where part k starts in `storage`

  Bytes storage;

 private:
  static std::size_t rounded(std::size_t s) { return (s + align - 1) / align * align; }
  std::vector<std::size_t> at_;
};

// A block a set-up stage no longer needs, handed to a later one to keep as its storage: one
// allocation and one free fewer, and on a host pages already mapped. Copies of the holder (of a
// Problem) share the block, and the first to take it has it.
template <class Mem>
class Spare {
 public:
  using Bytes = typename Carve<Mem>::Bytes;
  void give(Bytes b) const { *b_ = std::move(b); }
  Bytes take() const { return std::exchange(*b_, Bytes()); }
  Bytes lend() const { return *b_; }    // for temporaries between the giver and the taker (stream order)
  void drop() const { *b_ = Bytes(); }  // freed now, where no stage took it
  std::size_t bytes() const { return b_->extent(0); }

 private:
  std::shared_ptr<Bytes> b_ = std::make_shared<Bytes>();
};
}  // namespace kfem
