// RTF → plain text (rtf.hpp). A reader of the RTF 1.x syntax: groups, control words and symbols,
// destinations; formatting is dropped, text is kept.
#include "convert/mpp/rtf.hpp"
#include "convert/mpp/table.hpp"

#include <iconv.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptmpl::detail::mpp {

namespace {

// Groups nested deeper than this are dropped with their content (MS Project nests a handful).
constexpr std::size_t kMaxDepth = 200;
// A control word's name has at most 32 letters and its parameter at most 10 digits (RTF 1.9);
// longer runs are consumed but not trusted.
constexpr std::size_t kMaxWordLength = 32;
constexpr std::size_t kMaxDigits = 10;
constexpr std::uint32_t kReplacement = 0xFFFD;

void put_utf8(std::string& out, std::uint32_t c) {
  append_utf8(out, c);
}

// Windows-1252's 0x80–0x9F (0 where the code page defines no character); the rest is Latin-1.
constexpr std::array<std::uint16_t, 32> kCp1252High = {0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                                       0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
                                                       0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                                       0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

// Bytes of the document's code page → UTF-8. 1252 is built in; other code pages go through
// iconv (glibc knows the Windows, DOS and Mac code pages as CPnnnn / MACINTOSH); one iconv
// cannot open is read as 1252.
class CodePage {
 public:
  CodePage() = default;
  CodePage(const CodePage&) = delete;
  CodePage& operator=(const CodePage&) = delete;
  ~CodePage() { close(); }

  void select(long number) {
    if (number == number_) return;
    close();
    number_ = number;
    if (number == 1252) return;
    std::string name = number == 10000   ? std::string("MACINTOSH")
                       : number == 65001 ? std::string("UTF-8")
                       : number == 20127 ? std::string("ASCII")
                                         : "CP" + std::to_string(number);
    iconv_t handle = iconv_open("UTF-32LE", name.c_str());
    if (handle != reinterpret_cast<iconv_t>(-1)) converter_ = handle;
  }

  void decode(std::string_view bytes, std::string& out) {
    if (converter_ == nullptr) {
      for (unsigned char b : bytes) {
        std::uint32_t c = b;
        if (b >= 0x80 && b < 0xA0) c = kCp1252High[b - 0x80] != 0 ? kCp1252High[b - 0x80] : kReplacement;
        put_utf8(out, c);
      }
      return;
    }
    iconv(converter_, nullptr, nullptr, nullptr, nullptr);  // a fresh shift state per run
    std::string input(bytes);
    char* in = input.data();
    std::size_t in_left = input.size();
    while (in_left > 0) {
      std::array<char, 256> buffer{};
      char* to = buffer.data();
      std::size_t to_left = buffer.size();
      const std::size_t done = iconv(converter_, &in, &in_left, &to, &to_left);
      const std::size_t produced = buffer.size() - to_left;
      for (std::size_t at = 0; at + 4 <= produced; at += 4) {
        const auto* p = reinterpret_cast<const unsigned char*>(buffer.data() + at);
        put_utf8(out, static_cast<std::uint32_t>(p[0] | (p[1] << 8) | (p[2] << 16) |
                                                 (static_cast<std::uint32_t>(p[3]) << 24)));
      }
      if (done != static_cast<std::size_t>(-1)) continue;
      if (errno == E2BIG && produced > 0) continue;
      // An invalid or incomplete sequence: one replacement character for its first byte.
      put_utf8(out, kReplacement);
      ++in;
      --in_left;
    }
  }

 private:
  void close() {
    if (converter_ != nullptr) iconv_close(converter_);
    converter_ = nullptr;
  }

  long number_ = 1252;
  iconv_t converter_ = nullptr;
};

struct Group {
  bool skip = false;  // a destination that is not text
  long uc = 1;        // fallback characters after \uN
};

// Destinations whose content is not the document's text.
bool skipped_destination(std::string_view word) {
  static constexpr std::string_view kNames[] = {"annotation",
                                                "atnauthor",
                                                "atnid",
                                                "author",
                                                "bkmkend",
                                                "bkmkstart",
                                                "buptim",
                                                "colortbl",
                                                "comment",
                                                "creatim",
                                                "datastore",
                                                "doccomm",
                                                "fldinst",
                                                "fonttbl",
                                                "footer",
                                                "footerf",
                                                "footerl",
                                                "footerr",
                                                "footnote",
                                                "ftncn",
                                                "ftnsep",
                                                "ftnsepc",
                                                "generator",
                                                "header",
                                                "headerf",
                                                "headerl",
                                                "headerr",
                                                "info",
                                                "keywords",
                                                "latentstyles",
                                                "listoverridetable",
                                                "listtable",
                                                "operator",
                                                "object",
                                                "pict",
                                                "printim",
                                                "private",
                                                "revtim",
                                                "revtbl",
                                                "rsidtbl",
                                                "rxe",
                                                "shpinst",
                                                "stylesheet",
                                                "subject",
                                                "tc",
                                                "template",
                                                "themedata",
                                                "title",
                                                "txe",
                                                "xe",
                                                "xmlnstbl",
                                                "colorschememapping",
                                                "filetbl",
                                                "pgdsctbl",
                                                "nonshppict",
                                                "mmathPr",
                                                "objdata",
                                                "result"};
  return std::find(std::begin(kNames), std::end(kNames), word) != std::end(kNames);
}

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Reader {
 public:
  explicit Reader(std::string_view rtf) : in_(rtf) { groups_.push_back(Group{}); }

  std::string run() {
    while (at_ < in_.size()) {
      const char c = in_[at_];
      if (c == '\0') break;  // the end of a var data item's text
      if (c == '{') {
        ++at_;
        open_group();
      } else if (c == '}') {
        ++at_;
        fallback_ = 0;
        if (groups_.size() == 1) continue;  // unbalanced: ignored
        groups_.pop_back();
        if (groups_.size() == 1) break;  // the document's group has ended
      } else if (c == '\\') {
        if (!control()) break;
      } else if (c == '\r' || c == '\n') {
        ++at_;  // line breaks in RTF source are not text
      } else {
        ++at_;
        if (take_fallback()) continue;
        group_start_ = false;
        if (!skipping()) bytes_ += c;
      }
    }
    flush();
    if (high_surrogate_ != 0) put_utf8(out_, kReplacement);
    while (!out_.empty() && (out_.back() == ' ' || out_.back() == '\n' || out_.back() == '\t')) out_.pop_back();
    return std::move(out_);
  }

 private:
  bool skipping() const { return groups_.back().skip; }

  // A character of \uN's fallback, which is skipped.
  bool take_fallback() {
    if (fallback_ == 0) return false;
    --fallback_;
    return true;
  }

  void open_group() {
    fallback_ = 0;
    if (groups_.size() > kMaxDepth) {
      skip_nested_group();
      return;
    }
    groups_.push_back(groups_.back());
    group_start_ = true;
  }

  // Past the end of a group nested too deep, whatever it holds (\bin data included).
  void skip_nested_group() {
    std::size_t depth = 1;
    while (at_ < in_.size() && depth > 0) {
      const char c = in_[at_++];
      if (c == '\\') {
        ++at_;  // an escaped brace is no brace
      } else if (c == '{') {
        ++depth;
      } else if (c == '}') {
        --depth;
      }
    }
  }

  void text(std::uint32_t c) {
    flush();
    if (high_surrogate_ != 0) {
      put_utf8(out_, kReplacement);
      high_surrogate_ = 0;
    }
    put_utf8(out_, c);
  }

  void flush() {
    if (bytes_.empty()) return;
    if (high_surrogate_ != 0) {
      put_utf8(out_, kReplacement);
      high_surrogate_ = 0;
    }
    code_page_.decode(bytes_, out_);
    bytes_.clear();
  }

  // A control word or symbol at at_ (a backslash). False when the input ends inside it.
  bool control() {
    if (at_ + 1 >= in_.size()) return false;
    const char next = in_[at_ + 1];
    if (!is_letter(next)) {
      at_ += 2;
      return symbol(next);
    }
    std::size_t end = at_ + 1;
    while (end < in_.size() && is_letter(in_[end])) ++end;
    const std::string_view word = in_.substr(at_ + 1, std::min(end - at_ - 1, kMaxWordLength + 1));
    std::optional<long> parameter;
    bool negative = false;
    if (end < in_.size() && in_[end] == '-' && end + 1 < in_.size() && is_digit(in_[end + 1])) {
      negative = true;
      ++end;
    }
    if (end < in_.size() && is_digit(in_[end])) {
      long value = 0;
      std::size_t digits = 0;
      while (end < in_.size() && is_digit(in_[end])) {
        if (digits++ < kMaxDigits) value = value * 10 + (in_[end] - '0');
        ++end;
      }
      parameter = negative ? -value : value;
    }
    if (end < in_.size() && in_[end] == ' ') ++end;  // the delimiter belongs to the word
    at_ = end;
    this->word(word, parameter);
    return true;
  }

  bool symbol(char c) {
    if (c == '\'') {
      if (at_ + 2 > in_.size()) return false;
      const int high = hex_value(in_[at_]);
      const int low = hex_value(in_[at_ + 1]);
      at_ += 2;
      if (take_fallback()) return true;
      group_start_ = false;
      if (high < 0 || low < 0 || skipping()) return true;
      bytes_ += static_cast<char>(high * 16 + low);
      return true;
    }
    if (c == '*') {
      // An ignorable destination: ptmpl reads none of them.
      if (group_start_) groups_.back().skip = true;
      return true;
    }
    if (take_fallback()) return true;
    group_start_ = false;
    if (skipping()) return true;
    switch (c) {
      case '\\':
      case '{':
      case '}':
        bytes_ += c;
        break;
      case '~':
        text(0x00A0);
        break;
      case '_':
        text(0x2011);
        break;
      case '\n':
      case '\r':
        text('\n');
        break;
      case '\t':
        text('\t');
        break;
      default:  // \- (optional hyphen), \| \: (index entries) and unknown symbols
        break;
    }
    return true;
  }

  void word(std::string_view word, std::optional<long> parameter) {
    if (word == "bin") {  // binary data: its bytes are not RTF
      const std::size_t length = static_cast<std::size_t>(std::max(0L, parameter.value_or(0)));
      at_ += std::min(length, in_.size() - at_);
      group_start_ = false;
      return;
    }
    const bool first = group_start_;
    group_start_ = false;
    if (first && skipped_destination(word)) {
      groups_.back().skip = true;
      return;
    }
    if (word == "u" && parameter) {
      unicode(*parameter);
      return;
    }
    if (word == "uc") {
      groups_.back().uc = std::clamp(parameter.value_or(1), 0L, 8L);
      return;
    }
    if (take_fallback()) return;
    // The document's character set (a font's \fcharset does not change it here).
    if (word == "ansicpg" && parameter) {
      flush();
      code_page_.select(*parameter);
      return;
    }
    if (word == "mac" || word == "pc" || word == "pca") {
      flush();
      code_page_.select(word == "mac" ? 10000 : word == "pc" ? 437 : 850);
      return;
    }
    if (skipping()) return;
    if (word == "par" || word == "line" || word == "row" || word == "sect" || word == "page") {
      text('\n');
    } else if (word == "tab" || word == "cell") {
      text('\t');
    } else if (word == "emdash") {
      text(0x2014);
    } else if (word == "endash") {
      text(0x2013);
    } else if (word == "emspace" || word == "enspace" || word == "qmspace") {
      text(' ');
    } else if (word == "bullet") {
      text(0x2022);
    } else if (word == "lquote") {
      text(0x2018);
    } else if (word == "rquote") {
      text(0x2019);
    } else if (word == "ldblquote") {
      text(0x201C);
    } else if (word == "rdblquote") {
      text(0x201D);
    }
  }

  // \uN: a UTF-16 code unit as a signed 16-bit number; pairs of surrogates make one character.
  // A number outside -32768..65535 is no code unit.
  void unicode(long value) {
    const bool in_range = value >= -32768 && value <= 65535;
    const std::uint32_t unit = in_range ? static_cast<std::uint32_t>(value < 0 ? value + 65536 : value) : kReplacement;
    const long fallback = groups_.back().uc;
    if (!skipping()) {
      flush();
      if (unit >= 0xD800 && unit < 0xDC00) {
        if (high_surrogate_ != 0) put_utf8(out_, kReplacement);
        high_surrogate_ = unit;
      } else if (unit >= 0xDC00 && unit < 0xE000 && high_surrogate_ != 0) {
        put_utf8(out_, 0x10000 + ((high_surrogate_ - 0xD800) << 10) + (unit - 0xDC00));
        high_surrogate_ = 0;
      } else {
        text(unit);
      }
    }
    fallback_ = fallback;
  }

  std::string_view in_;
  std::size_t at_ = 0;
  std::vector<Group> groups_;
  bool group_start_ = false;
  long fallback_ = 0;
  std::uint32_t high_surrogate_ = 0;
  std::string bytes_;  // 8-bit text not yet decoded
  CodePage code_page_;
  std::string out_;
};

}  // namespace

std::string rtf_text(std::string_view rtf) {
  return Reader(rtf).run();
}

}  // namespace ptmpl::detail::mpp
