#include "convert/json_writer.hpp"

#include <algorithm>

#include "libtemplate/json.hpp"

namespace ptmpl::detail {

namespace {

// Room is made in steps of this much: the string zero-fills what it grows by, and a step this
// size is filled while still in the cache, just before it is written over.
constexpr std::size_t kStep = 64 * 1024;

}  // namespace

JsonWriter::JsonWriter(std::size_t expected_size) {
  text_.reserve(std::max(expected_size, kStep));
  text_.resize(kStep);
  at_ = text_.data();
  end_ = at_ + text_.size();
}

void JsonWriter::grow(std::size_t n) {
  const auto used = static_cast<std::size_t>(at_ - text_.data());
  text_.resize(used + std::max(n, kStep));
  at_ = text_.data() + used;
  end_ = text_.data() + text_.size();
}

// A string with characters to escape, rare in plans: written by the escaping every writer of
// the project uses.
void JsonWriter::quoted_escaped(std::string_view text) {
  before_value(0);
  text_.resize(static_cast<std::size_t>(at_ - text_.data()));
  json::append_quoted(text_, text);
  at_ = end_ = text_.data() + text_.size();
}

std::string JsonWriter::finish() {
  reserve(1);
  put('\n');
  text_.resize(static_cast<std::size_t>(at_ - text_.data()));
  at_ = end_ = nullptr;
  has_items_.clear();
  after_key_ = false;
  return std::move(text_);
}

}  // namespace ptmpl::detail
