// The JSON tree (json.hpp), by concern: the arena its values live in and the Builder of new
// trees. The parser is parser.cpp, positions line_index.cpp, values tree.cpp.
#include "libtemplate/core/json.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#include "io/mapped_pages.hpp"
#include "json/tree_access.hpp"

namespace ptmpl::json {

// ---------------------------------------------------------------------------------------------
// Arena and Builder

namespace {

// Blocks are aligned for any scalar: allocate() aligns further inside them.
constexpr std::size_t kBlockAlign = alignof(std::max_align_t);

// A large tree takes its memory in chunks mapped from the system rather than in blocks from
// `memory`: once an arena's blocks hold Arena::kChunksAfterBlockBytes (or at once, after
// Arena::expect() of a large text), each new block is a chunk of kChunkSize. Pages of a chunk
// that are never used are never resident. Such blocks are marked by kMappedBit in their size.
constexpr std::size_t kChunkSize = std::size_t{32} << 20;
constexpr std::size_t kMappedBit = std::size_t{1} << 63;
// Blocks lent by their owner (Arena::lend) are never given back by the arena.
constexpr std::size_t kLentBit = std::size_t{1} << 62;

// Chunks given back are kept for the next arena of the process, up to kChunksKept: a language
// server or a benchmark reads file after file, and a kept chunk's pages are resident already
// (fresh ones cost a page fault and zeroing each). The cache is never destroyed, so an arena
// released during the program's exit still finds it.
constexpr std::size_t kChunksKept = 8;

struct ChunkCache {
  std::mutex mutex;
  std::vector<std::byte*> kept;
};

ChunkCache& chunk_cache() {
  static auto* cache = new ChunkCache;
  return *cache;
}

std::byte* map_chunk() {
  {
    ChunkCache& cache = chunk_cache();
    std::lock_guard lock(cache.mutex);
    if (!cache.kept.empty()) {
      std::byte* chunk = cache.kept.back();
      cache.kept.pop_back();
      return chunk;
    }
  }
  void* pages = detail::map_pages(kChunkSize);
  if (pages == nullptr) throw std::bad_alloc();
  return static_cast<std::byte*>(pages);
}

void unmap_chunk(std::byte* chunk) {
  {
    ChunkCache& cache = chunk_cache();
    std::lock_guard lock(cache.mutex);
    if (cache.kept.size() < kChunksKept) {
      cache.kept.push_back(chunk);
      return;
    }
  }
  detail::unmap_pages(chunk, kChunkSize);
}

}  // namespace

Arena& Arena::operator=(Arena&& other) noexcept {
  if (this == &other) return *this;
  release();
  memory_ = other.memory_;
  blocks_ = std::move(other.blocks_);
  other.blocks_.clear();
  cursor_ = std::exchange(other.cursor_, nullptr);
  left_ = std::exchange(other.left_, 0);
  total_ = std::exchange(other.total_, 0);
  next_block_ = std::exchange(other.next_block_, kFirstBlockSize);
  block_bytes_ = std::exchange(other.block_bytes_, 0);
  chunks_from_ = std::exchange(other.chunks_from_, kChunksAfterBlockBytes);
  lent_ = std::exchange(other.lent_, Block{nullptr, 0});
  return *this;
}

void Arena::lend(void* data, std::size_t size) {
  auto* start = static_cast<std::byte*>(data);
  // The current block stays where the large arrays' blocks are put before (allocate()).
  blocks_.push_back({start, size | kLentBit});
  cursor_ = start;
  left_ = size;
  lent_ = {start, size};
}

std::size_t Arena::lent_taken() const {
  const bool in_lent = cursor_ >= lent_.data && cursor_ <= lent_.data + lent_.size && lent_.data != nullptr;
  return in_lent ? static_cast<std::size_t>(cursor_ - lent_.data) : lent_.size;
}

void Arena::release() {
  for (const Block& block : blocks_) {
    if ((block.size & kLentBit) != 0) continue;
    if ((block.size & kMappedBit) != 0)
      unmap_chunk(block.data);
    else
      memory_->deallocate(block.data, block.size, kBlockAlign);
  }
  blocks_.clear();
  cursor_ = nullptr;
  left_ = 0;
  next_block_ = kFirstBlockSize;
  block_bytes_ = 0;
}

void* Arena::allocate(std::size_t bytes, std::size_t align) {
  if (bytes == 0) return nullptr;
  auto misalign = reinterpret_cast<std::uintptr_t>(cursor_) % align;
  std::size_t pad = misalign == 0 ? 0 : align - misalign;
  if (cursor_ == nullptr || pad + bytes > left_) {
    if (bytes + align > kBlockSize / 4) {
      // Large arrays get a block of their own; the current block stays in use.
      auto* data = static_cast<std::byte*>(memory_->allocate(bytes + align, kBlockAlign));
      blocks_.insert(cursor_ == nullptr ? blocks_.end() : blocks_.end() - 1, Block{data, bytes + align});
      total_ += bytes;
      auto skew = reinterpret_cast<std::uintptr_t>(data) % align;
      return data + (skew == 0 ? 0 : align - skew);
    }
    if (block_bytes_ >= chunks_from_) {
      blocks_.push_back({map_chunk(), kChunkSize | kMappedBit});
      left_ = kChunkSize;
    } else {
      // Doubling from kFirstBlockSize: a request larger than the next block (at most a quarter
      // of kBlockSize, larger ones went above) takes the first size that holds it.
      std::size_t size = next_block_;
      while (size < bytes + align) size *= 2;
      blocks_.push_back({static_cast<std::byte*>(memory_->allocate(size, kBlockAlign)), size});
      left_ = size;
      block_bytes_ += size;
      next_block_ = std::min(kBlockSize, size * 2);
    }
    cursor_ = blocks_.back().data;
    misalign = reinterpret_cast<std::uintptr_t>(cursor_) % align;
    pad = misalign == 0 ? 0 : align - misalign;
  }
  std::byte* result = cursor_ + pad;
  cursor_ = result + bytes;
  left_ -= pad + bytes;
  total_ += bytes;
  return result;
}

std::string_view Arena::copy(std::string_view text) {
  if (text.empty()) return {};
  auto* out = static_cast<char*>(allocate(text.size(), 1));
  std::memcpy(out, text.data(), text.size());
  return {out, text.size()};
}

Value Builder::boolean(bool b) const {
  return detail::TreeAccess::make(b ? Kind::True : Kind::False, 0, nullptr, 0);
}

Value Builder::string(std::string_view text) const {
  auto s = arena_->copy(text);
  return detail::TreeAccess::make(Kind::String, 0, s.data(), static_cast<std::uint32_t>(s.size()));
}

Value Builder::integer(std::int64_t n) const {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, n);
  (void)ec;
  return number_spelled({buf, static_cast<std::size_t>(end - buf)});
}

Value Builder::number_spelled(std::string_view spelling) const {
  auto s = arena_->copy(spelling);
  return detail::TreeAccess::make(Kind::Number, 0, s.data(), static_cast<std::uint32_t>(s.size()));
}

Value Builder::array(std::span<const Value> items) const {
  auto* out = static_cast<Value*>(arena_->allocate(items.size_bytes(), alignof(Value)));
  std::uninitialized_copy(items.begin(), items.end(), out);
  return detail::TreeAccess::make(Kind::Array, 0, out, static_cast<std::uint32_t>(items.size()));
}

Value Builder::object(std::span<const Member> members) const {
  auto* out = static_cast<Member*>(arena_->allocate(members.size_bytes(), alignof(Member)));
  std::uninitialized_copy(members.begin(), members.end(), out);
  return detail::TreeAccess::make(Kind::Object, 0, out, static_cast<std::uint32_t>(members.size()));
}

}  // namespace ptmpl::json
