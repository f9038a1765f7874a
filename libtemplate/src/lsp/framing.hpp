// The language server, by concern: the base protocol's framing. A message is a block of
// headers ("Content-Length: N", others ignored), an empty line, then N bytes of JSON.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <mutex>
#include <string>
#include <string_view>

namespace ptmpl::lsp {

/// Bounds of what a client may send: a header line, and a body.
struct FrameLimits {
  std::size_t max_header_line = 4096;
  std::uint64_t max_body = std::uint64_t{256} << 20;
};

/// What reading one message gave.
enum class FrameStatus {
  Message,  ///< `body` holds the message's JSON text
  End,      ///< the input ended (between messages or in the middle of one)
  Invalid,  ///< the headers were unusable (`error` says why); the reader skipped to the next
            ///< "Content-Length:" or past the body, so the next read may succeed
};

struct Frame {
  FrameStatus status = FrameStatus::End;
  std::string body;
  std::string error;
};

/// Reads one framed message. A body is read as it arrives, never allocated at the size a
/// header claims; a body over the limit is skipped (and is an Invalid frame).
class FrameReader {
 public:
  explicit FrameReader(std::istream& in, FrameLimits limits = {}) : in_(in), limits_(limits) {}
  [[nodiscard]] Frame read();

 private:
  // Skips input up to and including the next "Content-Length:" (any case); false at the end.
  bool skip_to_header();

  std::istream& in_;
  FrameLimits limits_;
  bool resumed_ = false;  // skip_to_header() consumed "Content-Length:" of the next frame
};

/// `body` framed: "Content-Length: N\r\n\r\n" then the body.
[[nodiscard]] std::string frame(std::string_view body);

/// The one writer of a session's output: each message framed and written whole, one at a time,
/// whichever thread sends it. To a descriptor (standard output) through write_descriptor(),
/// which resumes short writes and waits while a non-blocking pipe is full, so a client that
/// reads slowly never gets part of a message followed by another; or to a stream. Once the
/// output fails (the client is gone), later messages are dropped.
class FrameWriter {
 public:
  explicit FrameWriter(int fd) : fd_(fd) {}
  explicit FrameWriter(std::ostream& out) : out_(&out) {}
  void write(std::string_view body);

 private:
  std::mutex mutex_;
  int fd_ = -1;
  std::ostream* out_ = nullptr;
  bool failed_ = false;
};

}  // namespace ptmpl::lsp
