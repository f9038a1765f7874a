// The language server, by concern: the base protocol's framing (framing.hpp).
#include "lsp/framing.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <istream>
#include <optional>
#include <ostream>

#include "libtemplate/core/file_io.hpp"

namespace ptmpl::lsp {

namespace {

constexpr std::string_view kLengthHeader = "content-length:";

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool starts_with_nocase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (lower(text[i]) != prefix[i]) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

bool FrameReader::skip_to_header() {
  // 'c' occurs in the pattern only first, so a mismatch restarts at 0, or at 1 on a 'c'.
  std::size_t matched = 0;
  int c = 0;
  while ((c = in_.get()) != std::char_traits<char>::eof()) {
    char ch = lower(static_cast<char>(c));
    if (ch == kLengthHeader[matched]) {
      if (++matched == kLengthHeader.size()) return true;
    } else {
      matched = ch == kLengthHeader[0] ? 1 : 0;
    }
  }
  return false;
}

Frame FrameReader::read() {
  Frame frame;
  std::string line;
  std::optional<std::uint64_t> length;
  std::string problem;
  bool any_header = false;
  // Headers, up to the empty line. A line is read a byte at a time up to the bound.
  for (;;) {
    line.clear();
    if (resumed_) {
      line.assign(kLengthHeader);
      resumed_ = false;
    }
    bool too_long = false;
    int c = 0;
    while ((c = in_.get()) != std::char_traits<char>::eof() && c != '\n') {
      if (line.size() < limits_.max_header_line) {
        line += static_cast<char>(c);
      } else {
        too_long = true;
      }
    }
    if (c == std::char_traits<char>::eof()) return frame;  // End, also mid-headers
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (too_long) {
      if (problem.empty()) problem = "a header line longer than " + std::to_string(limits_.max_header_line) + " bytes";
      continue;
    }
    if (line.empty()) {
      if (!any_header) continue;  // blank lines between messages
      break;
    }
    any_header = true;
    if (starts_with_nocase(line, kLengthHeader)) {
      std::string_view value = trim(std::string_view(line).substr(kLengthHeader.size()));
      std::uint64_t n = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || end != value.data() + value.size() || value.empty()) {
        if (problem.empty()) problem = "the Content-Length header is not a number: \"" + std::string(value) + "\"";
      } else {
        length = n;
      }
    } else if (line.find(':') == std::string::npos) {
      if (problem.empty()) problem = "a header line without ':'";
    }
  }
  if (!length && problem.empty()) problem = "a message without a Content-Length header";
  if (!problem.empty()) {
    // Where the body ends is unknown: go on from the next message's header.
    frame.status = FrameStatus::Invalid;
    frame.error = problem;
    resumed_ = skip_to_header();
    return frame;
  }
  if (*length > limits_.max_body) {
    frame.status = FrameStatus::Invalid;
    frame.error = "a message of " + std::to_string(*length) + " bytes, more than the " +
                  std::to_string(limits_.max_body) + " the server reads";
    std::array<char, 65536> sink;
    std::uint64_t left = *length;
    while (left > 0 && in_) {
      in_.read(sink.data(), static_cast<std::streamsize>(std::min<std::uint64_t>(left, sink.size())));
      left -= static_cast<std::uint64_t>(in_.gcount());
      if (in_.gcount() == 0) break;
    }
    return frame;  // the input's end, if it came first, is the next read's
  }
  // The body, as it arrives: the claimed length is not trusted with an allocation.
  std::uint64_t left = *length;
  std::array<char, 65536> chunk;
  while (left > 0) {
    in_.read(chunk.data(), static_cast<std::streamsize>(std::min<std::uint64_t>(left, chunk.size())));
    auto got = static_cast<std::uint64_t>(in_.gcount());
    if (got == 0) return Frame{};  // End: the input stopped mid-message
    frame.body.append(chunk.data(), got);
    left -= got;
  }
  frame.status = FrameStatus::Message;
  return frame;
}

std::string frame(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out += body;
  return out;
}

void FrameWriter::write(std::string_view body) {
  const std::string framed = frame(body);
  std::lock_guard lock(mutex_);
  if (failed_) return;
  if (out_ != nullptr) {
    out_->write(framed.data(), static_cast<std::streamsize>(framed.size()));
    out_->flush();
    failed_ = !*out_;
  } else {
    failed_ = !write_descriptor(fd_, framed, "standard output").ok();
  }
}

}  // namespace ptmpl::lsp
